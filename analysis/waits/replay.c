/* The replay: every rank's message ends and collective calls merged in
 * entry order, matched as they come (waits.h, waits_internal.h). What is
 * held: per channel its ends not yet matched, per collective (comm, k-th
 * call) the calls until every member came, per event its best waiting
 * until every end it completes was matched; each goes when done. */
#include "waits_internal.h"

#include <stdlib.h>
#include <string.h>

#include "omap.h"

/* ---- the replay's state ---- */

/* An end as held: moved to the common clock, with its input's index. */
typedef struct hend {
    ms_wx_end e;
    uint32_t ri;
} hend;

/* A channel's ends not yet matched, all of one side: the oldest in a
 * ring of at most CHAN_RING, the newer ones on disk (over) in order. */
#define CHAN_RING 1024u

typedef struct chan {
    hend *q;
    size_t head, n, cap;
    ms_spill_file over;
    uint64_t over_at;      /* the next of over to come to the ring */
    int has_over;
    ms_okey key;
} chan;

/* A collective's calls so far. */
typedef struct group {
    hend *m;
    size_t n, size;
    ms_okey key;
} group;

/* A call that may have waited: for `pattern`, until cause_at, for
 * `cause`. A call may get several (a Waitall of several receives): sorted
 * by (rank, event), the latest cause_at counts. */
typedef struct cand {
    int64_t cause_at;
    int64_t ev_start, ev_end;
    int32_t rank, cause;
    uint32_t ev, region, ri;
    uint16_t thread;
    uint16_t cause_thread;
    uint8_t pattern;
    uint8_t pad[3];
} cand;

static int cand_cmp(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->ev != y->ev)
        return x->ev < y->ev ? -1 : 1;
    if (x->cause_at != y->cause_at)
        return x->cause_at > y->cause_at ? -1 : 1;
    if (x->pattern != y->pattern)
        return x->pattern < y->pattern ? -1 : 1;
    return x->cause < y->cause ? -1 : x->cause > y->cause;
}

typedef struct replay {
    const ms_wx_input *in;
    size_t n;
    ms_waits *w;
    ms_wx_sums *sums;
    ms_xsort_iter *it;     /* per input */
    hend *head;            /* per input: its next end */
    struct hkey {
        int64_t entry;     /* head[i].e.entry */
        size_t i;
    } *heap;               /* the inputs with a head, their keys in the heap */
    size_t nheap;
    ms_omap chans, groups, seqs;
    ms_pool chan_pool, group_pool;
    ms_xsort cands;        /* the candidate waits */
    cand *last;            /* per input: its latest candidate, not yet written */
    uint8_t *has_last;
    uint64_t *seq_n;       /* per (input, comm): the calls so far */
    size_t seq_cap;
    /* Per communicator: how many ranks have more than k calls on it. */
    ms_chan_index comm_ids;
    uint64_t **totals;     /* per id: the ranks' call counts, descending */
    size_t *ntotals;
} replay;

/* ---- candidates: the best per event is its waiting ---- */

/* End h is matched: its candidate wait (pattern >= 0) to its event, caused
 * by end `by` (its rank's entry at cause_at). */
static int settle(replay *r, const hend *h, int pattern, const hend *by, int64_t cause_at)
{
    const ms_wx_end *e = &h->e;
    if (pattern < 0 || e->ev == MS_WX_NONE || !e->charge)
        return 0;
    cand c = {.cause_at = cause_at, .ev_start = e->ev_start, .ev_end = e->ev_end, .rank = r->in[h->ri].rank,
              .cause = r->in[by->ri].rank, .ev = e->ev, .region = e->region, .ri = h->ri, .thread = e->thread,
              .cause_thread = by->e.thread, .pattern = (uint8_t)pattern};
    /* The candidates of one call (a Waitall's receives) mostly come one
     * after the other: only the better goes on. */
    cand *l = &r->last[h->ri];
    if (r->has_last[h->ri] && l->ev == c.ev) {
        if (cand_cmp(&c, l) < 0)
            *l = c;
        return 0;
    }
    int rc = r->has_last[h->ri] ? ms_xsort_add(&r->cands, l) : 0;
    *l = c;
    r->has_last[h->ri] = 1;
    return rc;
}

/* The best candidate of each event (the first of its (rank, event): the
 * latest cause; ties to the lower pattern, then the lower rank) as a
 * waiting call, when it waited. */
