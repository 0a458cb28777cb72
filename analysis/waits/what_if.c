/* What a fix would save (waits.h): the run re-walked with changed
 * durations.
 *
 * A fix takes time out of one place of one rank: its time there brought
 * to the mean of the other ranks' there (when no other rank has the
 * place: less by the delay the root causes found there). Each stretch of
 * the place on that rank shrinks in proportion. The re-walk goes through
 * every waiting call in time order, carrying per rank how much earlier it
 * now is: a waiting call's new waiting is the cause's new arrival less the
 * waiter's (never below zero), and what it gains or loses moves the
 * waiter's later calls. The run's new length is the latest new end less
 * the first start. Only the recorded waits are re-walked: a wait that the
 * change would create where there was none is not modelled.
 *
 * The bound: every rank's first thread with no waiting at all. The run
 * is timed from the last rank out of MPI_Init to the last into
 * MPI_Finalize. */
#include "waits_internal.h"

#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "profile.h"

/* A candidate fix. */
typedef struct cand {
    int32_t rank;
    size_t ri;
    ms_wx_place p;
    uint8_t from;
    uint64_t delay_ns;     /* the root causes' delay there (causes) */
    double remove;         /* ns taken out */
    double share;          /* of each stretch of the place */
    double *t;             /* per input: time at the place */
} cand;

/* One stretch of the place, ascending, with what came before it. */
typedef struct occ {
    int64_t lo, hi;
    double before;         /* the place's time before lo */
} occ;

typedef struct collect {
    const ms_wx_place *p;
    ms_spill_file *f;
    int failed;
} collect;

static int collect_piece(void *ctx, const ms_wx_place *x, int is_wait, uint32_t ev, int64_t lo, int64_t hi)
{
    (void)ev;
    collect *c = ctx;
    if (is_wait || x->kind != c->p->kind || x->a != c->p->a || x->b != c->p->b)
        return 0;
    occ o = {.lo = lo, .hi = hi};
    return ms_spill_file_put(c->f, &o);
}

/* A rank's whole walk: its profile, and the stretches of the candidates
 * on it. */
typedef struct rank_walk {
    ms_wx_profile *p;
    collect *k;
    size_t nk;
} rank_walk;

static int walk_piece(void *ctx, const ms_wx_place *x, int is_wait, uint32_t ev, int64_t lo, int64_t hi)
{
    rank_walk *g = ctx;
    if (ms_wx_profile_piece(g->p, x, is_wait, ev, lo, hi) != 0)
        return -1;
    for (size_t i = 0; i < g->nk; i++)
        if (collect_piece(&g->k[i], x, is_wait, ev, lo, hi) != 0)
            return -1;
    return 0;
}

typedef struct shrink {
    ms_spill_file asc;     /* occ, ascending */
    ms_spill_reader r;
    size_t n;
    double share;
    size_t hint;
} shrink;

/* The place's stretches (desc: latest first, as the walk of its rank
 * collected them; freed), ascending with their sums before. 0, or -1. */
static int shrink_open(ms_spill_file *desc_in, const cand *c, shrink *s)
{
    ms_spill_file desc = *desc_in;
    ms_spill_file_init(desc_in, sizeof(occ), 1024);
    ms_spill_file_init(&s->asc, sizeof(occ), 1024);
    s->share = c->share;
    s->hint = 0;
    int rc = ms_spill_file_flush(&desc);
    ms_spill_reader rd;
    ms_spill_reader_init(&rd, &desc, 0, desc.n, 1024);
    double sum = 0;
    for (uint64_t i = desc.n; rc == 0 && i-- > 0;) {
        const occ *o = ms_spill_get(&rd, i);
        if (!o) {
            rc = -1;
            break;
        }
        occ a = *o;
        a.before = sum;
        sum += (double)(a.hi - a.lo);
        rc = ms_spill_file_put(&s->asc, &a);
    }
    ms_spill_reader_free(&rd);
    ms_spill_file_free(&desc);
    if (rc == 0)
        rc = ms_spill_file_flush(&s->asc);
    s->n = (size_t)s->asc.n;
    ms_spill_reader_init(&s->r, &s->asc, 0, s->n, 256);
    return rc;
}

