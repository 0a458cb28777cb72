/*
 * Declarations shared by the files of analysis/waits/ and by nothing
 * outside it: the replay that matches and finds the waiting calls
 * (replay.c), what is summed of them (rows.c), and the critical path
 * (critical_path.c), which waits.c puts together.
 */
#ifndef MPISCOPE_WAITS_INTERNAL_H
#define MPISCOPE_WAITS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "spill.h"
#include "wait_input.h"
#include "wait_types.h"

/* What ms_waits.inst_file holds. */
typedef struct ms_wx_inst_file {
    ms_spill_file f;         /* ms_wx_instance, by rank, then event */
    uint64_t *off;         /* per input index: where its calls start; nranks + 1 */
} ms_wx_inst_file;

/* The sums of the waiting calls, as they come (rows.c). */
typedef struct ms_wx_sums ms_wx_sums;

ms_wx_sums *ms_wx_sums_new(const ms_wx_opts *o, size_t nranks);
/* x of input index ri, whose event's region is `region` (the caller's).
 * 0, or -1 when out of memory. */
int ms_wx_sums_add(ms_wx_sums *s, size_t ri, const ms_wx_instance *x, uint32_t region);
/* The results into w (rows, site_rows, late, marks, the instances on
 * disk, their totals); s freed. 0, or -1. */
int ms_wx_sums_done(ms_wx_sums *s, ms_waits *w);
void ms_wx_sums_free(ms_wx_sums *s);


/* Match every end of the inputs; counts into w, waiting calls into s.
 * 0, or -1. */
int ms_wx_replay(const ms_wx_input *in, size_t n, ms_waits *w, ms_wx_sums *s);

/* The critical path into w, from its waiting calls on disk. 0, or -1. */
int ms_wx_critical_path(const ms_wx_input *in, size_t n, const ms_wx_opts *o, ms_waits *w);

/* Root causes into w (causes, the rows' root ranks), from its waiting
 * calls on disk. 0, or -1. */
int ms_wx_root_causes(const ms_wx_input *in, size_t n, const ms_wx_opts *o, ms_waits *w);

/* The what-if into w (run_ns, no_waiting_ns, fixes), after the root causes
 * and the critical path. 0, or -1. */
int ms_wx_what_if(const ms_wx_input *in, size_t n, const ms_wx_opts *o, ms_waits *w);

#endif
