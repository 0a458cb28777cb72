/* Root causes: the delay analysis on the waiting calls (waits.h).
 *
 * A waiting call X of rank R was caused by rank C, late for their
 * synchronization point. The stretch compared ends there (R: where its
 * waiting began; C: where it entered the point) and starts, on both, at
 * R's latest synchronization point before it (where its previous waiting
 * ended, or where another rank last waited for it; else its start): R was
 * in step with the run there. Over the stretch, C's time beyond R's is
 * the delay: outside MPI (compute and user regions), C's time there beyond
 * R's, spread over C's places by how much longer C spent at each than R
 * did (or, when no place of C's is longer there, by C's time at each); in
 * MPI, per call place, C's time at it beyond R's, waiting included. The
 * waiting part of a call place's delay goes to C's waiting calls there,
 * by their length; the rest is the call's own delay.
 *
 * Costs go backward in time: X's cost is its waiting plus what later
 * waiting calls passed on to it. Of it, the share of C's delay outside
 * waiting goes to C's places (X's waiting as direct cost, the rest as
 * indirect), the share of C's waiting to C's waiting calls, which pass it
 * on in their turn. What is pending is held per waiting call until its
 * turn: the calls in flight, not the run.
 *
 * Waiting that began before every rank had left MPI_Init is the launch's
 * (ranks start apart), not the program's: it is counted apart.
 *
 * A forward pass names each waiting call's root rank: C's, unless C's
 * waiting is the larger part of its delay; then the root of C's waiting
 * call that passed on the most. It profiles each stretch once: what the
 * backward pass needs of the profiles (each place's delay, each waiting
 * call's share) is kept per waiting call, on disk past the memory share,
 * and read back backward. */
#include "waits_internal.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "omap.h"
#include "order.h"
#include "profile.h"

/* Places of the steps found without their table, by a hash. */
#define PLACE_CACHE 256

/* A (rank, place)'s sums. */
typedef struct acc {
    ms_wx_place p;
    int32_t rank;
    double delay, direct, indirect;
} acc;

/* A synchronization point of C's and the delay already counted there (a
 * point several ranks waited at counts once). */
typedef struct memo {
    int64_t at;
    int used;
    ms_wx_place_ns *v;
    size_t n, cap;
} memo;

typedef struct rc {
    const ms_wx_input *in;
    size_t n;
    ms_waits *w;
    ms_wx_lane *lanes;
    size_t *hint;
    ms_wx_profile pc, pr;
    ms_omap pend;            /* (input, event) -> pending cost slot */
    ms_pool pend_pool;       /* double */
    ms_omap accs;            /* (rank, kind, a << 32 | b) -> acc slot */
    ms_pool acc_pool;
    memo *memos;             /* per input */
    ms_spill_file *plans;    /* per input: its first thread's waiting calls' steps (step) */
    ms_omap place_ids;       /* (kind, a, b) -> index in places */
    ms_wx_place *places;     /* the places of the steps */
    uint32_t place_cache[PLACE_CACHE];  /* indices in places (any value: checked) */
    double *ex;              /* per slot of pc: C's time there beyond R's */
    size_t ex_cap;
    size_t nplaces, places_cap;
    double unexplained;
    double launch;           /* waiting begun before every rank started */
    int nomem;
} rc_t;

/* The two profiles of X's stretch: pc of the cause (input ci), pr of the
 * waiter (input ri), from t0. 0, or -1. */
static int profiles(rc_t *r, size_t ri, size_t ci, const ms_wx_instance *x, int64_t t0)
{
    int64_t cend = x->cause_at < x->to ? x->cause_at : x->to;
    if (cend < x->from)
        cend = x->from;
    if (ms_wx_profile_stretch(&r->lanes[ci], &r->hint[ci], t0, cend, &r->pc) != 0)
        return -1;
    return ms_wx_profile_stretch(&r->lanes[ri], &r->hint[ri], t0, x->from, &r->pr);
}

/* C's delay over the stretch: outside MPI, C's time beyond R's there
 * (spread over C's places outside MPI by how much longer C spent at each,
 * or by C's time at each when none is longer); in MPI, per call place, C's
 * time beyond R's at it, waiting included: the waiting part of it is
 * passed on to C's waiting calls there, the rest is the call's delay. */
typedef struct parts {
    double out, mpi, all;
    double ex_out;           /* the places outside MPI: their excess summed */
} parts;