static void shrink_close(shrink *s)
{
    ms_spill_reader_free(&s->r);
    ms_spill_file_free(&s->asc);
}

static int64_t occ_lo(shrink *s, size_t i, int *failed)
{
    const occ *o = ms_spill_get(&s->r, i);
    if (!o) {
        *failed = 1;
        return INT64_MAX;
    }
    return o->lo;
}

/* Time taken out of the rank before t. */
static double removed(shrink *s, int64_t t, int *failed)
{
#define STARTS_BEFORE(i) (occ_lo(s, (i), failed) < t)
    MS_WX_GALLOP(s->n, &s->hint, STARTS_BEFORE);
#undef STARTS_BEFORE
    size_t lo = s->hint;
    if (lo == 0)
        return 0;
    const occ *o = ms_spill_get(&s->r, lo - 1);
    if (!o) {
        *failed = 1;
        return 0;
    }
    double in = (double)((t < o->hi ? t : o->hi) - o->lo);
    return s->share * (o->before + in);
}

/* The run's length with each of the m changes of k (their ranks'
 * stretches in sh), in one walk over the waiting calls: out[c]. */
static int rewalk(const ms_wx_input *in, size_t n, const ms_waits *w, cand *const *k, shrink *sh, size_t m,
                  int64_t first, double *out)
{
    /* Per change and input: new less old, from its waits. */
    double *ahead = calloc(m && n ? m * n : 1, sizeof *ahead);
    if (!ahead)
        return -1;
    ms_wx_order ord;
    int rc = ms_wx_order_open(&ord, w->inst_file, n, 0, 256), got = 0, failed = 0;
    ms_wx_instance x;
    size_t ri;
    while (rc == 0 && (got = ms_wx_order_next(&ord, &x, &ri)) == 1) {
        size_t ci = ms_wx_index_of_rank(in, n, x.cause);
        if (ci == SIZE_MAX)
            continue;
        double old = (double)(x.to - x.from);
        for (size_t c = 0; c < m; c++) {
            double *a = &ahead[c * n];
            double sr = a[ri] - (ri == k[c]->ri ? removed(&sh[c], x.from, &failed) : 0);
            double sc = a[ci] - (ci == k[c]->ri ? removed(&sh[c], x.to, &failed) : 0);
            double now = ((double)x.to + sc) - ((double)x.from + sr);
            a[ri] += (now > 0 ? now : 0) - old;
        }
    }
    if (rc == 0 && (got < 0 || failed))
        rc = -1;
    ms_wx_order_close(&ord);
    for (size_t c = 0; rc == 0 && c < m; c++) {
        double last = 0;
        for (size_t i = 0; i < n; i++) {
            double end = (double)in[i].app_end + ahead[c * n + i] -
                         (i == k[c]->ri ? removed(&sh[c], in[i].app_end, &failed) : 0);
            if (i == 0 || end > last)
                last = end;
        }
        out[c] = last - (double)first;
    }
    free(ahead);
    return failed ? -1 : rc;
}

static int same_place(const cand *c, int32_t rank, const ms_wx_place *p)
{
    return c->rank == rank && c->p.kind == p->kind && c->p.a == p->a && c->p.b == p->b;
}

static int fix_cmp(const void *a, const void *b)
{
    const ms_wx_fix *x = a, *y = b;
    if (x->saving_ns != y->saving_ns)
        return x->saving_ns > y->saving_ns ? -1 : 1;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* A (rank, region) of the critical path's pieces and its time on it. */
typedef struct path_sum {
    int32_t rank;
    uint32_t region;
    uint8_t is_mpi;
    uint64_t ns;
} path_sum;

static int path_key_cmp(const void *a, const void *b)
{
    const path_sum *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->region != y->region)
        return x->region < y->region ? -1 : 1;
    return (x->is_mpi > y->is_mpi) - (x->is_mpi < y->is_mpi);
}

/* Longest first; ties by key. */
static int path_sum_cmp(const void *a, const void *b)
{
    const path_sum *x = a, *y = b;
    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    return path_key_cmp(a, b);
}

