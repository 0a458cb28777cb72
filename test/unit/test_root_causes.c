/* Root causes and the what-if (analysis/waits/root_causes.c, what_if.c) on
 * facts built here: times in ns, so every expectation is exact. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "../../analysis/waits/waits.h"
#include "wx_rank.h"

#define N(a) (sizeof(a) / sizeof *(a))
#define MPI(s, e, reg) {.start = (s), .end = (e), .region = (reg), .kind = MS_WX_MPI, .charge = 1}
#define USER(s, e, reg) {.start = (s), .end = (e), .region = (reg), .kind = MS_WX_USER, .charge = 0}
#define SEND(to, at, e) {.comm = 0, .tag = 0, .entry = (at), .other = (to), .ev = (e), .is_send = 1}
#define RECV(from, at, e) {.comm = 0, .tag = 0, .entry = (at), .other = (from), .ev = (e), .is_send = 0}
#define COLL(at, e) {.comm = 5, .entry = (at), .root = -1, .ev = (e), .cls = MS_WX_BARRIER}

enum { R_RECV = 0, R_SEND = 1, R_BARRIER = 2, R_USER = 3 };

static const ms_wx_cause *find(const ms_waits *w, int32_t rank, int kind, uint32_t a, uint32_t b)
{
    for (size_t i = 0; i < w->ncauses; i++)
        if (w->causes[i].rank == rank && w->causes[i].kind == kind && w->causes[i].region == a &&
            w->causes[i].region2 == b)
            return &w->causes[i];
    return NULL;
}

/* A chain: every rank computes 40 ns, receives from the next, computes 10
 * ns and sends to the previous one; rank 3 computes 100 ns (60 planted).
 * Rank 2 waits 71 ns for rank 3, rank 1 91 ns for rank 2, rank 0 111 ns
 * for rank 1: the later waits are rank 3's delay passed on. */
static const ms_wx_event ev3[] = {MPI(100, 101, R_RECV), MPI(111, 121, R_SEND)};
static const ms_wx_msg m3[] = {SEND(2, 111, 1)};
static const ms_wx_event ev2[] = {MPI(40, 121, R_RECV), MPI(131, 141, R_SEND)};
static const ms_wx_msg m2[] = {RECV(3, 40, 0), SEND(1, 131, 1)};
static const ms_wx_event ev1[] = {MPI(40, 141, R_RECV), MPI(151, 161, R_SEND)};
static const ms_wx_msg m1[] = {RECV(2, 40, 0), SEND(0, 151, 1)};
static const ms_wx_event ev0[] = {MPI(40, 161, R_RECV), MPI(171, 181, R_SEND)};
static const ms_wx_msg m0[] = {RECV(1, 40, 0)};

static void chain(ms_waits *w)
{
    ms_wx_rank r[] = {mk_rank(0, ev0, N(ev0), m0, N(m0), NULL, 0), mk_rank(1, ev1, N(ev1), m1, N(m1), NULL, 0),
                      mk_rank(2, ev2, N(ev2), m2, N(m2), NULL, 0), mk_rank(3, ev3, N(ev3), m3, N(m3), NULL, 0)};
    cr_assert_eq(ms_waits_compute(r, N(r), w), 0);
    cr_assert_eq(w->ninst, 3);
    cr_assert(w->has_causes);
}

