/*
 * What the wait-state analysis (waits.h) is given of each rank and of the
 * run: its facts on disk (wait_spill.h) and how to move them to the run's
 * common clock and the caller's regions.
 */
#ifndef MPISCOPE_WAIT_INPUT_H
#define MPISCOPE_WAIT_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "wait_spill.h"
#include "../../common/stats.h"

/* One rank's facts as the analysis reads them. */
typedef struct ms_wx_input {
    int32_t rank;
    int64_t app_start, app_end;   /* on the common clock */
    int finalized;
    uint64_t app_ns;
    ms_wx_spill *spill;           /* finished (ms_wx_spill_finish) */
    /* The spill's times to the common clock (an event keeps its duration);
     * NULL: as they are. */
    int64_t (*clock)(const void *ctx, int64_t t);
    const void *clock_ctx;
    /* The spill's regions to the caller's (nmap entries, MS_WX_NONE past
     * them); NULL: as they are. */
    const uint32_t *map;
    size_t nmap;
} ms_wx_input;

typedef struct ms_wx_opts {
    uint32_t nregions;            /* the caller's regions are below this */
    /* Rows by group[region] (ngroup entries; MS_WX_NONE past them), the
     * rows by region then kept as site_rows; NULL: rows by region. */
    const uint32_t *group;
    size_t ngroup;
    int32_t mark_rank;            /* marks: of ranks up to this one; -1 none */
} ms_wx_opts;

/* A time of the spill moved to the common clock. */
static inline int64_t ms_wx_time(const ms_wx_input *in, int64_t t)
{
    return in->clock ? in->clock(in->clock_ctx, t) : t;
}

/* A span of the spill moved to the common clock (its start; it keeps its
 * duration, as the timeline and the trace place calls) and to the caller's
 * regions. */
static inline ms_wx_span ms_wx_span_moved(const ms_wx_input *in, const ms_wx_span *x)
{
    ms_wx_span y = *x;
    if (in->clock) {
        int64_t d = x->end > x->start ? x->end - x->start : 0;
        y.start = in->clock(in->clock_ctx, x->start);
        y.end = ms_sat_add_i64(y.start, d);
    }
    if (in->map && y.region != MS_WX_NONE)
        y.region = y.region < in->nmap ? in->map[y.region] : MS_WX_NONE;
    return y;
}

#endif
