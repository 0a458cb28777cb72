/* Message and collective matching, and the waiting calls they show: see
 * waits.h. */
#include "waits_internal.h"

#include <stdlib.h>
#include <string.h>

#include "chan_index.h"

/* One message end of a channel: its entry, and where it is. */
typedef struct end_ref {
    int64_t entry;
    uint32_t rank_index;   /* into the ranks given */
    uint32_t msg;          /* into that rank's messages */
} end_ref;

static int cmp_i64(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

static int end_cmp(const void *a, const void *b)
{
    const end_ref *x = a, *y = b;
    int c = cmp_i64(x->entry, y->entry);
    if (c)
        return c;
    /* Equal entries (one call that sent twice): keep the recorded order. */
    if (x->rank_index != y->rank_index)
        return x->rank_index < y->rank_index ? -1 : 1;
    return x->msg < y->msg ? -1 : x->msg > y->msg;
}

/* Sort a channel's ends by entry; most are in order already. */
static void sort_ends(end_ref *v, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (end_cmp(&v[i - 1], &v[i]) > 0) {
            qsort(v, n, sizeof *v, end_cmp);
            return;
        }
}

/* Is candidate (pattern, cause, cause_at) the one to keep over x? The
 * latest cause counts; ties go to the lower pattern, then the lower rank. */
static int better(const ms_wx_cand *x, int pattern, int32_t cause, int64_t cause_at)
{
    if (cause_at != x->cause_at)
        return cause_at > x->cause_at;
    if (pattern != x->pattern)
        return pattern < x->pattern;
    return cause < x->cause;
}

int ms_wx_cands_add(ms_wx_cands *v, uint32_t rank_index, uint32_t ev, int pattern, int32_t cause, int64_t cause_at)
{
    uint32_t *best = v->best[rank_index];
    if (!best) {
        size_t nev = v->nev[rank_index];
        if (!(best = v->best[rank_index] = malloc((nev ? nev : 1) * sizeof *best)))
            return -1;
        memset(best, 0xff, (nev ? nev : 1) * sizeof *best);
    }
    if (best[ev] != MS_WX_NONE) {
        ms_wx_cand *x = &v->v[best[ev]];
        if (better(x, pattern, cause, cause_at)) {
            x->pattern = (uint8_t)pattern;
            x->cause = cause;
            x->cause_at = cause_at;
        }
        return 0;
    }
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 256;
        ms_wx_cand *p = realloc(v->v, cap * sizeof *p);
        if (!p)
            return -1;
        v->v = p;
        v->cap = cap;
    }
    best[ev] = (uint32_t)v->n;
    v->v[v->n++] = (ms_wx_cand){.rank_index = rank_index, .ev = ev, .pattern = (uint8_t)pattern, .cause = cause,
                                .cause_at = cause_at};
    return 0;
}

/* A matched pair: the waits it may cause. */
static int pair(const ms_wx_rank *ranks, const end_ref *s, const end_ref *r, ms_waits *w, ms_wx_cands *cands)
{
    const ms_wx_rank *sr = &ranks[s->rank_index], *rr = &ranks[r->rank_index];
    const ms_wx_msg *sm = &sr->msg[s->msg], *rm = &rr->msg[r->msg];
    w->messages++;
    if (rm->ev != MS_WX_NONE && rm->ev < rr->nev) {
        const ms_wx_event *e = &rr->ev[rm->ev];
        if (e->end < sm->entry) {
            w->clock_violations++;
            if ((uint64_t)(sm->entry - e->end) > w->clock_violation_max_ns)
                w->clock_violation_max_ns = (uint64_t)(sm->entry - e->end);
        }
        if (e->charge && sm->entry > e->start &&
            ms_wx_cands_add(cands, r->rank_index, rm->ev, MS_WX_LATE_SENDER, sr->rank, sm->entry) != 0)
            return -1;
    }
    if (sm->sync && sm->ev != MS_WX_NONE && sm->ev < sr->nev) {
        const ms_wx_event *e = &sr->ev[sm->ev];
        /* A standard send waited for the receive only if it returned after
         * the receive was posted. */
        int held = sm->sync == 1 || e->end >= rm->entry;
        if (e->charge && held && rm->entry > e->start &&
            ms_wx_cands_add(cands, s->rank_index, sm->ev, MS_WX_LATE_RECEIVER, rr->rank, rm->entry) != 0)
            return -1;
    }
    return 0;
}

/* Grow a count array to hold index i. */
static int grow_counts(size_t **v, size_t *cap, size_t i)
{
    if (i < *cap)
        return 0;
    size_t c = *cap ? *cap : 256;
    while (c <= i)
        c *= 2;
    size_t *p = realloc(*v, c * sizeof *p);
    if (!p)
        return -1;
    memset(p + *cap, 0, (c - *cap) * sizeof *p);
    *v = p;
    *cap = c;
    return 0;
}