Test(root_causes, chain_names_the_planted_rank)
{
    ms_waits w;
    chain(&w);
    /* Rank 3's compute before its receive: 60 ns beyond the others', 60
     * of rank 2's 71 ns of waiting directly, and 144 ns of what ranks 1
     * and 0 waited because of it. A waiting call's time after its
     * waiting (here the receives' last 10 ns) goes with the waiting: rank
     * 1's receive passes 101 ns on to rank 2's, which passes 192 * 81 / 91
     * on to rank 3's stretch, 60 / 71 of it to the planted compute. */
    const ms_wx_cause *c = &w.causes[0];
    cr_expect_eq(c->rank, 3);
    cr_expect_eq(c->kind, MS_WX_CAUSE_COMPUTE);
    cr_expect_eq(c->region, MS_WX_NONE);
    cr_expect_eq(c->region2, R_RECV);
    cr_expect_eq(c->delay_ns, 60);
    cr_expect_eq(c->direct_ns, 60);
    cr_expect_eq(c->indirect_ns, 144);
    /* The gaps between receive and send pass on 10 ns at each step. */
    const ms_wx_cause *g3 = find(&w, 3, MS_WX_CAUSE_COMPUTE, R_RECV, R_SEND);
    cr_assert_not_null(g3);
    cr_expect_eq(g3->direct_ns, 10);
    cr_expect_eq(g3->indirect_ns, 24);
    const ms_wx_cause *g1 = find(&w, 1, MS_WX_CAUSE_COMPUTE, R_RECV, R_SEND);
    cr_assert_not_null(g1);
    cr_expect_eq(g1->direct_ns, 10);
    cr_expect_eq(g1->indirect_ns, 0);
    /* Every ns of waiting lands on one cause: 111 + 91 + 71 (each cause's
     * sums rounded to the ns on their own). */
    uint64_t all = w.cause_direct_ns + w.cause_indirect_ns;
    cr_expect(all >= 272 && all <= 274, "all causes: %lu ns", (unsigned long)all);
    cr_expect_eq(w.cause_direct_ns, 91);
    cr_expect_eq(w.cause_unexplained_ns, 0);
    /* Each wait-state row: waited for its neighbour, root cause rank 3. */
    cr_assert_eq(w.nrows, 3);
    for (size_t i = 0; i < w.nrows; i++) {
        cr_expect_eq(w.rows[i].cause_rank, w.rows[i].rank + 1);
        cr_expect_eq(w.rows[i].root_rank, 3, "row %zu: root %d", i, w.rows[i].root_rank);
    }
    ms_waits_free(&w);
}

Test(root_causes, chain_what_if)
{
    ms_waits w;
    chain(&w);
    cr_assert(w.has_what_if);
    cr_expect_eq(w.run_ns, 181);
    /* No waiting: rank 3's own 121 ns. */
    cr_expect_eq(w.no_waiting_ns, 121);
    /* Rank 3's compute brought to the others' 40 ns: every rank 60 ns
     * sooner. */
    cr_assert_gt(w.nfixes, 0);
    cr_expect_eq(w.fixes[0].rank, 3);
    cr_expect_eq(w.fixes[0].kind, MS_WX_CAUSE_COMPUTE);
    cr_expect_eq(w.fixes[0].region2, R_RECV);
    cr_expect_eq(w.fixes[0].removed_ns, 60);
    cr_expect_eq(w.fixes[0].saving_ns, 60);
    ms_waits_free(&w);
}

/* Two ranks into a barrier each iteration: rank 1 late by 30 ns in a
 * user region the first time, rank 0 late by 10 ns the second. */
static const ms_wx_event b0[] = {MPI(50, 80, R_BARRIER), USER(80, 140, R_USER), MPI(140, 150, R_BARRIER)};
static const ms_wx_coll c0[] = {COLL(50, 0), COLL(140, 2)};
static const ms_wx_event b1[] = {USER(0, 80, R_USER), MPI(80, 82, R_BARRIER), MPI(130, 150, R_BARRIER)};
static const ms_wx_coll c1[] = {COLL(80, 1), COLL(130, 2)};

Test(root_causes, two_causes_ranked)
{
    ms_wx_rank r[] = {mk_rank(0, b0, N(b0), NULL, 0, c0, N(c0)), mk_rank(1, b1, N(b1), NULL, 0, c1, N(c1))};
    ms_waits w;
    cr_assert_eq(ms_waits_compute(r, N(r), &w), 0);
    cr_assert_eq(w.ninst, 2);
    cr_assert_geq(w.ncauses, 2);
    /* Rank 0 waited 30 ns at the first barrier: rank 1's user region, 80
     * ns against rank 0's 50 ns of compute. */
    cr_expect_eq(w.causes[0].rank, 1);
    cr_expect_eq(w.causes[0].kind, MS_WX_CAUSE_USER);
    cr_expect_eq(w.causes[0].region, R_USER);
    cr_expect_eq(w.causes[0].direct_ns, 30);
    cr_expect_eq(w.causes[0].delay_ns, 30);
    /* Rank 1 waited 10 ns at the second: rank 0's user region, 60 ns
     * against rank 1's 48 ns of compute after its barrier. */
    cr_expect_eq(w.causes[1].rank, 0);
    cr_expect_eq(w.causes[1].kind, MS_WX_CAUSE_USER);
    cr_expect_eq(w.causes[1].direct_ns, 10);
    cr_expect_eq(w.causes[1].indirect_ns, 0);
    ms_waits_free(&w);
}
