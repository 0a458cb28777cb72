/*
 * The tool's own stalls: the time the preload library made a thread wait,
 * recorded as events of regions named "mpiscope:..." (MS_STALL_PREFIX):
 * "mpiscope:ring_wait", a wait for room in the thread's buffer when the
 * writer cannot keep up (a slow or contended file system), and
 * "mpiscope:final_flush" / "mpiscope:signal_flush", the writing of what was
 * left at MPI_Finalize or exit, or in a signal handler. They are the tool's
 * time, not the application's: the reports give them per rank and in all,
 * and say so when they exceed MS_STALL_WARN_PCT of the ranks' wall time.
 */
#ifndef MPISCOPE_TOOL_STALLS_H
#define MPISCOPE_TOOL_STALLS_H

#include <stddef.h>
#include <stdint.h>

#include "run.h"

#define MS_STALL_PREFIX "mpiscope:"
#define MS_STALL_WARN_PCT 1.0

/* Whether a region name is one of the tool's stalls. */
int ms_stall_name(const char *name, size_t len);
/* Whether any thread of the run stalled. */
int ms_stall_any(const ms_run *run);
/* Stalls and their time of the rank at rank_index in run->ranks. */
uint64_t ms_stall_rank_ns(const ms_run *run, size_t rank_index, uint64_t *calls);
/* Stall time over all ranks, and its share of the ranks' wall time (the
 * sum of their wall times), in percent. */
uint64_t ms_stall_total_ns(const ms_run *run, double *pct_of_wall);

#endif
