/*
 * The wait-state analysis of a run: each traced rank's facts
 * (wait_facts.h) moved to the common clock, their regions named by keys
 * (a region of the run at a call site: run->wait_keys), and handed to
 * analysis/waits/; its results are then grouped by region (rows,
 * path_regions, path_segs), keeping the keyed rows and path regions as
 * site_rows and path_sites. Summary-mode ranks
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

/* The region name of a region index of run->waits's rows, path regions
 * and path pieces ("(compute)" for MS_WX_COMPUTE). */
const char *ms_run_wait_region(const ms_run *run, uint32_t region);

/* What a key of run->waits's site_rows and path_sites (an index into
 * run->wait_keys: a region at a call site) names: the region's index into
 * run->regions (MS_WX_NONE for compute) and the call site's location
 * (ms_callsite.location; NULL when none). */
uint32_t ms_run_wait_key_region(const ms_run *run, uint32_t key);
const char *ms_run_wait_key_location(const ms_run *run, uint32_t key);

#endif
