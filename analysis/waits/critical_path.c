/* The critical path, walked backward from the last rank to enter
 * MPI_Finalize (waits.h). */
#include "waits_internal.h"

#include <stdlib.h>
#include <string.h>

/* A piece of a rank's first thread where one user region is innermost. */
typedef struct piece {
    int64_t lo, hi;
    uint32_t region;
} piece;

/* What the walk needs of one rank. */
typedef struct lane {
    uint32_t *mpi;         /* its first thread's MPI events, by start;
                            * NULL: they are the rank's events 0 to nmpi - 1 */
    size_t nmpi;
    piece *pieces;         /* innermost user regions, disjoint, by start */
    size_t npieces;
} lane;

typedef struct walk {
    const ms_wx_rank *ranks;
    size_t nranks;
    lane *lanes;
    uint64_t *region_ns;   /* by region index; the last slot is (compute) */
    uint32_t nregions;
    ms_waits *w;
    size_t segcap;         /* of w->path_segs */
    int nomem;
} walk;

static const ms_wx_rank *sort_ranks;

/* The index in the rank's events of lane l's MPI event j. */
static inline uint32_t lane_ev(const lane *l, size_t j)
{
    return l->mpi ? l->mpi[j] : (uint32_t)j;
}

/* Whether event x (index xi) comes before y (index yi): by start, the
 * enclosing first, then by index. */
static inline int starts_before(const ms_wx_event *x, uint32_t xi, const ms_wx_event *y, uint32_t yi)
{
    if (x->start != y->start)
        return x->start < y->start;
    if (x->end != y->end)
        return x->end > y->end;
    return xi < yi;
}

static int by_start(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    if (i == j)
        return 0;
    return starts_before(&sort_ranks->ev[i], i, &sort_ranks->ev[j], j) ? -1 : 1;
}

static int add_piece(lane *l, size_t *cap, int64_t lo, int64_t hi, uint32_t region)
{
    if (hi <= lo)
        return 0;
    if (l->npieces && l->pieces[l->npieces - 1].hi == lo && l->pieces[l->npieces - 1].region == region) {
        l->pieces[l->npieces - 1].hi = hi;
        return 0;
    }
    if (l->npieces == *cap) {
        size_t c = *cap ? *cap * 2 : 64;
        piece *p = realloc(l->pieces, c * sizeof *p);
        if (!p)
            return -1;
        l->pieces = p;
        *cap = c;
    }
    l->pieces[l->npieces++] = (piece){lo, hi, region};
    return 0;
}

/* The first thread's user regions (properly nested) flattened into the
 * pieces where each is innermost. */
static int flatten(const ms_wx_rank *r, lane *l, const uint32_t *users, size_t n)
{
    /* Regions open at once: at most all of them. */
    uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
    if (!stack)
        return -1;
    size_t depth = 0, cap = 0;
    int64_t at = INT64_MIN;
    for (size_t i = 0; i <= n; i++) {
        int64_t next = i < n ? r->ev[users[i]].start : INT64_MAX;
        /* Close what ends before the next one starts. */
        while (depth) {
            const ms_wx_event *top = &r->ev[stack[depth - 1]];
            if (top->end > next)
                break;
            if (add_piece(l, &cap, at > top->start ? at : top->start, top->end, top->region) != 0) {
                free(stack);
                return -1;
            }
            at = top->end;
            depth--;
        }
        if (i == n)
            break;
        const ms_wx_event *e = &r->ev[users[i]];
        if (depth) {
            const ms_wx_event *top = &r->ev[stack[depth - 1]];
            if (add_piece(l, &cap, at > top->start ? at : top->start, e->start, top->region) != 0) {
                free(stack);
                return -1;
            }
        }
        at = e->start;
        stack[depth++] = users[i];
    }
    free(stack);
    return 0;
}

