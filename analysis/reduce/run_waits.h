/*
 * The wait-state analysis of a run: each traced rank's facts
 * (wait_facts.h) moved to the common clock, their regions named by the
 * run's region indices, and handed to analysis/waits/. Summary-mode ranks
 * have no facts: a run of only those has no analysis (run->waits NULL).
 */
#ifndef MPISCOPE_RUN_WAITS_H
#define MPISCOPE_RUN_WAITS_H

#include <stddef.h>
#include <stdint.h>

#include "reduce_partial.h"

/* Once the run's ranks, clocks and regions are made: run->waits from the
 * facts of the files kept as ranks (file_to_rank). 0, or -1 when out of
 * memory. */
int ms_run_waits(ms_run *run, ms_file_job *jobs, size_t njobs, const uint32_t *file_to_rank);

/* The region name of a region index of the analysis ("(compute)" for
 * MS_WX_COMPUTE). */
const char *ms_run_wait_region(const ms_run *run, uint32_t region);

#endif
