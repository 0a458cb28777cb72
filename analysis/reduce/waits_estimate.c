/* The wait-state analysis's memory, estimated: see waits_estimate.h. */
#include "waits_estimate.h"

#include "wire_facts.h"

/* What the streamed analysis holds whatever the run's length (DESIGN §6,
 * "Bounded memory"): the spilled facts kept in memory before they go to
 * disk (MS_SPILL_MEMORY, 32 MiB), the replay's shared read buffers (16
 * MiB), the MPI merge's piece of facts being received (4 MiB; counted in
 * both merges, so that they decide alike), and per log its rank's state
 * (channels' heads, open collectives, buffers: a few KiB). */
#define WAITS_BOUNDED_BYTES ((48ull << 20) + MS_FACTS_PIECE_BYTES)
#define WAITS_BYTES_PER_LOG 4096ull

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

uint64_t ms_waits_mem_estimate(uint64_t events, uint64_t logs)
{
    (void)events;
    return add_sat(WAITS_BOUNDED_BYTES, mul_sat(logs, WAITS_BYTES_PER_LOG));
}
