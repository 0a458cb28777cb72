/*
 * The run's times on the common clock: the clock model of clock_align.h
 * fitted to each rank of a run against rank 0 and applied to what the
 * reduction placed on the ranks' header clocks (DESIGN section 6). The
 * model itself knows nothing of runs; this is where it meets them.
 */
#ifndef MPISCOPE_RUN_CLOCK_H
#define MPISCOPE_RUN_CLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "clock_align.h"
#include "run.h"
#include "../../common/stats.h"

/* A rank's tool-clock time (CLOCK_MONOTONIC ns from the reader) on the
 * run's common clock, once ms_clock_align_run has run. */
int64_t ms_rank_time(const ms_rank_info *in, uint64_t tool_ns);

/* Fit every rank of the run against rank 0 and move what the reduction
 * placed on the header clocks (each rank's first and last event) to the
 * common clock. */
void ms_clock_align_run(ms_run *run);

/* Move a rank's region statistics (first start, last end) from its header
 * clock to the common clock. */
void ms_clock_align_stats(const ms_rank_info *in, ms_stats *s);

/* Corrections of at least this much somewhere in the run are named in the
 * text report. */
#define MS_ALIGN_REPORT_NS 1000000

/* When some rank's correction reaches MS_ALIGN_REPORT_NS: a line for the
 * text report in buf ("aligned to rank 0: ..."), and 1; else 0. */
int ms_clock_align_describe(const ms_run *run, char *buf, size_t cap);

#endif
