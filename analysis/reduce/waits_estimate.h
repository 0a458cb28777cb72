/*
 * What the wait-state analysis will hold, estimated before it gathers its
 * facts (the merge's --mem-limit guard, mem_guard.h). Kept apart so that it
 * changes alone when the analysis no longer grows with the events.
 */
#ifndef MPISCOPE_WAITS_ESTIMATE_H
#define MPISCOPE_WAITS_ESTIMATE_H

#include <stdint.h>

/* Bytes the analysis's facts and results take for a run of `events` traced
 * events (all ranks). */
uint64_t ms_waits_mem_estimate(uint64_t events);

#endif