/* C's time at place e (of pc) beyond R's, as parts_of found it. */
static double excess(const rc_t *r, const ms_wx_place_ns *e)
{
    return r->ex[e - r->pc.v];
}

/* The parts of the profiles just made, each place's excess kept in r->ex
 * (by its slot in pc). r->nomem when out of memory. */
static parts parts_of(rc_t *r)
{
    parts d = {0};
    double c = (double)r->pc.out_ns, w = (double)r->pr.out_ns;
    d.out = c > w ? c - w : 0;
    if (r->ex_cap < r->pc.cap) {
        double *v = realloc(r->ex, r->pc.cap * sizeof *v);
        if (!v) {
            r->nomem = 1;
            return d;
        }
        r->ex = v;
        r->ex_cap = r->pc.cap;
    }
    for (size_t u = 0; u < r->pc.n; u++) {
        const ms_wx_place_ns *e = &r->pc.v[r->pc.used[u]];
        double ec = (double)e->ns, ew = (double)ms_wx_profile_get(&r->pr, &e->p);
        double x = ec > ew ? ec - ew : 0;
        r->ex[r->pc.used[u]] = x;
        if (e->p.kind == MS_WX_CAUSE_MPI)
            d.mpi += x;
        else
            d.ex_out += x;
    }
    d.all = d.out + d.mpi;
    return d;
}

/* Place e's share of the delay (ns), its waiting part included. */
static double place_delay(const rc_t *r, const parts *d, const ms_wx_place_ns *e)
{
    if (e->p.kind == MS_WX_CAUSE_MPI)
        return excess(r, e);
    if (d->out <= 0)
        return 0;
    if (d->ex_out > 0)
        return d->out * excess(r, e) / d->ex_out;
    return r->pc.out_ns ? d->out * (double)e->ns / (double)r->pc.out_ns : 0;
}

/* The share of waiting call y of C's (in r->pc.waits) in the delay, of
 * d.all: its place's delay in proportion to y's waiting there. */
static double wait_share(const rc_t *r, const parts *d, const ms_wx_wait_ns *y)
{
    ms_wx_place p = {.a = y->region, .b = MS_WX_NONE, .kind = MS_WX_CAUSE_MPI};
    const ms_wx_place_ns *e = ms_wx_profile_find(&r->pc, &p);
    if (!e || !e->ns || d->all <= 0)
        return 0;
    return place_delay(r, d, e) * (double)y->ns / (double)e->ns / d->all;
}

static ms_okey acc_key(int32_t rank, const ms_wx_place *p)
{
    return (ms_okey){.a = rank, .b = p->kind, .c = (int64_t)((uint64_t)p->a << 32 | p->b)};
}

static acc *acc_of(rc_t *r, int32_t rank, const ms_wx_place *p)
{
    ms_okey k = acc_key(rank, p);
    uint32_t s = ms_omap_get(&r->accs, &k);
    if (s == UINT32_MAX) {
        if ((s = ms_pool_take(&r->acc_pool)) == UINT32_MAX || ms_omap_put(&r->accs, &k, s) != 0) {
            r->nomem = 1;
            return NULL;
        }
        acc *a = MS_POOL_AT(&r->acc_pool, acc, s);
        a->p = *p;
        a->rank = rank;
    }
    return MS_POOL_AT(&r->acc_pool, acc, s);
}

/* The delay d at place p of input ci's point `at`, less what the point
 * counted already. */
static double memo_delay(rc_t *r, size_t ci, int64_t at, const ms_wx_place *p, double d)
{
    memo *m = &r->memos[ci];
    if (!m->used || m->at != at) {
        m->used = 1;
        m->at = at;
        m->n = 0;
    }
    for (size_t i = 0; i < m->n; i++)
        if (m->v[i].p.a == p->a && m->v[i].p.b == p->b && m->v[i].p.kind == p->kind) {
            double before = (double)m->v[i].ns;
            if (d <= before)
                return 0;
            m->v[i].ns = (uint64_t)d;
            return d - before;
        }
    if (ms_grow((void **)&m->v, &m->cap, m->n + 1, sizeof *m->v) != 0) {
        r->nomem = 1;
        return 0;
    }
    m->v[m->n++] = (ms_wx_place_ns){.p = *p, .ns = (uint64_t)d};
    return d;
}

