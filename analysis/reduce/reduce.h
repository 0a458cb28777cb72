/*
 * Reduction of a run: every rank-*.zst of a directory -> per-rank facts and
 * per-(region, rank) statistics -> per-region statistics over ranks (the
 * run, run.h).
 *
 * Files are read in parallel (one reader per thread, files handed out in
 * order); each thread reduces into its own name -> region table and the
 * tables are merged at the end. Memory follows regions x ranks, never the
 * number of events. The result does not depend on the number of threads.
 * The stages (list, read a subset, assemble) are also callable one by one
 * (reduce_partial.h), for merges that read the logs in several processes.
 *
 * This is the header that the reports and the merge include: it gives the
 * run (run.h) and its times on the common clock (run_clock.h) as well.
 */
#ifndef MPISCOPE_REDUCE_H
#define MPISCOPE_REDUCE_H

#include "run.h"
#include "run_clock.h"

/* Reduce the logs in dir with `jobs` threads (0: one per online CPU).
 * Sets *out to the run (also for BAD_INPUT, with its errors, and for USAGE,
 * with the reason as its only error); *out is NULL only when out of memory.
 * Free it with ms_run_free. */
ms_reduce_status ms_reduce_dir(const char *dir, unsigned jobs, ms_run **out);

/* Whether the reductions that follow gather the facts of the wait-state
 * analysis (run_waits.h): on unless switched off (the merge's --no-waits).
 * Those facts are the one part of the reduction whose memory grows with
 * the number of MPI calls. */
void ms_reduce_set_waits(int on);

/* A log's file name, rank-<digits>.zst: its number (saturated), or -1 for
 * any other name (the names the reduction reads). */
long long ms_log_name_rank(const char *name);

#endif