static int waiting_calls(replay *r)
{
    ms_xsort_iter it;
    for (size_t i = 0; i < r->n; i++)
        if (r->has_last[i] && ms_xsort_add(&r->cands, &r->last[i]) != 0)
            return -1;
    if (ms_xsort_finish(&r->cands) != 0 || ms_xsort_iter_init(&it, &r->cands, 1024) != 0)
        return -1;
    int rc = 0, has = 0;
    cand last = {0};
    for (const cand *c; rc == 0 && (c = ms_xsort_next(&it));) {
        if (has && c->rank == last.rank && c->ev == last.ev)
            continue;
        has = 1;
        last = *c;
        int64_t to = c->cause_at < c->ev_end ? c->cause_at : c->ev_end;
        if (to <= c->ev_start)
            continue;
        ms_wx_instance x = {.rank = c->rank, .ev = c->ev, .thread = c->thread, .pattern = c->pattern,
                            .cause_thread = c->cause_thread, .cause = c->cause, .from = c->ev_start, .to = to, .cause_at = c->cause_at};
        rc = ms_wx_sums_add(r->sums, c->ri, &x, c->region);
    }
    if (it.failed)
        rc = -1;
    ms_xsort_iter_free(&it);
    return rc;
}

/* ---- point to point ---- */

/* A matched pair: the waits it may cause. */
static int pair(replay *r, const hend *s, const hend *v)
{
    const ms_wx_end *sm = &s->e, *rm = &v->e;
    ms_waits *w = r->w;
    w->messages++;
    int pv = -1, ps = -1;
    if (rm->ev != MS_WX_NONE) {
        if (rm->ev_end < sm->entry) {
            w->clock_violations++;
            if ((uint64_t)(sm->entry - rm->ev_end) > w->clock_violation_max_ns)
                w->clock_violation_max_ns = (uint64_t)(sm->entry - rm->ev_end);
        }
        if (rm->charge && sm->entry > rm->ev_start)
            pv = MS_WX_LATE_SENDER;
    }
    if (sm->sync && sm->ev != MS_WX_NONE) {
        /* A standard send waited for the receive only if it returned after
         * the receive was posted. */
        int held = sm->sync == 1 || sm->ev_end >= rm->entry;
        if (sm->charge && held && rm->entry > sm->ev_start)
            ps = MS_WX_LATE_RECEIVER;
    }
    if (settle(r, v, pv, s, sm->entry) != 0)
        return -1;
    return settle(r, s, ps, v, rm->entry);
}

/* Push h at the tail of c. 0, or -1. */
static int chan_push(chan *c, const hend *h)
{
    if (c->has_over && (c->over_at < c->over.n || c->n == CHAN_RING))
        return ms_spill_file_put(&c->over, h);
    if (c->n == CHAN_RING) {
        ms_spill_file_init(&c->over, sizeof(hend), 256);
        c->over_at = 0;
        c->has_over = 1;
        return ms_spill_file_put(&c->over, h);
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 4;
        hend *q = malloc(cap * sizeof *q);
        if (!q)
            return -1;
        for (size_t i = 0; i < c->n; i++)
            q[i] = c->q[(c->head + i) % c->cap];
        free(c->q);
        c->q = q;
        c->cap = cap;
        c->head = 0;
    }
    c->q[(c->head + c->n++) % c->cap] = *h;
    return 0;
}

/* Pop c's oldest into *out; the ring refilled from disk when it empties.
 * 0, or -1. */
static int chan_pop(chan *c, hend *out)
{
    *out = c->q[c->head];
    c->head = (c->head + 1) % c->cap;
    c->n--;
    if (c->n || !c->has_over || c->over_at >= c->over.n)
        return 0;
    size_t k = c->over.n - c->over_at < CHAN_RING ? (size_t)(c->over.n - c->over_at) : CHAN_RING;
    if (c->cap < k) {
        hend *q = realloc(c->q, k * sizeof *q);
        if (!q)
            return -1;
        c->q = q;
        c->cap = k;
    }
    c->head = 0;
    if (ms_spill_file_flush(&c->over) != 0 || ms_spill_read(&c->over, c->over_at, k, c->q) != 0)
        return -1;
    c->over_at += k;
    c->n = k;
    return 0;
}

/* Ends of c not yet matched. */
static uint64_t chan_count(const chan *c)
{
    return c->n + (c->has_over ? c->over.n - c->over_at : 0);
}

static void chan_free(chan *c)
{
    free(c->q);
    if (c->has_over)
        ms_spill_file_free(&c->over);
    c->q = NULL;
    c->has_over = 0;
}