/* Cost passed on to the waiting call ev of input ri. */
static void pend_add(rc_t *r, size_t ri, uint32_t ev, double cost)
{
    ms_okey k = {.a = (int64_t)ri, .b = ev};
    uint32_t s = ms_omap_get(&r->pend, &k);
    if (s == UINT32_MAX &&
        ((s = ms_pool_take(&r->pend_pool)) == UINT32_MAX || ms_omap_put(&r->pend, &k, s) != 0)) {
        r->nomem = 1;
        return;
    }
    *MS_POOL_AT(&r->pend_pool, double, s) += cost;
}

static double pend_take(rc_t *r, size_t ri, uint32_t ev)
{
    ms_okey k = {.a = (int64_t)ri, .b = ev};
    uint32_t s = ms_omap_get(&r->pend, &k);
    if (s == UINT32_MAX)
        return 0;
    double v = *MS_POOL_AT(&r->pend_pool, double, s);
    ms_omap_del(&r->pend, &k);
    if (ms_pool_give(&r->pend_pool, s) != 0)
        r->nomem = 1;
    return v;
}

/* What the backward pass does for a waiting call, as the forward pass
 * found it from the call's profiles (each stretch is profiled once): a
 * group of steps, per input in the order of its calls, read back
 * backward; the group's last step says how many come before it. */
enum step_what { STEP_PLACE, STEP_WAIT, STEP_END };

typedef struct step {
    double v;                /* place: its delay; wait: its share; end: the delay of all places */
    uint32_t x;              /* place: its index in places; wait: its event; end: the group's steps before it */
    uint16_t what;           /* enum step_what */
    uint16_t charged;        /* end: 1 when the cost is charged, 0 unexplained */
} step;

/* The index of place p among the places of the steps (a new one added).
 * UINT32_MAX when out of memory. */
static uint32_t place_id(rc_t *r, const ms_wx_place *p)
{
    /* The places seen last, by a hash, before the table. */
    size_t h = (size_t)(((uint64_t)p->a * 0x9e3779b97f4a7c15ull ^ (uint64_t)p->b * 0xc2b2ae3d27d4eb4full ^ p->kind) >>
                        56) % PLACE_CACHE;
    uint32_t c = r->place_cache[h];
    if (c < r->nplaces && r->places[c].a == p->a && r->places[c].b == p->b && r->places[c].kind == p->kind)
        return c;
    ms_okey k = {.a = p->kind, .b = p->a, .c = p->b};
    uint32_t s = ms_omap_get(&r->place_ids, &k);
    if (s != UINT32_MAX) {
        r->place_cache[h] = s;
        return s;
    }
    if (r->nplaces >= UINT32_MAX - 1 ||
        ms_grow((void **)&r->places, &r->places_cap, r->nplaces + 1, sizeof *r->places) != 0 ||
        ms_omap_put(&r->place_ids, &k, (uint32_t)r->nplaces) != 0) {
        r->nomem = 1;
        return UINT32_MAX;
    }
    r->places[r->nplaces] = *p;
    r->place_cache[h] = (uint32_t)r->nplaces;
    return (uint32_t)r->nplaces++;
}

static int step_put(rc_t *r, size_t ri, const step *st)
{
    if (ms_spill_file_put(&r->plans[ri], st) != 0) {
        r->nomem = 1;
        return -1;
    }
    return 0;
}

/* The places' part of waiting call x's steps (input ri, profiles made,
 * d their delay): each place's delay outside waiting. */
static int plan_places(rc_t *r, size_t ri, const parts *d, uint32_t *nsteps)
{
    for (size_t u = 0; u < r->pc.n; u++) {
        const ms_wx_place_ns *e = &r->pc.v[r->pc.used[u]];
        double dl = place_delay(r, d, e);
        /* Of an MPI call's, its part not waiting. */
        if (e->ns && e->wait_ns)
            dl *= 1.0 - (double)e->wait_ns / (double)e->ns;
        if (dl <= 0)
            continue;
        step st = {.v = dl, .x = place_id(r, &e->p), .what = STEP_PLACE};
        if (st.x == UINT32_MAX || step_put(r, ri, &st) != 0)
            return -1;
        (*nsteps)++;
    }
    return 0;
}

/* Waiting call x of input ri, cause input ci, from its steps g[0..n) and
 * their end e: its cost (its waiting and what was passed on to it) to
 * C's places and waiting calls. */