static int make_lane(const ms_wx_rank *r, lane *l)
{
    size_t nm = 0, nu = 0;
    /* Most often every event is an MPI call of the first thread, in start
     * order: the lane needs no index of its own. */
    int identity = 1;
    for (size_t i = 0; i < r->nev; i++)
        if (r->ev[i].thread == 0) {
            if (r->ev[i].kind == MS_WX_MPI) {
                if (nm != i || (i > 0 && !starts_before(&r->ev[i - 1], (uint32_t)(i - 1), &r->ev[i], (uint32_t)i)))
                    identity = 0;
                nm++;
            } else {
                nu++;
            }
        }
    l->nmpi = nm;
    if (identity && nm == r->nev) {
        l->mpi = NULL;
        return 0;
    }
    l->mpi = malloc((nm ? nm : 1) * sizeof *l->mpi);
    uint32_t *users = malloc((nu ? nu : 1) * sizeof *users);
    if (!l->mpi || !users) {
        free(users);
        return -1;
    }
    nm = nu = 0;
    for (size_t i = 0; i < r->nev; i++)
        if (r->ev[i].thread == 0) {
            if (r->ev[i].kind == MS_WX_MPI)
                l->mpi[nm++] = (uint32_t)i;
            else
                users[nu++] = (uint32_t)i;
        }
    sort_ranks = r;
    /* A thread's MPI calls come in start order already. */
    for (size_t i = 1; i < nm; i++)
        if (!starts_before(&r->ev[l->mpi[i - 1]], l->mpi[i - 1], &r->ev[l->mpi[i]], l->mpi[i])) {
            qsort(l->mpi, nm, sizeof *l->mpi, by_start);
            break;
        }
    qsort(users, nu, sizeof *users, by_start);
    int rc = flatten(r, l, users, nu);
    free(users);
    return rc;
}

/* A stretch [a, b) of the path on lane ri into w->path_segs (in walk
 * order; sorted by time once the walk is done). */
static int64_t seg_len(const ms_wx_path_seg *s)
{
    return s->to - s->from;
}

/* Is piece x shorter than y (the heap's order; ties: the earlier first)?
 * The walk goes backward, so a piece as long as the shortest kept comes
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

static inline __attribute__((always_inline)) void add_seg(walk *k, size_t ri, uint32_t region, int is_mpi,
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
    ms_wx_path_seg seg = {.rank = k->ranks[ri].rank, .region = region, .from = a, .to = b, .is_mpi = (uint8_t)is_mpi};
    keep_seg(k, &seg);
}

/* A piece into the heap of the longest MS_WX_PATH_SEGS, the shortest first
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

static void add_compute_in(walk *k, lane *l, size_t ri, int64_t a, int64_t b);

/* Time [a, b) outside MPI on lane l: to the innermost user regions, the
 * rest to (compute). */
static inline __attribute__((always_inline)) void add_compute(walk *k, size_t ri, int64_t a, int64_t b)
{
    if (b <= a)
        return;
    lane *l = &k->lanes[ri];
    k->w->path_ranks[ri].compute_ns += (uint64_t)(b - a);
    if (l->npieces == 0) {
        /* A rank without user regions: all of it is (compute). */
        k->region_ns[k->nregions] += (uint64_t)(b - a);
        add_seg(k, ri, MS_WX_COMPUTE, 0, a, b);
        return;
    }
    add_compute_in(k, l, ri, a, b);
}

/* The rest of add_compute: the user regions' pieces in [a, b). */
static void add_compute_in(walk *k, lane *l, size_t ri, int64_t a, int64_t b)
{
    uint64_t inside = 0;
    int64_t at = a;
    /* The first piece that ends after a. */
    size_t lo = 0, hi = l->npieces;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (l->pieces[m].hi <= a)
            lo = m + 1;
        else
            hi = m;
    }
    for (size_t i = lo; i < l->npieces && l->pieces[i].lo < b; i++) {
        int64_t x = l->pieces[i].lo > a ? l->pieces[i].lo : a;
        int64_t y = l->pieces[i].hi < b ? l->pieces[i].hi : b;
        if (y > x) {
            k->region_ns[slot_of(k, l->pieces[i].region)] += (uint64_t)(y - x);
            inside += (uint64_t)(y - x);
            add_seg(k, ri, MS_WX_COMPUTE, 0, at, x);
            add_seg(k, ri, l->pieces[i].region, 0, x, y);
            at = y;
        }
    }
    k->region_ns[k->nregions] += (uint64_t)(b - a) - inside;
    add_seg(k, ri, MS_WX_COMPUTE, 0, at, b);
}