static int p2p(replay *r, const hend *h)
{
    const ms_wx_end *e = &h->e;
    int32_t me = r->in[h->ri].rank;
    int send = e->kind == MS_WX_END_SEND;
    int64_t src = send ? me : e->other, dst = send ? e->other : me;
    ms_okey k = {.a = e->comm, .b = e->tag, .c = (int64_t)((uint64_t)(uint32_t)src << 32 | (uint32_t)dst)};
    uint32_t s = ms_omap_get(&r->chans, &k);
    if (s != UINT32_MAX) {
        chan *c = MS_POOL_AT(&r->chan_pool, chan, s);
        if (c->q[c->head].e.kind != e->kind) {
            hend other;
            if (chan_pop(c, &other) != 0)
                return -1;
            if (chan_count(c) == 0) {
                chan_free(c);
                ms_omap_del(&r->chans, &k);
                if (ms_pool_give(&r->chan_pool, s) != 0)
                    return -1;
            }
            return send ? pair(r, h, &other) : pair(r, &other, h);
        }
    } else {
        if ((s = ms_pool_take(&r->chan_pool)) == UINT32_MAX || ms_omap_put(&r->chans, &k, s) != 0)
            return -1;
        MS_POOL_AT(&r->chan_pool, chan, s)->key = k;
    }
    return chan_push(MS_POOL_AT(&r->chan_pool, chan, s), h);
}

/* ---- collectives ---- */

/* The members of collective k of communicator comm: the ranks with more
 * than k calls on it. */
static size_t group_size(const replay *r, int64_t comm, uint64_t k)
{
    ms_chan_key key = {.a = comm};
    uint32_t id;
    if (!ms_chan_index_find(&r->comm_ids, &key, &id))
        return 0;
    const uint64_t *t = r->totals[id];
    size_t lo = 0, hi = r->ntotals[id];
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (t[m] > k)
            lo = m + 1;
        else
            hi = m;
    }
    return lo;
}

static int member_cmp(const void *a, const void *b)
{
    const hend *x = a, *y = b;
    return x->ri < y->ri ? -1 : x->ri > y->ri;
}

/* The waits of one complete collective: its calls g[0..n), one per rank. */
static int coll_group(replay *r, hend *g, size_t n, size_t members)
{
    if (n > 1)
        qsort(g, n, sizeof *g, member_cmp);
    if (n < members) {
        r->w->unmatched_colls += n;
        for (size_t k = 0; k < n; k++)
            if (settle(r, &g[k], -1, NULL, 0) != 0)
                return -1;
        return 0;
    }
    r->w->colls++;
    const ms_wx_end *first = &g[0].e;
    int cls = first->sync;
    size_t last = 0, early = SIZE_MAX, root = SIZE_MAX;
    for (size_t k = 0; k < n; k++) {
        if (g[k].e.entry > g[last].e.entry)
            last = k;
        if (r->in[g[k].ri].rank == first->other)
            root = k;
    }
    for (size_t k = 0; k < n; k++)
        if (k != root && (early == SIZE_MAX || g[k].e.entry < g[early].e.entry))
            early = k;
    for (size_t k = 0; k < n; k++) {
        const ms_wx_end *c = &g[k].e;
        size_t by = SIZE_MAX;
        int pattern = -1;
        if (c->ev != MS_WX_NONE && c->charge) {
            switch (cls) {
            case MS_WX_BARRIER:
            case MS_WX_NXN:
                if (k != last) {
                    by = last;
                    pattern = cls == MS_WX_BARRIER ? MS_WX_WAIT_BARRIER : MS_WX_WAIT_NXN;
                }
                break;
            case MS_WX_BCAST:
                if (root != SIZE_MAX && k != root) {
                    by = root;
                    pattern = MS_WX_LATE_BCAST;
                }
                break;
            case MS_WX_REDUCE:
                if (k == root && early != SIZE_MAX) {
                    by = early;
                    pattern = MS_WX_EARLY_REDUCE;
                }
                break;
            }
        }
        int64_t at = pattern >= 0 ? g[by].e.entry : 0;
        if (pattern >= 0 && !(at > c->ev_start))
            pattern = -1;
        if (settle(r, &g[k], pattern, pattern >= 0 ? &g[by] : NULL, at) != 0)
            return -1;
    }
    return 0;
}

