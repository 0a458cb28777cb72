/* One rank's facts on disk: see wait_spill.h. */
#include "wait_spill.h"

#include <stdlib.h>
#include <string.h>

/* Records sorted in memory at a time (a few MiB per log being read). */
#define ENDS_BATCH 65536u
#define SPANS_BATCH 65536u

static int end_cmp(const void *a, const void *b)
{
    const ms_wx_end *x = a, *y = b;
    if (x->entry != y->entry)
        return x->entry < y->entry ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int ms_wx_span_cmp(const void *a, const void *b)
{
    const ms_wx_span *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end > y->end ? -1 : 1;
    return x->ev < y->ev ? -1 : x->ev > y->ev;
}

void ms_wx_spill_init(ms_wx_spill *s)
{
    memset(s, 0, sizeof *s);
    ms_xsort_init(&s->ends, sizeof(ms_wx_end), ENDS_BATCH, end_cmp);
    ms_xsort_init(&s->lane, sizeof(ms_wx_span), SPANS_BATCH, ms_wx_span_cmp);
    ms_xsort_init(&s->user, sizeof(ms_wx_span), SPANS_BATCH, ms_wx_span_cmp);
    ms_chan_index_init(&s->comms);
}

void ms_wx_spill_free(ms_wx_spill *s)
{
    if (!s)
        return;
    ms_xsort_free(&s->ends);
    ms_xsort_free(&s->lane);
    ms_xsort_free(&s->user);
    ms_chan_index_free(&s->comms);
    free(s->ncoll);
    free(s->lane_n.n);
    free(s->user_n.n);
    memset(s, 0, sizeof *s);
}

static int count_thread(ms_wx_thread_counts *c, uint16_t t)
{
    if (t >= c->nthreads) {
        uint64_t *v = realloc(c->n, ((size_t)t + 1) * sizeof *v);
        if (!v)
            return -1;
        memset(v + c->nthreads, 0, ((size_t)t + 1 - c->nthreads) * sizeof *v);
        c->n = v;
        c->nthreads = (size_t)t + 1;
    }
    c->n[t]++;
    return 0;
}

int ms_wx_spill_span(ms_wx_spill *s, int is_mpi, const ms_wx_span *x)
{
    if (count_thread(is_mpi ? &s->lane_n : &s->user_n, x->thread) != 0)
        return -1;
    return ms_xsort_add(is_mpi ? &s->lane : &s->user, x);
}

void ms_wx_thread_range(const ms_wx_thread_counts *c, size_t t, uint64_t *off, uint64_t *n)
{
    uint64_t o = 0;
    for (size_t i = 0; i < t && i < c->nthreads; i++)
        o += c->n[i];
    *off = o;
    *n = t < c->nthreads ? c->n[t] : 0;
}

int ms_wx_spill_event(ms_wx_spill *s, uint32_t ev, const ms_wx_event *e)
{
    ms_wx_span x = {.start = e->start, .end = e->end, .region = e->region, .ev = ev, .thread = e->thread};
    return ms_wx_spill_span(s, e->kind == MS_WX_MPI, &x);
}

int ms_wx_spill_end(ms_wx_spill *s, const ms_wx_end *x)
{
    if (x->kind == MS_WX_END_COLL) {
        ms_chan_key k = {.a = x->comm};
        uint32_t id;
        if (ms_chan_index_id(&s->comms, &k, &id) != 0)
            return -1;
        if (id >= s->ncoll_cap) {
            size_t c = s->ncoll_cap ? s->ncoll_cap * 2 : 16;
            uint64_t *v = realloc(s->ncoll, c * sizeof *v);
            if (!v)
                return -1;
            memset(v + s->ncoll_cap, 0, (c - s->ncoll_cap) * sizeof *v);
            s->ncoll = v;
            s->ncoll_cap = c;
        }
        s->ncoll[id]++;
    }
    return ms_xsort_add(&s->ends, x);
}

int ms_wx_spill_finish(ms_wx_spill *s)
{
    int rc = ms_xsort_finish(&s->ends);
    rc |= ms_xsort_finish(&s->lane);
    rc |= ms_xsort_finish(&s->user);
    return rc ? -1 : 0;
}