static int charge(rc_t *r, size_t ri, size_t ci, const ms_wx_instance *x, const step *g, size_t n, const step *e)
{
    double wait = (double)(x->to - x->from), passed = pend_take(r, ri, x->ev);
    if (!e->charged) {
        r->unexplained += wait + passed;
        return 0;
    }
    double all = e->v;
    int32_t crank = r->in[ci].rank;
    for (size_t u = 0; u < n; u++) {
        if (g[u].what != STEP_PLACE)
            continue;
        if (g[u].x >= r->nplaces)
            return -1;
        ms_wx_place p = r->places[g[u].x];
        double dl = g[u].v;
        acc *a = acc_of(r, crank, &p);
        if (!a)
            return -1;
        a->delay += memo_delay(r, ci, x->cause_at, &p, dl);
        a->direct += wait * dl / all;
        a->indirect += passed * dl / all;
    }
    for (size_t u = 0; u < n; u++)
        if (g[u].what == STEP_WAIT)
            pend_add(r, ci, g[u].x, (wait + passed) * g[u].v);
    return r->nomem ? -1 : 0;
}

static int cause_cmp(const void *a, const void *b)
{
    const ms_wx_cause *x = a, *y = b;
    uint64_t cx = x->direct_ns + x->indirect_ns, cy = y->direct_ns + y->indirect_ns;
    if (cx != cy)
        return cx > cy ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->region != y->region)
        return x->region < y->region ? -1 : 1;
    return x->region2 < y->region2 ? -1 : x->region2 > y->region2;
}

static uint64_t ns_of(double v)
{
    return v > 0 ? (uint64_t)(v + 0.5) : 0;
}

/* The sums into w->causes. 0, or -1. */
static int causes_done(rc_t *r)
{
    ms_waits *w = r->w;
    size_t n = r->acc_pool.n - r->acc_pool.nfree;
    ms_wx_cause *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < r->acc_pool.n; i++) {
        const acc *a = MS_POOL_AT(&r->acc_pool, acc, i);
        ms_wx_cause c = {.rank = a->rank, .kind = a->p.kind, .region = a->p.a, .region2 = a->p.b,
                         .delay_ns = ns_of(a->delay), .direct_ns = ns_of(a->direct),
                         .indirect_ns = ns_of(a->indirect)};
        if (c.direct_ns + c.indirect_ns == 0 && c.delay_ns == 0)
            continue;
        v[k++] = c;
        w->cause_direct_ns += c.direct_ns;
        w->cause_indirect_ns += c.indirect_ns;
    }
    if (k > 1)
        qsort(v, k, sizeof *v, cause_cmp);
    w->ncauses_all = k;
    w->ncauses = k < MS_WX_CAUSES ? k : MS_WX_CAUSES;
    w->causes = v;
    w->cause_unexplained_ns = ns_of(r->unexplained);
    w->cause_launch_ns = ns_of(r->launch);
    w->has_causes = 1;
    return 0;
}

/* Steps each input's plan buffers, 64 to 1,024: 2 MiB for all inputs'
 * write buffers, 4 MiB for their readers' two blocks. */
static size_t plan_block(size_t n)
{
    size_t b = (2u << 20) / sizeof(step) / (n ? n : 1);
    return b < 64 ? 64 : b > 1024 ? 1024 : b;
}

static int open_all(rc_t *r)
{
    size_t blk = ms_wx_lane_block(r->n);
    r->lanes = calloc(r->n ? r->n : 1, sizeof *r->lanes);
    r->hint = calloc(r->n ? r->n : 1, sizeof *r->hint);
    r->memos = calloc(r->n ? r->n : 1, sizeof *r->memos);
    r->plans = calloc(r->n ? r->n : 1, sizeof *r->plans);
    if (!r->lanes || !r->hint || !r->memos || !r->plans)
        return -1;
    for (size_t i = 0; i < r->n; i++)
        ms_spill_file_init(&r->plans[i], sizeof(step), plan_block(r->n));
    for (size_t i = 0; i < r->n; i++) {
        if (ms_wx_lane_open(&r->in[i], &r->lanes[i], r->w->inst_file, i, blk) != 0)
            return -1;
        r->hint[i] = (size_t)r->lanes[i].inst.n;
    }
    ms_wx_profile_init(&r->pc, 1);
    ms_wx_profile_init(&r->pr, 1);
    r->pend_pool.size = sizeof(double);
    r->acc_pool.size = sizeof(acc);
    return 0;
}

