/* The critical path, walked backward from the last rank to enter
 * MPI_Finalize (waits.h), on the thread whose call it is in: a thread's
 * lane on each rank, a waiting call's cause on the thread of the cause's
 * call. */
#include "lanes.h"

#include <stdlib.h>
#include <string.h>


typedef struct walk {
    const ms_wx_input *in;
    size_t nranks;
    ms_wx_lane *lanes;     /* per (rank, thread): by rank, then thread */
    size_t nlanes;
    size_t *base;          /* per rank: its first lane; nranks + 1 */
    size_t *rank_of;       /* per lane: its rank's index */
    uint64_t *compute_ns, *mpi_ns;  /* per lane: its time on the path */
    uint64_t *region_ns;   /* by region index; the last slot is (compute) */
    uint32_t nregions;
    ms_waits *w;
    size_t segcap;         /* of w->path_segs */
    int nomem;
} walk;

/* A stretch [a, b) of the path on lane li into w->path_segs (in walk
 * order; sorted by time once the walk is done). */
static int64_t seg_len(const ms_wx_path_seg *s)
{
    return s->to - s->from;
}

/* Is ms_wx_piece x shorter than y (the heap's order; ties: the earlier first)?
 * The walk goes backward, so a ms_wx_piece as long as the shortest kept comes
 * before it and is dropped at once: pieces of one length (a loop's) never
 * churn the heap. */
static int seg_less(const ms_wx_path_seg *x, const ms_wx_path_seg *y)
{
    if (seg_len(x) != seg_len(y))
        return seg_len(x) < seg_len(y);
    return x->from < y->from;
}