/* The candidates: the largest root causes, then the regions longest on
 * the critical path (its pieces kept, by rank), MS_WX_FIXES in all. */
static size_t candidates(const ms_wx_input *in, size_t n, const ms_waits *w, cand *v)
{
    size_t k = 0;
    for (size_t i = 0; i < w->ncauses && k < MS_WX_FIXES / 2; i++) {
        const ms_wx_cause *c = &w->causes[i];
        size_t ri = ms_wx_index_of_rank(in, n, c->rank);
        if (ri == SIZE_MAX || c->direct_ns + c->indirect_ns == 0)
            continue;
        v[k++] = (cand){.rank = c->rank, .ri = ri, .p = {.a = c->region, .b = c->region2, .kind = c->kind},
                        .from = MS_WX_FIX_CAUSE, .delay_ns = c->delay_ns};
    }
    /* Path pieces by (rank, region): the few longest sums; of the first
     * threads only (the fixes are projected on them). */
    size_t ns = w->npath_segs;
    path_sum *v2 = malloc((ns ? ns : 1) * sizeof *v2);
    if (!v2)
        return k;
    size_t m = 0;
    for (size_t i = 0; i < ns; i++) {
        const ms_wx_path_seg *g = &w->path_segs[i];
        if (g->region != MS_WX_COMPUTE && g->thread == 0)
            v2[m++] = (path_sum){.rank = g->rank, .region = g->region, .is_mpi = g->is_mpi,
                                 .ns = (uint64_t)(g->to - g->from)};
    }
    qsort(v2, m, sizeof *v2, path_key_cmp);
    size_t q = 0;
    for (size_t i = 0; i < m; i++) {
        if (q && path_key_cmp(&v2[q - 1], &v2[i]) == 0)
            v2[q - 1].ns += v2[i].ns;
        else
            v2[q++] = v2[i];
    }
    qsort(v2, q, sizeof *v2, path_sum_cmp);
    for (size_t i = 0; i < q && k < MS_WX_FIXES; i++) {
        ms_wx_place p = {.a = v2[i].region, .b = MS_WX_NONE, .kind = v2[i].is_mpi ? MS_WX_CAUSE_MPI : MS_WX_CAUSE_USER};
        int taken = 0;
        for (size_t j2 = 0; j2 < k && !taken; j2++)
            taken = same_place(&v[j2], v2[i].rank, &p);
        size_t ri = ms_wx_index_of_rank(in, n, v2[i].rank);
        if (!taken && ri != SIZE_MAX)
            v[k++] = (cand){.rank = v2[i].rank, .ri = ri, .p = p, .from = MS_WX_FIX_PATH};
    }
    free(v2);
    return k;
}

