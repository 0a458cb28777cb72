/*
 * Declarations shared by the files of analysis/waits/ and by nothing
 * outside it: the candidate waits that matching finds (match.c), and the
 * critical path (critical_path.c), which waits.c puts together.
 */
#ifndef MPISCOPE_WAITS_INTERNAL_H
#define MPISCOPE_WAITS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "wait_types.h"

/* A call that may have waited: for `pattern`, until cause_at, for `cause`.
 * A call may get several (a Waitall of several receives): the latest
 * cause_at counts, the others are not kept. */
typedef struct ms_wx_cand {
    uint32_t rank_index, ev;
    uint8_t pattern;
    int32_t cause;
    int64_t cause_at;
} ms_wx_cand;

typedef struct ms_wx_cands {
    ms_wx_cand *v;
    size_t n, cap;
    uint32_t **best;       /* per rank index: event -> its candidate in v
                              (MS_WX_NONE: none); NULL until the first */
    const size_t *nev;     /* per rank index: its events */
} ms_wx_cands;

/* 0, or -1 when out of memory. */
int ms_wx_cands_add(ms_wx_cands *v, uint32_t rank_index, uint32_t ev, int pattern, int32_t cause, int64_t cause_at);

/* Point-to-point and collective matching: the counts into w, the
 * candidates into cands. 0, or -1 when out of memory. */
int ms_wx_match_p2p(const ms_wx_rank *ranks, size_t nranks, ms_waits *w, ms_wx_cands *cands);
int ms_wx_match_colls(const ms_wx_rank *ranks, size_t nranks, ms_waits *w, ms_wx_cands *cands);

/* The critical path into w, from w->inst (sorted by rank, then event).
 * 0, or -1 when out of memory. */
int ms_wx_critical_path(const ms_wx_rank *ranks, size_t nranks, ms_waits *w);

#endif
