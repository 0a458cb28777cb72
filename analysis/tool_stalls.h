/*
 * The tool's own stalls: the waits for room in a thread's buffer that the
 * preload library records as events of MS_STALL_REGION (preload/tstate.h)
 * when its writer cannot keep up (a slow or contended file system). They
 * are the tool's time, not the application's: the reports give them per
 * rank and in all, and say so when they exceed MS_STALL_WARN_PCT of the
 * run's wall time.
 */
#ifndef MPISCOPE_TOOL_STALLS_H
#define MPISCOPE_TOOL_STALLS_H

#include <stddef.h>
#include <stdint.h>

#include "reduce.h"

#define MS_STALL_NAME "mpiscope:ring_wait"   /* = MS_STALL_REGION */
#define MS_STALL_WARN_PCT 1.0

/* The stall region of the run, or NULL when no thread stalled. */
const ms_region *ms_stall_region(const ms_run *run);
/* Stall time of the rank at rank_index in run->ranks (0 without). */
uint64_t ms_stall_rank_ns(const ms_run *run, size_t rank_index);
/* Stall time over all ranks, and its share of the ranks' wall time (the
 * sum of their wall times), in percent. */
uint64_t ms_stall_total_ns(const ms_run *run, double *pct_of_wall);

#endif