static int coll(replay *r, const hend *h)
{
    /* Its place among its rank's calls on the communicator. */
    ms_okey sk = {.a = h->ri, .b = h->e.comm};
    uint32_t si = ms_omap_get(&r->seqs, &sk);
    if (si == UINT32_MAX) {
        si = (uint32_t)r->seqs.n;
        if (ms_omap_put(&r->seqs, &sk, si) != 0)
            return -1;
    }
    if (si >= r->seq_cap) {
        size_t c = r->seq_cap ? r->seq_cap * 2 : 64;
        uint64_t *v = realloc(r->seq_n, c * sizeof *v);
        if (!v)
            return -1;
        memset(v + r->seq_cap, 0, (c - r->seq_cap) * sizeof *v);
        r->seq_n = v;
        r->seq_cap = c;
    }
    uint64_t k = r->seq_n[si]++;
    size_t size = group_size(r, h->e.comm, k), members = group_size(r, h->e.comm, 0);
    ms_okey gk = {.a = h->e.comm, .b = (int64_t)k};
    uint32_t s = ms_omap_get(&r->groups, &gk);
    if (s == UINT32_MAX) {
        if ((s = ms_pool_take(&r->group_pool)) == UINT32_MAX || ms_omap_put(&r->groups, &gk, s) != 0)
            return -1;
        group *g = MS_POOL_AT(&r->group_pool, group, s);
        g->key = gk;
        g->size = size;
        if (!(g->m = malloc((size ? size : 1) * sizeof *g->m)))
            return -1;
    }
    group *g = MS_POOL_AT(&r->group_pool, group, s);
    if (g->n >= g->size)
        return -1;
    g->m[g->n++] = *h;
    if (g->n < g->size)
        return 0;
    hend *m = g->m;
    size_t n = g->n;
    ms_omap_del(&r->groups, &gk);
    if (ms_pool_give(&r->group_pool, s) != 0) {
        free(m);
        return -1;
    }
    int rc = coll_group(r, m, n, members);
    free(m);
    return rc;
}

/* ---- the merge of the inputs' ends ---- */

/* Whether input x's head comes before input y's: by entry, then input
 * (an input has one head). */
static inline int head_less(const struct hkey *x, const struct hkey *y)
{
    if (x->entry != y->entry)
        return x->entry < y->entry;
    return x->i < y->i;
}

/* The key at i moved down to its place (the keys held in the heap: no
 * look into the heads). */
static void heap_sift(replay *r, size_t i)
{
    struct hkey *h = r->heap, t = h[i];
    size_t n = r->nheap;
    for (;;) {
        size_t l = 2 * i + 1, m = l;
        if (l >= n)
            break;
        if (l + 1 < n && head_less(&h[l + 1], &h[l]))
            m = l + 1;
        if (!head_less(&h[m], &t))
            break;
        h[i] = h[m];
        i = m;
    }
    h[i] = t;
}

/* Input ri's next end into head[ri], moved; 1, 0 at its end, -1 on error. */
static int advance(replay *r, size_t ri)
{
    const ms_wx_end *e = ms_xsort_next(&r->it[ri]);
    if (!e)
        return r->it[ri].failed ? -1 : 0;
    const ms_wx_input *in = &r->in[ri];
    hend *h = &r->head[ri];
    h->e = *e;
    h->ri = (uint32_t)ri;
    h->e.entry = ms_wx_time(in, e->entry);
    if (e->ev != MS_WX_NONE) {
        ms_wx_span s = {.start = e->ev_start, .end = e->ev_end, .region = e->region};
        s = ms_wx_span_moved(in, &s);
        h->e.ev_start = s.start;
        h->e.ev_end = s.end;
        h->e.region = s.region;
    }
    return 1;
}

static int comm_totals(replay *r)
{
    size_t known = 0;
    for (size_t i = 0; i < r->n; i++) {
        const ms_wx_spill *sp = r->in[i].spill;
        for (size_t c = 0; c < sp->comms.n; c++) {
            uint32_t id;
            if (ms_chan_index_id(&r->comm_ids, &sp->comms.keys[c], &id) != 0)
                return -1;
            if (id == known) {
                uint64_t **t = realloc(r->totals, (known + 1) * sizeof *t);
                if (!t)
                    return -1;
                r->totals = t;
                size_t *nt = realloc(r->ntotals, (known + 1) * sizeof *nt);
                if (!nt)
                    return -1;
                r->ntotals = nt;
                r->ntotals[id] = 0;
                if (!(r->totals[id] = malloc(r->n * sizeof **r->totals)))
                    return -1;
                known++;
            }
            r->totals[id][r->ntotals[id]++] = sp->ncoll[c];
        }
    }
    /* Descending: the ranks with more than k calls come first. */
    for (size_t id = 0; id < r->comm_ids.n; id++) {
        uint64_t *t = r->totals[id];
        for (size_t i = 1; i < r->ntotals[id]; i++)
            for (size_t j = i; j > 0 && t[j - 1] < t[j]; j--) {
                uint64_t x = t[j];
                t[j] = t[j - 1];
                t[j - 1] = x;
            }
    }
    return 0;
}