static void close_all(rc_t *r)
{
    for (size_t i = 0; r->lanes && i < r->n; i++)
        ms_wx_lane_close(&r->lanes[i]);
    for (size_t i = 0; r->memos && i < r->n; i++)
        free(r->memos[i].v);
    free(r->lanes);
    free(r->hint);
    free(r->memos);
    for (size_t i = 0; r->plans && i < r->n; i++)
        ms_spill_file_free(&r->plans[i]);
    free(r->plans);
    ms_omap_free(&r->place_ids);
    free(r->ex);
    free(r->places);
    ms_wx_profile_free(&r->pc);
    ms_wx_profile_free(&r->pr);
    ms_omap_free(&r->pend);
    ms_pool_free(&r->pend_pool);
    ms_omap_free(&r->accs);
    ms_pool_free(&r->acc_pool);
}

static int lanes_failed(const rc_t *r)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->lanes[i].failed)
            return 1;
    return 0;
}

/* ---- the root rank of each waiting call (forward) ---- */

/* The roots of an input's latest waiting calls. */
typedef struct ring {
    uint32_t *ev;
    int32_t *root;
    size_t at, n;
} ring;

typedef struct tally {
    uint8_t pattern;
    int32_t rank, root;
    uint32_t region;
    uint64_t ns;
} tally;

static int32_t ring_find(const ring *g, size_t cap, uint32_t ev)
{
    for (size_t k = 0; k < g->n; k++) {
        size_t i = (g->at + cap - 1 - k) % cap;
        if (g->ev[i] == ev)
            return g->root[i];
    }
    return -1;
}

/* The region of waiting call x's event on lane l. */
static uint32_t region_of(ms_wx_lane *l, const ms_wx_instance *x)
{
    size_t j = ms_wx_lane_find(l, &l->find_hint, x->to > x->from ? x->to : x->from + 1);
    for (int step = 0; j != SIZE_MAX && j < l->nmpi && step < 64; step++, j++) {
        ms_wx_span s = ms_wx_lane_at(l, j);
        if (s.ev == x->ev)
            return s.region;
    }
    return MS_WX_NONE;
}

static int tally_cmp(const void *a, const void *b)
{
    const tally *x = a, *y = b;
    if (x->pattern != y->pattern)
        return x->pattern < y->pattern ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->region != y->region)
        return x->region < y->region ? -1 : 1;
    return x->root < y->root ? -1 : x->root > y->root;
}

/* Each row of v (regions through group when given) gets the root of most
 * of its waiting among the tallies t. 0, or -1 when out of memory. */
static int assign_roots(ms_wx_row *v, size_t nv, const tally *t, size_t nt, const uint32_t *group, size_t ngroup)
{
    tally *per = NULL;   /* per root of the row: pattern unused, ns summed */
    size_t cap = 0;
    for (size_t i = 0; i < nv; i++) {
        ms_wx_row *row = &v[i];
        row->root_rank = -1;
        row->root_best = 0;
        size_t np = 0;
        for (size_t k = 0; k < nt; k++) {
            uint32_t reg = group ? (t[k].region < ngroup ? group[t[k].region] : MS_WX_NONE) : t[k].region;
            if (t[k].pattern != row->pattern || t[k].rank != row->rank || reg != row->region)
                continue;
            size_t q = 0;
            while (q < np && per[q].root != t[k].root)
                q++;
            if (q == np) {
                if (ms_grow((void **)&per, &cap, np + 1, sizeof *per) != 0) {
                    free(per);
                    return -1;
                }
                per[np++] = (tally){.root = t[k].root};
            }
            per[q].ns += t[k].ns;
        }
        for (size_t q = 0; q < np; q++)
            if (per[q].ns > row->root_best || (per[q].ns == row->root_best && per[q].root < row->root_rank)) {
                row->root_rank = per[q].root;
                row->root_best = per[q].ns;
            }
    }
    free(per);
    return 0;
}