int ms_wx_what_if(const ms_wx_input *in, size_t n, const ms_wx_opts *o, ms_waits *w)
{
    (void)o;
    if (n == 0 || !w->inst_file)
        return 0;
    /* From the last rank out of MPI_Init (ranks start apart: the launch's
     * skew is not the program's) to the last into MPI_Finalize. */
    int64_t first = in[0].app_start, last = in[0].app_end;
    for (size_t i = 1; i < n; i++) {
        if (in[i].app_start > first)
            first = in[i].app_start;
        if (in[i].app_end > last)
            last = in[i].app_end;
    }
    w->run_ns = last > first ? (uint64_t)(last - first) : 0;
    /* The bound: no waiting. */
    double *waited = calloc(n, sizeof *waited);
    if (!waited)
        return -1;
    ms_wx_order ord;
    int rc = ms_wx_order_open(&ord, w->inst_file, n, 0, 256), got = 0;
    ms_wx_instance x;
    size_t ri;
    while (rc == 0 && (got = ms_wx_order_next(&ord, &x, &ri)) == 1)
        if (x.to > first)
            waited[ri] += (double)(x.to - (x.from > first ? x.from : first));
    if (rc == 0 && got < 0)
        rc = -1;
    ms_wx_order_close(&ord);
    double nw = 0;
    for (size_t i = 0; i < n; i++) {
        double end = (double)in[i].app_end - waited[i] - (double)first;
        if (end > nw)
            nw = end;
    }
    free(waited);
    w->no_waiting_ns = nw > (double)w->run_ns ? w->run_ns : (uint64_t)nw;

    cand v[MS_WX_FIXES];
    size_t nc = rc == 0 ? candidates(in, n, w, v) : 0;
    ms_wx_lane *lanes = calloc(n, sizeof *lanes);
    double *tv = calloc(nc ? nc * n : 1, sizeof *tv);
    w->fixes = calloc(nc ? nc : 1, sizeof *w->fixes);
    if (!lanes || !tv || !w->fixes)
        rc = -1;
    size_t blk = ms_wx_lane_block(n);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = ms_wx_lane_open(&in[i], &lanes[i], w->inst_file, i, blk);
    /* Every rank's time at each candidate's place, and in the same walk
     * of a rank the stretches of the candidates' places on it. */
    ms_wx_profile p;
    ms_wx_profile_init(&p, 0);
    ms_spill_file desc[MS_WX_FIXES];
    collect cols[MS_WX_FIXES];
    for (size_t c = 0; c < nc; c++) {
        v[c].t = &tv[c * n];
        ms_spill_file_init(&desc[c], sizeof(occ), 1024);
    }
    for (size_t i = 0; rc == 0 && nc && i < n; i++) {
        size_t hint = (size_t)lanes[i].inst.n;
        rank_walk g = {.p = &p, .k = cols};
        for (size_t c = 0; c < nc; c++)
            if (v[c].ri == i)
                cols[g.nk++] = (collect){.p = &v[c].p, .f = &desc[c]};
        ms_wx_profile_clear(&p);
        rc = ms_wx_walk_stretch(&lanes[i], &hint, in[i].app_start, in[i].app_end, walk_piece, &g);
        for (size_t c = 0; rc == 0 && c < nc; c++)
            v[c].t[i] = (double)ms_wx_profile_get(&p, &v[c].p);
    }
    ms_wx_profile_free(&p);
    cand *take[MS_WX_FIXES];
    shrink sh[MS_WX_FIXES];
    size_t m = 0;
    for (size_t c = 0; rc == 0 && c < nc; c++) {
        cand *k = &v[c];
        double mine = k->t[k->ri], others = 0;
        size_t having = 0;
        for (size_t i = 0; i < n; i++)
            if (i != k->ri) {
                others += k->t[i];
                having += k->t[i] > 0;
            }
        if (having)
            k->remove = mine > others / (double)(n - 1) ? mine - others / (double)(n - 1) : 0;
        else
            k->remove = (double)k->delay_ns < mine ? (double)k->delay_ns : mine;
        if (k->remove <= 0 || mine <= 0)
            continue;
        k->share = k->remove / mine;
        rc = shrink_open(&desc[c], k, &sh[m]);
        take[m++] = k;
    }
    for (size_t c = 0; c < nc; c++)
        ms_spill_file_free(&desc[c]);
    double run[MS_WX_FIXES];
    if (rc == 0 && m)
        rc = rewalk(in, n, w, take, sh, m, first, run);
    for (size_t c = 0; c < m; c++) {
        shrink_close(&sh[c]);
        if (rc != 0)
            continue;
        const cand *k = take[c];
        double save = (double)w->run_ns - run[c];
        w->fixes[w->nfixes++] = (ms_wx_fix){.rank = k->rank, .kind = k->p.kind, .from = k->from, .region = k->p.a,
                                            .region2 = k->p.b, .removed_ns = (uint64_t)(k->remove + 0.5),
                                            .saving_ns = save > 0 ? (uint64_t)(save + 0.5) : 0};
    }
    for (size_t i = 0; lanes && i < n; i++)
        if (lanes[i].failed)
            rc = -1;
    for (size_t i = 0; lanes && i < n; i++)
        ms_wx_lane_close(&lanes[i]);
    free(lanes);
    free(tv);
    if (rc == 0) {
        if (w->nfixes > 1)
            qsort(w->fixes, w->nfixes, sizeof *w->fixes, fix_cmp);
        w->has_what_if = 1;
    }
    return rc;
}