static void replay_free(replay *r)
{
    for (size_t i = 0; r->it && i < r->n; i++)
        ms_xsort_iter_free(&r->it[i]);
    free(r->it);
    free(r->head);
    free(r->heap);
    free(r->last);
    free(r->has_last);
    for (size_t i = 0; i < r->chan_pool.n; i++)
        chan_free(MS_POOL_AT(&r->chan_pool, chan, i));
    for (size_t i = 0; i < r->group_pool.n; i++)
        free(MS_POOL_AT(&r->group_pool, group, i)->m);
    ms_omap_free(&r->chans);
    ms_omap_free(&r->groups);
    ms_omap_free(&r->seqs);
    ms_pool_free(&r->chan_pool);
    ms_pool_free(&r->group_pool);
    ms_xsort_free(&r->cands);
    free(r->seq_n);
    for (size_t id = 0; r->totals && id < r->comm_ids.n; id++)
        free(r->totals[id]);
    free(r->totals);
    free(r->ntotals);
    ms_chan_index_free(&r->comm_ids);
}

/* What is left once every end came: unmatched ends. Groups are complete
 * by construction: every member's calls were counted. */
static void leftovers(replay *r)
{
    for (size_t i = 0; i < r->chan_pool.n; i++) {
        chan *c = MS_POOL_AT(&r->chan_pool, chan, i);
        if (!chan_count(c))
            continue;
        if (c->q[c->head].e.kind == MS_WX_END_SEND)
            r->w->unmatched_sends += chan_count(c);
        else
            r->w->unmatched_recvs += chan_count(c);
    }
}

int ms_wx_replay(const ms_wx_input *in, size_t n, ms_waits *w, ms_wx_sums *sums)
{
    replay r = {.in = in, .n = n, .w = w, .sums = sums};
    r.chan_pool.size = sizeof(chan);
    r.group_pool.size = sizeof(group);
    ms_xsort_init(&r.cands, sizeof(cand), 65536, cand_cmp);
    ms_chan_index_init(&r.comm_ids);
    r.it = calloc(n ? n : 1, sizeof *r.it);
    r.head = calloc(n ? n : 1, sizeof *r.head);
    r.heap = malloc((n ? n : 1) * sizeof *r.heap);
    r.last = malloc((n ? n : 1) * sizeof *r.last);
    r.has_last = calloc(n ? n : 1, 1);
    int rc = r.it && r.head && r.heap && r.last && r.has_last ? comm_totals(&r) : -1;
    /* A buffer per run of each input: 16 MiB in all, 64 to 4096 ends each. */
    size_t runs = 0;
    for (size_t i = 0; i < n; i++)
        runs += in[i].spill->ends.nruns;
    size_t per = runs ? (16u << 20) / sizeof(ms_wx_end) / runs : 4096;
    per = per < 64 ? 64 : per > 4096 ? 4096 : per;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = ms_xsort_iter_init(&r.it[i], &in[i].spill->ends, per);
        int got = rc == 0 ? advance(&r, i) : -1;
        if (got < 0)
            rc = -1;
        else if (got)
            r.heap[r.nheap++] = (struct hkey){.entry = r.head[i].e.entry, .i = i};
    }
    for (size_t i = r.nheap / 2; rc == 0 && i-- > 0;)
        heap_sift(&r, i);
    while (rc == 0 && r.nheap) {
        size_t ri = r.heap[0].i;
        hend h = r.head[ri];
        rc = h.e.kind == MS_WX_END_COLL ? coll(&r, &h) : p2p(&r, &h);
        int got = rc == 0 ? advance(&r, ri) : -1;
        if (got < 0)
            rc = -1;
        else if (!got)
            r.heap[0] = r.heap[--r.nheap];
        else
            r.heap[0].entry = r.head[ri].e.entry;
        if (r.nheap)
            heap_sift(&r, 0);
    }
    if (rc == 0) {
        leftovers(&r);
        rc = waiting_calls(&r);
    }
    replay_free(&r);
    return rc;
}