static inline __attribute__((always_inline)) void add_mpi(walk *k, size_t ri, uint32_t region, int64_t a, int64_t b)
{
    if (b <= a)
        return;
    k->w->path_ranks[ri].mpi_ns += (uint64_t)(b - a);
    k->region_ns[slot_of(k, region)] += (uint64_t)(b - a);
    add_seg(k, ri, region, 1, a, b);
}

/* Is instance x before (rank, ev) in the instances' order? */
static int inst_before(const ms_wx_instance *x, int32_t rank, uint32_t ev)
{
    return x->rank < rank || (x->rank == rank && x->ev < ev);
}

/* Steps a hinted search takes from its hint before it bisects. */
#define HINT_STEPS 8

/* The waiting call on event ev of world rank `rank`, or NULL. *hint: where
 * the previous lookup ended; the walk goes backward, so the answer is
 * most often at or just below it (else a bisection finds it). */
static const ms_wx_instance *instance_of(const ms_waits *w, int32_t rank, uint32_t ev, size_t *hint)
{
    size_t n = w->ninst, lo = 0, hi = n, i = *hint < n ? *hint : n;
    for (int step = 0; step < HINT_STEPS; step++) {
        if (i > 0 && !inst_before(&w->inst[i - 1], rank, ev)) {
            i--;
            continue;
        }
        /* inst[i - 1] is before the key: i is the lower bound unless
         * inst[i] is before it too. */
        if (i == n || !inst_before(&w->inst[i], rank, ev))
            lo = hi = i;
        else
            lo = i + 1;
        break;
    }
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (inst_before(&w->inst[m], rank, ev))
            lo = m + 1;
        else
            hi = m;
    }
    *hint = lo;
    return lo < n && w->inst[lo].rank == rank && w->inst[lo].ev == ev ? &w->inst[lo] : NULL;
}

static size_t index_of_rank(const walk *k, int32_t rank)
{
    size_t lo = 0, hi = k->nranks;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (k->ranks[m].rank < rank)
            lo = m + 1;
        else
            hi = m;
    }
    return lo < k->nranks && k->ranks[lo].rank == rank ? lo : SIZE_MAX;
}

/* The last of lane l's MPI events that starts before t, among the first
 * `limit`; SIZE_MAX when none. */
static size_t last_before(const ms_wx_rank *r, const lane *l, size_t limit, int64_t t)
{
    /* Most often the walk left this lane at t: the answer is just below
     * the limit. */
    for (size_t i = limit, step = 0; i > 0 && step < HINT_STEPS; i--, step++)
        if (r->ev[lane_ev(l, i - 1)].start < t)
            return i - 1;
    size_t lo = 0, hi = limit > HINT_STEPS ? limit - HINT_STEPS : 0;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (r->ev[lane_ev(l, m)].start < t)
            lo = m + 1;
        else
            hi = m;
    }
    return lo ? lo - 1 : SIZE_MAX;
}