int ms_wx_match_p2p(const ms_wx_rank *ranks, size_t nranks, ms_waits *w, ms_wx_cands *cands)
{
    size_t total = 0;
    for (size_t i = 0; i < nranks; i++)
        total += ranks[i].nmsg;
    ms_chan_index ci;
    ms_chan_index_init(&ci);
    uint32_t *ids = malloc((total ? total : 1) * sizeof *ids);
    size_t *ns = NULL, *nr = NULL, cap_s = 0, cap_r = 0;
    end_ref *s = malloc((total ? total : 1) * sizeof *s), *r = malloc((total ? total : 1) * sizeof *r);
    int rc = ids && s && r ? 0 : -1;
    /* Each end's channel, and the ends per channel. */
    size_t k = 0;
    for (size_t i = 0; rc == 0 && i < nranks; i++)
        for (size_t m = 0; rc == 0 && m < ranks[i].nmsg; m++, k++) {
            const ms_wx_msg *x = &ranks[i].msg[m];
            ms_chan_key key = {.a = x->comm, .b = x->tag, .c = x->is_send ? ranks[i].rank : x->other,
                               .d = x->is_send ? x->other : ranks[i].rank};
            rc = ms_chan_index_id(&ci, &key, &ids[k]);
            if (rc == 0)
                rc = grow_counts(&ns, &cap_s, ids[k]) | grow_counts(&nr, &cap_r, ids[k]);
            if (rc == 0)
                (x->is_send ? ns : nr)[ids[k]]++;
        }
    /* Counting sort by channel (stable: ranks and their order kept). */
    size_t nch = ci.n, a = 0, b = 0;
    for (size_t c = 0; rc == 0 && c < nch; c++) {
        size_t x = ns[c], y = nr[c];
        ns[c] = a;
        nr[c] = b;
        a += x;
        b += y;
    }
    k = 0;
    for (size_t i = 0; rc == 0 && i < nranks; i++)
        for (size_t m = 0; m < ranks[i].nmsg; m++, k++) {
            end_ref e = {.entry = ranks[i].msg[m].entry, .rank_index = (uint32_t)i, .msg = (uint32_t)m};
            if (ranks[i].msg[m].is_send)
                s[ns[ids[k]]++] = e;
            else
                r[nr[ids[k]]++] = e;
        }
    /* ns[c], nr[c] are now the ends of channel c: the k-th send with the
     * k-th receive. */
    for (size_t c = 0; rc == 0 && c < nch; c++) {
        size_t s0 = c ? ns[c - 1] : 0, r0 = c ? nr[c - 1] : 0;
        size_t sn = ns[c] - s0, rn = nr[c] - r0;
        sort_ends(s + s0, sn);
        sort_ends(r + r0, rn);
        size_t pairs = sn < rn ? sn : rn;
        for (size_t j = 0; rc == 0 && j < pairs; j++)
            rc = pair(ranks, &s[s0 + j], &r[r0 + j], w, cands);
        w->unmatched_sends += sn - pairs;
        w->unmatched_recvs += rn - pairs;
    }
    free(ids);
    free(ns);
    free(nr);
    free(s);
    free(r);
    ms_chan_index_free(&ci);
    return rc;
}

/* One collective call of one rank. */
typedef struct coll_ref {
    uint32_t rank_index, coll;
} coll_ref;

static const ms_wx_coll *sort_colls;

static int coll_entry_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = cmp_i64(sort_colls[x].entry, sort_colls[y].entry);
    return c ? c : x < y ? -1 : x > y;
}

/* The waits of one matched collective: the calls g[0..n) of one
 * (comm, seq), one per rank. */
static int coll_group(const ms_wx_rank *ranks, const coll_ref *g, size_t n, ms_wx_cands *cands)
{
    const ms_wx_coll *first = &ranks[g[0].rank_index].coll[g[0].coll];
    int cls = first->cls;
    size_t last = 0, early = SIZE_MAX, root = SIZE_MAX;
    for (size_t k = 0; k < n; k++) {
        const ms_wx_coll *c = &ranks[g[k].rank_index].coll[g[k].coll];
        if (c->entry > ranks[g[last].rank_index].coll[g[last].coll].entry)
            last = k;
        if (ranks[g[k].rank_index].rank == first->root)
            root = k;
    }
    for (size_t k = 0; k < n; k++) {
        if (k == root)
            continue;
        const ms_wx_coll *c = &ranks[g[k].rank_index].coll[g[k].coll];
        if (early == SIZE_MAX || c->entry < ranks[g[early].rank_index].coll[g[early].coll].entry)
            early = k;
    }
    for (size_t k = 0; k < n; k++) {
        const ms_wx_rank *rk = &ranks[g[k].rank_index];
        const ms_wx_coll *c = &rk->coll[g[k].coll];
        if (c->ev == MS_WX_NONE || c->ev >= rk->nev || !rk->ev[c->ev].charge)
            continue;
        size_t by = SIZE_MAX;
        int pattern = -1;
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
        if (pattern < 0)
            continue;
        const ms_wx_rank *br = &ranks[g[by].rank_index];
        int64_t at = br->coll[g[by].coll].entry;
        if (at > rk->ev[c->ev].start && ms_wx_cands_add(cands, g[k].rank_index, c->ev, pattern, br->rank, at) != 0)
            return -1;
    }
    return 0;
}