static int roots(rc_t *r, const ms_wx_opts *o)
{
    size_t cap = (1u << 20) / (r->n ? r->n : 1);
    cap = cap < 16 ? 16 : cap > 4096 ? 4096 : cap;
    ring *rings = calloc(r->n ? r->n : 1, sizeof *rings);
    /* Per input: its latest synchronization point so far (the end of
     * its waiting, or where another rank waited for it). */
    int64_t *sync = calloc(r->n ? r->n : 1, sizeof *sync);
    tally *t = NULL;
    size_t nt = 0, tcap = 0;
    int rc = rings && sync ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < r->n; i++)
        sync[i] = r->in[i].app_start;
    for (size_t i = 0; rc == 0 && i < r->n; i++)
        if (!(rings[i].ev = malloc(cap * sizeof *rings[i].ev)) || !(rings[i].root = malloc(cap * sizeof *rings[i].root)))
            rc = -1;
    ms_wx_order ord;
    int opened = 0;
    if (rc == 0) {
        rc = ms_wx_order_open(&ord, r->w->inst_file, r->n, 0, 256);
        opened = 1;
    }
    ms_wx_instance x;
    size_t ri;
    int got;
    while (rc == 0 && (got = ms_wx_order_next(&ord, &x, &ri)) == 1) {
        size_t ci = ms_wx_index_of_rank(r->in, r->n, x.cause);
        int32_t root = x.cause;
        int64_t t0 = sync[ri] < x.from ? sync[ri] : x.from;
        step end = {.what = STEP_END};
        if (ci != SIZE_MAX && ci != ri) {
            if (profiles(r, ri, ci, &x, t0) != 0) {
                rc = -1;
                break;
            }
            parts d = parts_of(r);
            if (r->nomem) {
                rc = -1;
                break;
            }
            if (d.all > 0) {
                end.charged = 1;
                end.v = d.all;
                if (plan_places(r, ri, &d, &end.x) != 0) {
                    rc = -1;
                    break;
                }
            }
            /* C's waiting made most of its delay: the root of the waiting
             * call that passed on the most. */
            double on = 0, best_share = 0;
            size_t best = SIZE_MAX;
            for (size_t k = 0; k < r->pc.nwaits; k++) {
                double sh = wait_share(r, &d, &r->pc.waits[k]);
                on += sh;
                if (sh > best_share) {
                    best_share = sh;
                    best = k;
                }
                if (end.charged && sh > 0) {
                    step w = {.v = sh, .x = r->pc.waits[k].ev, .what = STEP_WAIT};
                    if (step_put(r, ri, &w) != 0)
                        break;
                    end.x++;
                }
            }
            if (r->nomem) {
                rc = -1;
                break;
            }
            if (on > 0.5 && best != SIZE_MAX) {
                int32_t up = ring_find(&rings[ci], cap, r->pc.waits[best].ev);
                if (up >= 0)
                    root = up;
            }
        }
        if (step_put(r, ri, &end) != 0) {
            rc = -1;
            break;
        }
        ring *g = &rings[ri];
        g->ev[g->at] = x.ev;
        g->root[g->at] = root;
        g->at = (g->at + 1) % cap;
        if (g->n < cap)
            g->n++;
        if (x.to > sync[ri])
            sync[ri] = x.to;
        int64_t met = x.cause_at < x.to ? x.cause_at : x.to;
        if (ci != SIZE_MAX && met > sync[ci])
            sync[ci] = met;
        /* The tally of (pattern, rank, region, root). */
        uint32_t region = region_of(&r->lanes[ri], &x);
        tally e = {.pattern = x.pattern, .rank = x.rank, .root = root, .region = region, .ns = (uint64_t)(x.to - x.from)};
        if (nt && t[nt - 1].pattern == e.pattern && t[nt - 1].rank == e.rank && t[nt - 1].root == e.root &&
            t[nt - 1].region == e.region) {
            t[nt - 1].ns += e.ns;
            continue;
        }
        if (ms_grow((void **)&t, &tcap, nt + 1, sizeof *t) != 0) {
            rc = -1;
            break;
        }
        t[nt++] = e;
        /* Keep the tallies as few as their distinct keys. */
        if (nt == tcap && nt >= 4096) {
            qsort(t, nt, sizeof *t, tally_cmp);
            size_t q = 0;
            for (size_t k = 0; k < nt; k++) {
                if (q && tally_cmp(&t[q - 1], &t[k]) == 0)
                    t[q - 1].ns += t[k].ns;
                else
                    t[q++] = t[k];
            }
            nt = q;
        }
    }
    if (rc == 0 && got < 0)
        rc = -1;
    if (rc == 0 && r->w->nrows + r->w->nsite_rows) {
        qsort(t, nt, sizeof *t, tally_cmp);
        if (r->w->site_rows)
            rc = assign_roots(r->w->site_rows, r->w->nsite_rows, t, nt, NULL, 0);
        if (rc == 0)
            rc = assign_roots(r->w->rows, r->w->nrows, t, nt, r->w->site_rows ? o->group : NULL,
                              r->w->site_rows ? o->ngroup : 0);
    }
    if (opened)
        ms_wx_order_close(&ord);
    for (size_t i = 0; rings && i < r->n; i++) {
        free(rings[i].ev);
        free(rings[i].root);
    }
    free(rings);
    free(sync);
    free(t);
    return rc;
}

