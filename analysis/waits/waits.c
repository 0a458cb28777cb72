/* The analyses put together: candidates -> waiting calls -> rows, then the
 * critical path (waits.h). */
#include "waits.h"

#include <stdlib.h>
#include <string.h>

#include "chan_index.h"
#include "waits_internal.h"

/* One waiting call per event that has a candidate, by rank index and
 * event. */
static int make_instances(const ms_wx_rank *ranks, size_t nranks, const ms_wx_cands *c, ms_waits *w)
{
    w->inst = malloc((c->n ? c->n : 1) * sizeof *w->inst);
    if (!w->inst)
        return -1;
    for (size_t ri = 0; ri < nranks; ri++) {
        const uint32_t *best = c->best[ri];
        for (size_t ev = 0; best && ev < ranks[ri].nev; ev++) {
            if (best[ev] == MS_WX_NONE)
                continue;
            const ms_wx_cand *x = &c->v[best[ev]];
            const ms_wx_event *e = &ranks[ri].ev[ev];
            int64_t to = x->cause_at < e->end ? x->cause_at : e->end;
            if (to <= e->start)
                continue;
            w->inst[w->ninst++] = (ms_wx_instance){.rank = ranks[ri].rank, .ev = (uint32_t)ev, .thread = e->thread,
                                                   .pattern = x->pattern, .cause = x->cause, .from = e->start,
                                                   .to = to, .cause_at = x->cause_at};
            w->wait_ns += (uint64_t)(to - e->start);
            w->pattern_ns[x->pattern] += (uint64_t)(to - e->start);
        }
    }
    return 0;
}

static int row_cmp(const void *a, const void *b)
{
    const ms_wx_row *x = a, *y = b;
    if (x->wait_ns != y->wait_ns)
        return x->wait_ns > y->wait_ns ? -1 : 1;
    if (x->pattern != y->pattern)
        return x->pattern < y->pattern ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->region < y->region ? -1 : x->region > y->region;
}

int ms_wx_rows(const ms_wx_rank *ranks, size_t nranks, const ms_wx_instance *inst, size_t ninst,
               const uint32_t *map, size_t nmap, ms_wx_row **out, size_t *nout)
{
    ms_waits rw = {.inst = (ms_wx_instance *)inst, .ninst = ninst}, *w = &rw;
    ms_chan_index rows, causes;
    ms_chan_index_init(&rows);
    ms_chan_index_init(&causes);
    uint64_t *cause_ns = NULL;
    size_t cap = 0;
    w->rows = malloc((w->ninst ? w->ninst : 1) * sizeof *w->rows);
    int rc = w->rows ? 0 : -1;
    size_t ri = 0;
    for (size_t i = 0; rc == 0 && i < w->ninst; i++) {
        const ms_wx_instance *x = &w->inst[i];
        /* Instances are by rank: ranks[ri] is the one of x. */
        while (ri < nranks && ranks[ri].rank != x->rank)
            ri++;
        uint32_t region = ranks[ri].ev[x->ev].region, row, cause;
        if (map && region != MS_WX_NONE)
            region = region < nmap ? map[region] : MS_WX_NONE;
        uint64_t ns = (uint64_t)(x->to - x->from);
        ms_chan_key rk = {.a = x->rank, .b = region, .c = x->pattern};
        if (ms_chan_index_id(&rows, &rk, &row) != 0) {
            rc = -1;
            break;
        }
        if (row == w->nrows)
            w->rows[w->nrows++] = (ms_wx_row){.pattern = x->pattern, .rank = x->rank, .region = region,
                                              .cause_rank = -1};
        w->rows[row].instances++;
        w->rows[row].wait_ns += ns;
        ms_chan_key ck = {.a = row, .b = x->cause};
        if (ms_chan_index_id(&causes, &ck, &cause) != 0) {
            rc = -1;
            break;
        }
        if (cause >= cap) {
            size_t c = cap ? cap * 2 : 64;
            uint64_t *p = realloc(cause_ns, c * sizeof *p);
            if (!p) {
                rc = -1;
                break;
            }
            memset(p + cap, 0, (c - cap) * sizeof *p);
            cause_ns = p;
            cap = c;
        }
        cause_ns[cause] += ns;
    }
    /* Each row's cause: the rank with the most of its time (the lower on
     * a tie). */
    for (size_t c = 0; rc == 0 && c < causes.n; c++) {
        ms_wx_row *r = &w->rows[causes.keys[c].a];
        int32_t rank = (int32_t)causes.keys[c].b;
        if (r->cause_rank < 0 || cause_ns[c] > r->wait_best || (cause_ns[c] == r->wait_best && rank < r->cause_rank)) {
            r->cause_rank = rank;
            r->wait_best = cause_ns[c];
        }
    }
    free(cause_ns);
    ms_chan_index_free(&rows);
    ms_chan_index_free(&causes);
    if (rc == 0)
        qsort(w->rows, w->nrows, sizeof *w->rows, row_cmp);
    if (rc != 0) {
        free(w->rows);
        w->rows = NULL;
        w->nrows = 0;
    }
    *out = w->rows;
    *nout = w->nrows;
    return rc;
}

int ms_waits_compute(const ms_wx_rank *ranks, size_t nranks, ms_waits *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 1; i < nranks; i++)
        if (ranks[i].rank <= ranks[i - 1].rank)
            return -1;
    ms_wx_cands c = {0};
    size_t *nev = malloc((nranks ? nranks : 1) * sizeof *nev);
    c.best = calloc(nranks ? nranks : 1, sizeof *c.best);
    c.nev = nev;
    int rc = nev && c.best ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nranks; i++)
        nev[i] = ranks[i].nev;
    if (rc == 0)
        rc = ms_wx_match_p2p(ranks, nranks, out, &c);
    if (rc == 0)
        rc = ms_wx_match_colls(ranks, nranks, out, &c);
    if (rc == 0)
        rc = make_instances(ranks, nranks, &c, out);
    for (size_t i = 0; c.best && i < nranks; i++)
        free(c.best[i]);
    free(c.best);
    free(nev);
    free(c.v);
    if (rc == 0)
        rc = ms_wx_rows(ranks, nranks, out->inst, out->ninst, NULL, 0, &out->rows, &out->nrows);
    if (rc == 0)
        rc = ms_wx_critical_path(ranks, nranks, out);
    if (rc != 0)
        ms_waits_free(out);
    return rc;
}
