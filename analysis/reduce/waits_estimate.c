/* The wait-state analysis's memory, estimated: see waits_estimate.h. */
#include "waits_estimate.h"

/* Peak memory of the merge with the analysis less without it, per traced
 * event, measured (docs/PERFORMANCE.md): 94 bytes on NetPIPE's 46.3 M
 * events, 69 on synth-logs' halo exchange; the facts of every call and
 * message are kept until the analysis runs. */
#define WAITS_BYTES_PER_EVENT 96u

uint64_t ms_waits_mem_estimate(uint64_t events)
{
    return events > UINT64_MAX / WAITS_BYTES_PER_EVENT ? UINT64_MAX : events * WAITS_BYTES_PER_EVENT;
}