static void sift_down(ms_wx_path_seg *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && seg_less(&h[l], &h[m]))
            m = l;
        if (r < n && seg_less(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        ms_wx_path_seg t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static void keep_seg(walk *k, const ms_wx_path_seg *seg);

static inline __attribute__((always_inline)) void add_seg(walk *k, size_t li, uint32_t region, int is_mpi,
                                                      int64_t a, int64_t b)
{
    ms_waits *w = k->w;
    if (b <= a || k->nomem)
        return;
    w->npath_segs_all++;
    /* Once the heap is full, most pieces are dropped here, inline: shorter
     * than its shortest, or as long and earlier (seg_less). */
    if (w->npath_segs == MS_WX_PATH_SEGS) {
        int64_t shortest = seg_len(&w->path_segs[0]);
        if (b - a < shortest || (b - a == shortest && a < w->path_segs[0].from))
            return;
    }
    ms_wx_path_seg seg = {.rank = k->in[k->rank_of[li]].rank, .region = region, .from = a, .to = b,
                          .is_mpi = (uint8_t)is_mpi, .thread = k->lanes[li].thread};
    keep_seg(k, &seg);
}

/* A ms_wx_piece into the heap of the longest MS_WX_PATH_SEGS, the shortest first
 * (a full heap's shortest is shorter than seg: add_seg checked). */
static void keep_seg(walk *k, const ms_wx_path_seg *seg)
{
    ms_waits *w = k->w;
    if (w->npath_segs == MS_WX_PATH_SEGS) {
        w->path_segs[0] = *seg;
        sift_down(w->path_segs, w->npath_segs, 0);
        return;
    }
    if (w->npath_segs == k->segcap) {
        size_t c = k->segcap ? k->segcap * 2 : 64;
        if (c > MS_WX_PATH_SEGS)
            c = MS_WX_PATH_SEGS;
        ms_wx_path_seg *s = realloc(w->path_segs, c * sizeof *s);
        if (!s) {
            k->nomem = 1;
            return;
        }
        w->path_segs = s;
        k->segcap = c;
    }
    size_t i = w->npath_segs++;
    w->path_segs[i] = *seg;
    while (i > 0 && seg_less(&w->path_segs[i], &w->path_segs[(i - 1) / 2])) {
        ms_wx_path_seg t = w->path_segs[i];
        w->path_segs[i] = w->path_segs[(i - 1) / 2];
        w->path_segs[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

/* The slot of region_ns for an event's region: events without a region
 * (MS_WX_NONE) count as (compute), the last slot. */
static uint32_t slot_of(const walk *k, uint32_t region)
{
    return region < k->nregions ? region : k->nregions;
}

static void add_compute_in(walk *k, ms_wx_lane *l, size_t li, int64_t a, int64_t b);

/* Time [a, b) outside MPI on lane li: to the innermost user regions of
 * its thread, the rest to (compute). */
static inline __attribute__((always_inline)) void add_compute(walk *k, size_t li, int64_t a, int64_t b)
{
    if (b <= a)
        return;
    ms_wx_lane *l = &k->lanes[li];
    k->compute_ns[li] += (uint64_t)(b - a);
    if (l->npieces == 0) {
        /* A thread without user regions: all of it is (compute). */
        k->region_ns[k->nregions] += (uint64_t)(b - a);
        add_seg(k, li, MS_WX_COMPUTE, 0, a, b);
        return;
    }
    add_compute_in(k, l, li, a, b);
}

/* The rest of add_compute: the user regions' pieces in [a, b). */
static void add_compute_in(walk *k, ms_wx_lane *l, size_t li, int64_t a, int64_t b)
{
    uint64_t inside = 0;
    int64_t at = a;
    /* The first ms_wx_piece that ends after a: the walk goes backward, so it is
     * at or just below where the last lookup ended (else a bisection
     * below it finds it). */
    size_t lo = 0, hi = l->piece_hint < l->npieces ? l->piece_hint + 1 : l->npieces;
    if (hi < l->npieces && ms_wx_piece_at(l, hi).hi <= a) {
        /* Not below the hint after all: bisect above it. */
        lo = hi;
        hi = l->npieces;
    }
    for (int step = 0; lo == 0 && step < MS_WX_HINT_STEPS && hi > 0; step++) {
        if (ms_wx_piece_at(l, hi - 1).hi <= a) {
            lo = hi;
            break;
        }
        hi--;
    }
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (ms_wx_piece_at(l, m).hi <= a)
            lo = m + 1;
        else
            hi = m;
    }
    l->piece_hint = lo;
    for (size_t i = lo; i < l->npieces; i++) {
        ms_wx_piece p = ms_wx_piece_at(l, i);
        if (p.lo >= b)
            break;
        int64_t x = p.lo > a ? p.lo : a;
        int64_t y = p.hi < b ? p.hi : b;
        if (y > x) {
            k->region_ns[slot_of(k, p.region)] += (uint64_t)(y - x);
            inside += (uint64_t)(y - x);
            add_seg(k, li, MS_WX_COMPUTE, 0, at, x);
            add_seg(k, li, p.region, 0, x, y);
            at = y;
        }
    }
    k->region_ns[k->nregions] += (uint64_t)(b - a) - inside;
    add_seg(k, li, MS_WX_COMPUTE, 0, at, b);
}

static inline __attribute__((always_inline)) void add_mpi(walk *k, size_t li, uint32_t region, int64_t a, int64_t b)
{
    if (b <= a)
        return;
    k->mpi_ns[li] += (uint64_t)(b - a);
    k->region_ns[slot_of(k, region)] += (uint64_t)(b - a);
    add_seg(k, li, region, 1, a, b);
}

/* The lane of rank index ri's thread `thread`; its first thread's when
 * that thread made no MPI call. */
static size_t lane_of(const walk *k, size_t ri, uint32_t thread)
{
    size_t lo = k->base[ri], hi = k->base[ri + 1];
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (k->lanes[m].thread < thread)
            lo = m + 1;
        else
            hi = m;
    }
    return lo < k->base[ri + 1] && k->lanes[lo].thread == thread ? lo : k->base[ri];
}

static void run_walk(walk *k, size_t li)
{
    int64_t t = k->in[k->rank_of[li]].app_end;
    /* Per lane, the calls not yet passed, and where its last lookup of a
     * waiting call ended: the walk only goes back. */
    size_t *left = calloc(k->nlanes, sizeof *left), *hint = calloc(k->nlanes, sizeof *hint);
    if (!left || !hint)
        k->nomem = 1;
    for (size_t i = 0; left && hint && i < k->nlanes; i++) {
        left[i] = k->lanes[i].nmpi;
        hint[i] = (size_t)k->lanes[i].inst.n;
    }
    uint64_t guard = 4 * (uint64_t)k->nranks + 16;
    for (size_t i = 0; i < k->nlanes; i++)
        guard += 2 * (uint64_t)k->lanes[i].nmpi;
    while (left && hint && k->w->path_steps < guard) {
        k->w->path_steps++;
        size_t ri = k->rank_of[li];
        const ms_wx_input *r = &k->in[ri];
        ms_wx_lane *l = &k->lanes[li];
        int64_t floor = r->app_start;
        if (t <= floor)
            break;
        size_t j = ms_wx_lane_last_before(l, left[li], t);
        ms_wx_span e = j == SIZE_MAX ? (ms_wx_span){0} : ms_wx_lane_at(l, j);
        if (j == SIZE_MAX || e.end <= floor) {
            add_compute(k, li, floor, t);
            break;
        }
        left[li] = j;
        if (e.end < t)
            add_compute(k, li, e.end, t);
        int64_t te = e.end < t ? e.end : t;
        ms_wx_instance x;
        int has = ms_wx_lane_instance(l, e.ev, &hint[li], &x);
        size_t to = has ? ms_wx_index_of_rank(k->in, k->nranks, x.cause) : SIZE_MAX;
        size_t tl = to != SIZE_MAX ? lane_of(k, to, x.cause_thread) : li;
        if (has && tl != li && x.to <= te) {
            /* The wait is not on the path: its cause is, on the thread
             * that made the cause's call (another rank's, or another
             * thread of this one). */
            add_mpi(k, li, e.region, x.to, te);
            li = tl;
            t = x.cause_at < x.to ? x.cause_at : x.to;
        } else {
            add_mpi(k, li, e.region, e.start > floor ? e.start : floor, te);
            t = e.start;
        }
    }
    free(left);
    free(hint);
}

/* Rank index ri's rows of w->path_ranks, and of w->path_threads when
 * the path runs on one of its threads but the first. 0, or -1. */
static int rank_rows(walk *k, size_t ri, size_t *cap)
{
    ms_waits *w = k->w;
    int others = 0;
    for (size_t li = k->base[ri]; li < k->base[ri + 1]; li++) {
        w->path_ranks[ri].compute_ns += k->compute_ns[li];
        w->path_ranks[ri].mpi_ns += k->mpi_ns[li];
        others |= k->lanes[li].thread != 0 && (k->compute_ns[li] || k->mpi_ns[li]);
    }
    if (!others)
        return 0;
    for (size_t li = k->base[ri]; li < k->base[ri + 1]; li++) {
        if (!k->compute_ns[li] && !k->mpi_ns[li])
            continue;
        if (w->npath_threads == *cap) {
            size_t c = *cap ? *cap * 2 : 8;
            ms_wx_path_thread *v = realloc(w->path_threads, c * sizeof *v);
            if (!v)
                return -1;
            w->path_threads = v;
            *cap = c;
        }
        w->path_threads[w->npath_threads++] = (ms_wx_path_thread){
            .rank = k->in[ri].rank, .thread = k->lanes[li].thread, .compute_ns = k->compute_ns[li],
            .mpi_ns = k->mpi_ns[li]};
    }
    return 0;
}

/* The lanes of every rank: its first thread's and those of its other
 * threads that made MPI calls. 0, or -1. */
static int open_lanes(walk *k)
{
    const ms_wx_input *in = k->in;
    size_t n = 0;
    for (size_t i = 0; i < k->nranks; i++) {
        const ms_wx_thread_counts *c = &in[i].spill->lane_n;
        n++;
        for (size_t t = 1; t < c->nthreads; t++)
            n += c->n[t] != 0;
    }
    k->lanes = calloc(n, sizeof *k->lanes);
    k->rank_of = calloc(n, sizeof *k->rank_of);
    k->compute_ns = calloc(n, sizeof *k->compute_ns);
    k->mpi_ns = calloc(n, sizeof *k->mpi_ns);
    k->base = calloc(k->nranks + 1, sizeof *k->base);
    if (!k->lanes || !k->rank_of || !k->compute_ns || !k->mpi_ns || !k->base)
        return -1;
    size_t blk = ms_wx_lane_block(n);
    for (size_t i = 0; i < k->nranks; i++) {
        const ms_wx_thread_counts *c = &in[i].spill->lane_n;
        k->base[i] = k->nlanes;
        for (size_t t = 0; t == 0 || t < c->nthreads; t++) {
            if (t > 0 && c->n[t] == 0)
                continue;
            size_t li = k->nlanes++;
            k->rank_of[li] = i;
            if (ms_wx_lane_open_thread(&in[i], &k->lanes[li], k->w->inst_file, i, (uint16_t)t, blk) != 0)
                return -1;
        }
    }
    k->base[k->nranks] = k->nlanes;
    return 0;
}

static int seg_cmp(const void *a, const void *b)
{
    const ms_wx_path_seg *x = a, *y = b;
    return x->from < y->from ? -1 : x->from > y->from;
}

static int region_cmp(const void *a, const void *b)
{
    const ms_wx_path_region *x = a, *y = b;
    if (x->on_path_ns != y->on_path_ns)
        return x->on_path_ns > y->on_path_ns ? -1 : 1;
    return x->region < y->region ? -1 : x->region > y->region;
}

int ms_wx_critical_path(const ms_wx_input *in, size_t nranks, const ms_wx_opts *o, ms_waits *w)
{
    if (nranks == 0)
        return 0;
    walk k = {.in = in, .nranks = nranks, .w = w};
    uint32_t nregions = o->nregions;
    k.nregions = nregions;
    k.region_ns = calloc((size_t)nregions + 1, sizeof *k.region_ns);
    w->path_ranks = calloc(nranks, sizeof *w->path_ranks);
    int rc = k.region_ns && w->path_ranks ? 0 : -1;
    if (rc == 0)
        rc = open_lanes(&k);
    if (rc == 0) {
        w->npath_ranks = nranks;
        for (size_t i = 0; i < nranks; i++)
            w->path_ranks[i].rank = in[i].rank;
        /* The last rank into MPI_Finalize (or, without, the last to end),
         * on its first thread. */
        size_t start = 0;
        for (size_t i = 1; i < nranks; i++)
            if (in[i].finalized > in[start].finalized ||
                (in[i].finalized == in[start].finalized && in[i].app_end > in[start].app_end))
                start = i;
        run_walk(&k, k.base[start]);
        for (size_t i = 0; i < k.nlanes; i++)
            k.nomem |= k.lanes[i].failed;
        size_t cap = 0;
        for (size_t i = 0; !k.nomem && i < nranks; i++)
            if (rank_rows(&k, i, &cap) != 0)
                k.nomem = 1;
        if (k.nomem)
            rc = -1;
        else if (w->npath_segs > 1)
            /* The walk went backward, never over a time twice: by start,
             * the stretches are in path order. */
            qsort(w->path_segs, w->npath_segs, sizeof *w->path_segs, seg_cmp);
        size_t n = 0;
        for (uint32_t g = 0; g <= nregions; g++)
            n += k.region_ns[g] != 0;
        w->path_regions = rc == 0 ? malloc((n ? n : 1) * sizeof *w->path_regions) : NULL;
        if (!w->path_regions)
            rc = -1;
        for (uint32_t g = 0; rc == 0 && g <= nregions; g++)
            if (k.region_ns[g])
                w->path_regions[w->npath_regions++] = (ms_wx_path_region){
                    .region = g == nregions ? MS_WX_COMPUTE : g, .on_path_ns = k.region_ns[g]};
        if (rc == 0) {
            qsort(w->path_regions, w->npath_regions, sizeof *w->path_regions, region_cmp);
            for (size_t i = 0; i < nranks; i++)
                w->path_ns += w->path_ranks[i].compute_ns + w->path_ranks[i].mpi_ns;
            /* Busy: application time less the waiting in it. */
            double busy = 0;
            for (size_t i = 0; i < nranks; i++)
                busy += (double)in[i].app_ns;
            busy = (busy - (double)w->wait_ns) / (double)nranks;
            w->imbalance_ns = (double)w->path_ns > busy ? (uint64_t)((double)w->path_ns - busy) : 0;
            w->has_path = 1;
        }
    }
    for (size_t i = 0; k.lanes && i < k.nlanes; i++)
        ms_wx_lane_close(&k.lanes[i]);
    free(k.lanes);
    free(k.base);
    free(k.rank_of);
    free(k.compute_ns);
    free(k.mpi_ns);
    free(k.region_ns);
    return rc;
}