int ms_wx_root_causes(const ms_wx_input *in, size_t n, const ms_wx_opts *o, ms_waits *w)
{
    if (!w->inst_file || n == 0)
        return 0;
    rc_t r = {.in = in, .n = n, .w = w};
    int rc = open_all(&r);
    /* Forward: the roots, and each waiting call's steps. */
    if (rc == 0)
        rc = roots(&r, o);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = ms_spill_file_flush(&r.plans[i]);
    /* A reader per input: the backward walk takes the inputs in turn,
     * each backward through its own steps. */
    ms_spill_reader *sr = calloc(n, sizeof *sr);
    uint64_t *left = calloc(n, sizeof *left);
    step *g = NULL;
    size_t gcap = 0;
    if (!sr || !left)
        rc = -1;
    for (size_t i = 0; sr && left && i < n; i++) {
        left[i] = rc == 0 ? r.plans[i].n : 0;
        ms_spill_reader_init(&sr[i], &r.plans[i], 0, left[i], plan_block(n));
        ms_spill_reader_keep_two(&sr[i]);
    }
    /* Backward: the costs. */
    ms_wx_order ord;
    int opened = 0;
    if (rc == 0) {
        rc = ms_wx_order_open(&ord, w->inst_file, n, 1, 256);
        opened = 1;
    }
    /* The last rank out of MPI_Init: waiting before it is the launch's. */
    int64_t started = in[0].app_start;
    for (size_t i = 1; i < n; i++)
        if (in[i].app_start > started)
            started = in[i].app_start;
    ms_wx_instance x;
    size_t ri;
    int got = 0;
    while (rc == 0 && (got = ms_wx_order_next(&ord, &x, &ri)) == 1) {
        const step *pe = left[ri] ? ms_spill_get(&sr[ri], --left[ri]) : NULL;
        if (!pe || pe->what != STEP_END || pe->x > left[ri]) {
            rc = -1;
            break;
        }
        step e = *pe;
        size_t ng = e.x;
        left[ri] -= ng;
        size_t ci = ms_wx_index_of_rank(in, n, x.cause);
        if (x.from < started) {
            r.launch += (double)(x.to - x.from) + pend_take(&r, ri, x.ev);
            continue;
        }
        if (ci == SIZE_MAX || ci == ri) {
            r.unexplained += (double)(x.to - x.from) + pend_take(&r, ri, x.ev);
            continue;
        }
        if (ms_grow((void **)&g, &gcap, ng ? ng : 1, sizeof *g) != 0) {
            rc = -1;
            break;
        }
        for (size_t k = 0; k < ng; k++) {
            const step *q = ms_spill_get(&sr[ri], left[ri] + k);
            if (!q) {
                rc = -1;
                break;
            }
            g[k] = *q;
        }
        if (rc == 0)
            rc = charge(&r, ri, ci, &x, g, ng, &e);
    }
    if (rc == 0 && got < 0)
        rc = -1;
    if (opened)
        ms_wx_order_close(&ord);
    for (size_t i = 0; sr && i < n; i++)
        ms_spill_reader_free(&sr[i]);
    free(sr);
    free(left);
    free(g);
    /* What is still pending was passed to calls of other threads. */
    for (size_t i = 0; rc == 0 && i < r.pend_pool.n; i++)
        r.unexplained += *MS_POOL_AT(&r.pend_pool, double, i);
    if (rc == 0 && (lanes_failed(&r) || r.nomem))
        rc = -1;
    if (rc == 0)
        rc = causes_done(&r);
    close_all(&r);
    return rc;
}
