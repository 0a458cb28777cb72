/*
 * What the wait-state analysis will hold, estimated before it gathers its
 * facts (the merge's --mem-limit guard, mem_guard.h). Kept apart so that it
 * changes alone with the analysis.
 */
#ifndef MPISCOPE_WAITS_ESTIMATE_H
#define MPISCOPE_WAITS_ESTIMATE_H

#include <stdint.h>

/* Bytes the analysis takes for a run of `events` traced events (all
 * ranks) in `logs` logs; the same in both merges, so that they decide
 * alike (the MPI merge's process 0 receives the facts a piece at a time:
 * docs/MERGE_MPI.md). Saturates at UINT64_MAX. */
uint64_t ms_waits_mem_estimate(uint64_t events, uint64_t logs);

#endif