/* A rank's collectives in entry order: NULL when they are in order
 * already (the usual case), else an index array (*failed on no memory). */
static uint32_t *coll_order(const ms_wx_rank *r, int *failed)
{
    size_t i = 1;
    while (i < r->ncoll && r->coll[i - 1].entry <= r->coll[i].entry)
        i++;
    if (i >= r->ncoll)
        return NULL;
    uint32_t *o = malloc(r->ncoll * sizeof *o);
    if (!o) {
        *failed = 1;
        return NULL;
    }
    for (size_t k = 0; k < r->ncoll; k++)
        o[k] = (uint32_t)k;
    sort_colls = r->coll;
    qsort(o, r->ncoll, sizeof *o, coll_entry_cmp);
    return o;
}

int ms_wx_match_colls(const ms_wx_rank *ranks, size_t nranks, ms_waits *w, ms_wx_cands *cands)
{
    size_t n = 0;
    for (size_t i = 0; i < nranks; i++)
        n += ranks[i].ncoll;
    ms_chan_index ci;
    ms_chan_index_init(&ci);
    /* Per call: its communicator and its place among the rank's calls on it. */
    uint32_t *cid = malloc((n ? n : 1) * sizeof *cid), *seq = malloc((n ? n : 1) * sizeof *seq);
    coll_ref *ref = malloc((n ? n : 1) * sizeof *ref), *sorted = malloc((n ? n : 1) * sizeof *sorted);
    size_t *cnt = NULL, *owner = NULL, *nseq = NULL, cap_cnt = 0, cap_owner = 0, cap_nseq = 0;
    int failed = !cid || !seq || !ref || !sorted;
    size_t k = 0;
    for (size_t i = 0; !failed && i < nranks; i++) {
        uint32_t *o = coll_order(&ranks[i], &failed);
        for (size_t j = 0; !failed && j < ranks[i].ncoll; j++, k++) {
            uint32_t c = o ? o[j] : (uint32_t)j;
            ms_chan_key key = {.a = ranks[i].coll[c].comm};
            uint32_t id;
            if (ms_chan_index_id(&ci, &key, &id) != 0 || grow_counts(&cnt, &cap_cnt, id) != 0 ||
                grow_counts(&owner, &cap_owner, id) != 0 || grow_counts(&nseq, &cap_nseq, id) != 0) {
                failed = 1;
                break;
            }
            /* owner: the rank (+ 1) whose calls cnt counts. */
            if (owner[id] != i + 1) {
                owner[id] = i + 1;
                cnt[id] = 0;
            }
            ref[k] = (coll_ref){.rank_index = (uint32_t)i, .coll = c};
            cid[k] = id;
            seq[k] = (uint32_t)cnt[id]++;
            if (cnt[id] > nseq[id])
                nseq[id] = cnt[id];
        }
        free(o);
    }
    /* Counting sort by (communicator, seq); ranks ascending within. */
    size_t nslots = 0;
    for (size_t c = 0; !failed && c < ci.n; c++) {
        size_t x = nseq[c];
        nseq[c] = nslots;      /* now the first slot of communicator c */
        nslots += x;
    }
    size_t *start = failed ? NULL : calloc(nslots + 1, sizeof *start);
    failed |= !start;
    for (size_t j = 0; !failed && j < n; j++)
        start[nseq[cid[j]] + seq[j] + 1]++;
    for (size_t j = 0; !failed && j < nslots; j++)
        start[j + 1] += start[j];
    for (size_t j = 0; !failed && j < n; j++)
        sorted[start[nseq[cid[j]] + seq[j]]++] = ref[j];
    /* start[slot] is now the end of slot's calls. */
    int rc = failed ? -1 : 0;
    for (size_t c = 0; rc == 0 && c < ci.n; c++) {
        size_t first = nseq[c], last = c + 1 < ci.n ? nseq[c + 1] : nslots;
        size_t members = first < last ? start[first] - (first ? start[first - 1] : 0) : 0;
        for (size_t slot = first; rc == 0 && slot < last; slot++) {
            size_t lo = slot ? start[slot - 1] : 0, size = start[slot] - lo;
            if (size < members)
                w->unmatched_colls += size;
            else {
                w->colls++;
                rc = coll_group(ranks, &sorted[lo], size, cands);
            }
        }
    }
    free(start);
    free(cid);
    free(seq);
    free(ref);
    free(sorted);
    free(cnt);
    free(owner);
    free(nseq);
    ms_chan_index_free(&ci);
    return rc;
}