static void run_walk(walk *k, size_t ri)
{
    int64_t t = k->ranks[ri].app_end;
    /* Per lane, the events not yet passed: the walk only goes back. */
    size_t *left = calloc(k->nranks, sizeof *left);
    if (left)
        for (size_t i = 0; i < k->nranks; i++)
            left[i] = k->lanes[i].nmpi;
    uint64_t guard = 4 * (uint64_t)k->nranks + 16;
    for (size_t i = 0; i < k->nranks; i++)
        guard += 2 * (uint64_t)k->lanes[i].nmpi;
    size_t hint = k->w->ninst;
    while (left && k->w->path_steps < guard) {
        k->w->path_steps++;
        const ms_wx_rank *r = &k->ranks[ri];
        lane *l = &k->lanes[ri];
        int64_t floor = r->app_start;
        if (t <= floor)
            break;
        size_t j = last_before(r, l, left[ri], t);
        const ms_wx_event *e = j == SIZE_MAX ? NULL : &r->ev[lane_ev(l, j)];
        if (!e || e->end <= floor) {
            add_compute(k, ri, floor, t);
            break;
        }
        left[ri] = j;
        if (e->end < t)
            add_compute(k, ri, e->end, t);
        int64_t te = e->end < t ? e->end : t;
        const ms_wx_instance *x = instance_of(k->w, r->rank, lane_ev(l, j), &hint);
        size_t to = x ? index_of_rank(k, x->cause) : SIZE_MAX;
        if (x && to != SIZE_MAX && to != ri && x->to <= te) {
            /* The wait is not on the path: its cause is. */
            add_mpi(k, ri, e->region, x->to, te);
            ri = to;
            t = x->cause_at < x->to ? x->cause_at : x->to;
        } else {
            add_mpi(k, ri, e->region, e->start > floor ? e->start : floor, te);
            t = e->start;
        }
    }
    free(left);
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

int ms_wx_critical_path(const ms_wx_rank *ranks, size_t nranks, ms_waits *w)
{
    if (nranks == 0)
        return 0;
    walk k = {.ranks = ranks, .nranks = nranks, .w = w};
    uint32_t nregions = 0;
    for (size_t i = 0; i < nranks; i++)
        for (size_t e = 0; e < ranks[i].nev; e++)
            if (ranks[i].ev[e].region != MS_WX_NONE && ranks[i].ev[e].region >= nregions)
                nregions = ranks[i].ev[e].region + 1;
    k.nregions = nregions;
    k.lanes = calloc(nranks, sizeof *k.lanes);
    k.region_ns = calloc((size_t)nregions + 1, sizeof *k.region_ns);
    w->path_ranks = calloc(nranks, sizeof *w->path_ranks);
    int rc = k.lanes && k.region_ns && w->path_ranks ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nranks; i++)
        rc = make_lane(&ranks[i], &k.lanes[i]);
    if (rc == 0) {
        w->npath_ranks = nranks;
        for (size_t i = 0; i < nranks; i++)
            w->path_ranks[i].rank = ranks[i].rank;
        /* The last rank into MPI_Finalize (or, without, the last to end). */
        size_t start = 0;
        for (size_t i = 1; i < nranks; i++)
            if (ranks[i].finalized > ranks[start].finalized ||
                (ranks[i].finalized == ranks[start].finalized && ranks[i].app_end > ranks[start].app_end))
                start = i;
        run_walk(&k, start);
        if (k.nomem)
            rc = -1;
        else if (w->npath_segs > 1)
            /* The walk went backward, never over a time twice: by start,
             * the stretches are in path order. */
            qsort(w->path_segs, w->npath_segs, sizeof *w->path_segs, seg_cmp);
        size_t n = 0;
        for (uint32_t g = 0; g <= nregions; g++)
            n += k.region_ns[g] != 0;
        w->path_regions = malloc((n ? n : 1) * sizeof *w->path_regions);
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
                busy += (double)ranks[i].app_ns;
            busy = (busy - (double)w->wait_ns) / (double)nranks;
            w->imbalance_ns = (double)w->path_ns > busy ? (uint64_t)((double)w->path_ns - busy) : 0;
            w->has_path = 1;
        }
    }
    for (size_t i = 0; k.lanes && i < nranks; i++) {
        free(k.lanes[i].mpi);
        free(k.lanes[i].pieces);
    }
    free(k.lanes);
    free(k.region_ns);
    return rc;
}
