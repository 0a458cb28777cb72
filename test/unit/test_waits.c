/* The wait-state analysis (analysis/waits/): message and collective
 * matching, the Scalasca-style patterns, the rows and the critical path on
 * facts built here (times in ns, so every expectation is exact); then the
 * same through real logs, synthesized and reduced. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/reduce.h"
#include "../../analysis/reduce/run.h"
#include "../../analysis/reduce/run_waits.h"
#include "../../analysis/waits/waits.h"
#include "../../common/op_names.h"
#include "synth.h"
#include "wx_rank.h"
#include "unit_util.h"

#define N(a) (sizeof(a) / sizeof *(a))

/* Events: a charged MPI call, an uncharged one (posts, the test family),
 * a user region. */
#define MPI(s, e, reg) {.start = (s), .end = (e), .region = (reg), .kind = MS_WX_MPI, .charge = 1}
#define NOWAIT(s, e, reg) {.start = (s), .end = (e), .region = (reg), .kind = MS_WX_MPI, .charge = 0}
#define USER(s, e, reg) {.start = (s), .end = (e), .region = (reg), .kind = MS_WX_USER, .charge = 0}
/* Message ends on communicator 0 and collectives. */
#define SEND(to, tg, at, e, sy) {.comm = 0, .tag = (tg), .entry = (at), .other = (to), .ev = (e), .is_send = 1, .sync = (sy)}
#define RECV(from, tg, at, e) {.comm = 0, .tag = (tg), .entry = (at), .other = (from), .ev = (e), .is_send = 0}
#define COLL(cm, at, rt, e, cl) {.comm = (cm), .entry = (at), .root = (rt), .ev = (e), .cls = (cl)}

#define P2P_RANK(r, ev, msg) mk_rank((r), (ev), N(ev), (msg), N(msg), NULL, 0)
#define COLL_RANK(r, ev, coll) mk_rank((r), (ev), N(ev), NULL, 0, (coll), N(coll))

static void compute(const ms_wx_rank *ranks, size_t n, ms_waits *w)
{
    cr_assert_eq(ms_waits_compute(ranks, n, w), 0);
}

/* Waiting call i of w, read back from the analysis's file. */
static ms_wx_instance inst_at(const ms_waits *w, size_t i)
{
    ms_wx_instance x;
    cr_assert_eq(ms_waits_inst_read(w, i, 1, &x), 0, "waiting call %zu of %zu", i, w->ninst);
    return x;
}

static void expect_inst(const ms_waits *w, size_t i, int32_t rank, uint32_t ev, int pattern, int32_t cause,
                        int64_t from, int64_t to)
{
    cr_assert_lt(i, w->ninst, "instance %zu of %zu", i, w->ninst);
    ms_wx_instance xv = inst_at(w, i), *x = &xv;
    cr_expect_eq(x->rank, rank, "instance %zu: rank %d", i, x->rank);
    cr_expect_eq(x->ev, ev, "instance %zu: event %u", i, x->ev);
    cr_expect_eq(x->pattern, pattern, "instance %zu: pattern %s", i, ms_wx_pattern_name(x->pattern));
    cr_expect_eq(x->cause, cause, "instance %zu: cause %d", i, x->cause);
    cr_expect_eq(x->from, from, "instance %zu: from %ld", i, (long)x->from);
    cr_expect_eq(x->to, to, "instance %zu: to %ld", i, (long)x->to);
}

static void expect_row(const ms_waits *w, size_t i, int pattern, int32_t rank, uint32_t region, uint64_t instances,
                       uint64_t wait_ns, int32_t cause)
{
    cr_assert_lt(i, w->nrows, "row %zu of %zu", i, w->nrows);
    const ms_wx_row *r = &w->rows[i];
    cr_expect_eq(r->pattern, pattern, "row %zu: pattern %s", i, ms_wx_pattern_name(r->pattern));
    cr_expect_eq(r->rank, rank, "row %zu: rank %d", i, r->rank);
    cr_expect_eq(r->region, region, "row %zu: region %u", i, r->region);
    cr_expect_eq(r->instances, instances, "row %zu: instances %lu", i, (unsigned long)r->instances);
    cr_expect_eq(r->wait_ns, wait_ns, "row %zu: wait %lu", i, (unsigned long)r->wait_ns);
    cr_expect_eq(r->cause_rank, cause, "row %zu: cause %d", i, r->cause_rank);
}

TestSuite(waits);

Test(waits, pattern_names)
{
    cr_expect_str_eq(ms_wx_pattern_name(MS_WX_LATE_SENDER), "late_sender");
    cr_expect_str_eq(ms_wx_pattern_name(MS_WX_LATE_RECEIVER), "late_receiver");
    cr_expect_str_eq(ms_wx_pattern_name(MS_WX_WAIT_BARRIER), "wait_at_barrier");
    cr_expect_str_eq(ms_wx_pattern_name(MS_WX_WAIT_NXN), "wait_at_nxn");
    cr_expect_str_eq(ms_wx_pattern_name(MS_WX_LATE_BCAST), "late_broadcast");
    cr_expect_str_eq(ms_wx_pattern_name(MS_WX_EARLY_REDUCE), "early_reduce");
    cr_expect_str_eq(ms_wx_pattern_name(MS_WX_NPATTERNS), "?");
    cr_expect_str_eq(ms_wx_pattern_name(-1), "?");
}

Test(waits, no_ranks)
{
    ms_waits w;
    compute(NULL, 0, &w);
    cr_expect_eq(w.ninst, 0);
    cr_expect_eq(w.nrows, 0);
    cr_expect_eq(w.has_path, 0);
    ms_waits_free(&w);
}

Test(waits, ranks_out_of_order_refused)
{
    static const ms_wx_event ev[] = {MPI(0, 10, 0)};
    ms_wx_rank r[2] = {mk_rank(1, ev, 1, NULL, 0, NULL, 0), mk_rank(0, ev, 1, NULL, 0, NULL, 0)};
    ms_waits w;
    cr_expect_eq(ms_waits_compute(r, 2, &w), -1);
    cr_expect_eq(w.ninst, 0);
    cr_expect_null(w.rows);
}

/* ---- point to point ---- */

Test(waits, long_channel_in_order)
{
    /* Rank 0 posts 3,000 blocking receives from rank 1 (one call each,
     * 0..3000 + k) before rank 1 sends any (10,000 + k): the channel holds
     * more ends than its ring, the newer ones on disk; the k-th send still
     * meets the k-th receive. */
    enum { K = 3000 };
    ms_wx_event *e0 = calloc(K, sizeof *e0), *e1 = calloc(K, sizeof *e1);
    ms_wx_msg *m0 = calloc(K, sizeof *m0), *m1 = calloc(K, sizeof *m1);
    cr_assert(e0 && e1 && m0 && m1);
    for (int k = 0; k < K; k++) {
        e0[k] = (ms_wx_event)MPI(k, 20000 + k, 0);
        m0[k] = (ms_wx_msg)RECV(1, 7, k, (uint32_t)k);
        e1[k] = (ms_wx_event)MPI(10000 + k, 10000 + k + 1, 1);
        m1[k] = (ms_wx_msg)SEND(0, 7, 10000 + k, (uint32_t)k, 0);
    }
    ms_wx_rank r[] = {mk_rank(0, e0, K, m0, K, NULL, 0), mk_rank(1, e1, K, m1, K, NULL, 0)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, K);
    cr_expect_eq(w.unmatched_sends + w.unmatched_recvs, 0);
    cr_assert_eq(w.ninst, K);
    for (size_t k = 0; k < K; k += 997)
        expect_inst(&w, k, 0, (uint32_t)k, MS_WX_LATE_SENDER, 1, (int64_t)k, 10000 + (int64_t)k);
    expect_inst(&w, K - 1, 0, K - 1, MS_WX_LATE_SENDER, 1, K - 1, 10000 + K - 1);
    ms_waits_free(&w);
    free(e0);
    free(e1);
    free(m0);
    free(m1);
}

Test(waits, late_sender)
{
    /* Rank 0's blocking receive from 20 to 120; rank 1 sends at 100. */
    static const ms_wx_event e0[] = {MPI(20, 120, 0)};
    static const ms_wx_msg m0[] = {RECV(1, 7, 20, 0)};
    static const ms_wx_event e1[] = {MPI(100, 130, 1)};
    static const ms_wx_msg m1[] = {SEND(0, 7, 100, 0, 2)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, 1);
    cr_expect_eq(w.unmatched_sends, 0);
    cr_expect_eq(w.unmatched_recvs, 0);
    cr_expect_eq(w.clock_violations, 0);
    cr_assert_eq(w.ninst, 1);
    expect_inst(&w, 0, 0, 0, MS_WX_LATE_SENDER, 1, 20, 100);
    cr_expect_eq(inst_at(&w, 0).cause_at, 100);
    cr_expect_eq(w.wait_ns, 80);
    cr_expect_eq(w.pattern_ns[MS_WX_LATE_SENDER], 80);
    cr_expect_eq(w.pattern_ns[MS_WX_LATE_RECEIVER], 0);
    cr_assert_eq(w.nrows, 1);
    expect_row(&w, 0, MS_WX_LATE_SENDER, 0, 0, 1, 80, 1);
    ms_waits_free(&w);
}

Test(waits, receive_posted_after_send_no_wait)
{
    /* The send (100..130) began before the receive was posted at 150. */
    static const ms_wx_event e0[] = {MPI(150, 160, 0)};
    static const ms_wx_msg m0[] = {RECV(1, 7, 150, 0)};
    static const ms_wx_event e1[] = {MPI(100, 130, 1)};
    static const ms_wx_msg m1[] = {SEND(0, 7, 100, 0, 2)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, 1);
    cr_expect_eq(w.ninst, 0);
    cr_expect_eq(w.nrows, 0);
    cr_expect_eq(w.wait_ns, 0);
    ms_waits_free(&w);
}

Test(waits, non_overtaking_same_channel)
{
    /* Two sends (100, 200) and two receives (posted 10, 160) on one
     * channel: the first pairs with the first. The receives are given in
     * reverse order: matching goes by post time, not by position. */
    static const ms_wx_event e0[] = {MPI(10, 150, 0), MPI(160, 250, 0)};
    static const ms_wx_msg m0[] = {RECV(1, 5, 160, 1), RECV(1, 5, 10, 0)};
    static const ms_wx_event e1[] = {MPI(100, 105, 1), MPI(200, 205, 1)};
    static const ms_wx_msg m1[] = {SEND(0, 5, 100, 0, 0), SEND(0, 5, 200, 1, 0)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, 2);
    cr_assert_eq(w.ninst, 2);
    expect_inst(&w, 0, 0, 0, MS_WX_LATE_SENDER, 1, 10, 100);
    expect_inst(&w, 1, 0, 1, MS_WX_LATE_SENDER, 1, 160, 200);
    cr_expect_eq(w.wait_ns, 90 + 40);
    cr_assert_eq(w.nrows, 1);
    expect_row(&w, 0, MS_WX_LATE_SENDER, 0, 0, 2, 130, 1);
    ms_waits_free(&w);
}

Test(waits, out_of_order_tags_pair_by_tag)
{
    /* Sends tag 1 (at 100) then tag 2 (at 200); receives posted for tag 2
     * (at 10) then tag 1 (at 260). By tag: the first receive waits for
     * the second send; the second receive was posted after its send. */
    static const ms_wx_event e0[] = {MPI(10, 250, 0), MPI(260, 270, 0)};
    static const ms_wx_msg m0[] = {RECV(1, 2, 10, 0), RECV(1, 1, 260, 1)};
    static const ms_wx_event e1[] = {MPI(100, 105, 1), MPI(200, 205, 1)};
    static const ms_wx_msg m1[] = {SEND(0, 1, 100, 0, 0), SEND(0, 2, 200, 1, 0)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, 2);
    cr_expect_eq(w.unmatched_sends, 0);
    cr_expect_eq(w.unmatched_recvs, 0);
    cr_assert_eq(w.ninst, 1);
    expect_inst(&w, 0, 0, 0, MS_WX_LATE_SENDER, 1, 10, 200);
    cr_expect_eq(w.wait_ns, 190);
    ms_waits_free(&w);
}

Test(waits, wildcard_receive_pairs_with_actual_source)
{
    /* Rank 0's first receive (any source) got rank 2's message, sent at
     * 300; rank 1 sent earlier (50), to the second receive. */
    static const ms_wx_event e0[] = {MPI(10, 310, 0), MPI(320, 330, 0)};
    static const ms_wx_msg m0[] = {RECV(2, 0, 10, 0), RECV(1, 0, 320, 1)};
    static const ms_wx_event e1[] = {MPI(50, 60, 1)};
    static const ms_wx_msg m1[] = {SEND(0, 0, 50, 0, 0)};
    static const ms_wx_event e2[] = {MPI(300, 305, 1)};
    static const ms_wx_msg m2[] = {SEND(0, 0, 300, 0, 0)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1), P2P_RANK(2, e2, m2)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, 2);
    cr_assert_eq(w.ninst, 1);
    expect_inst(&w, 0, 0, 0, MS_WX_LATE_SENDER, 2, 10, 300);
    cr_expect_eq(w.wait_ns, 290);
    ms_waits_free(&w);
}

Test(waits, waitall_waits_for_latest_sender)
{
    /* Two irecvs (posted 10, 12) completed by one Waitall (20..500): rank
     * 1 sends at 100, rank 2 at 300. One waiting call, for rank 2. */
    static const ms_wx_event e0[] = {NOWAIT(10, 11, 2), NOWAIT(12, 13, 2), MPI(20, 500, 3)};
    static const ms_wx_msg m0[] = {RECV(1, 0, 10, 2), RECV(2, 0, 12, 2)};
    static const ms_wx_event e1[] = {MPI(100, 110, 1)};
    static const ms_wx_msg m1[] = {SEND(0, 0, 100, 0, 0)};
    static const ms_wx_event e2[] = {MPI(300, 310, 1)};
    static const ms_wx_msg m2[] = {SEND(0, 0, 300, 0, 0)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1), P2P_RANK(2, e2, m2)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, 2);
    cr_assert_eq(w.ninst, 1);
    expect_inst(&w, 0, 0, 2, MS_WX_LATE_SENDER, 2, 20, 300);
    cr_expect_eq(inst_at(&w, 0).cause_at, 300);
    cr_expect_eq(w.wait_ns, 280);
    cr_assert_eq(w.nrows, 1);
    expect_row(&w, 0, MS_WX_LATE_SENDER, 0, 3, 1, 280, 2);
    ms_waits_free(&w);
}

Test(waits, test_family_not_charged)
{
    /* As above, completed by a Testall (charge 0); and a non-blocking
     * barrier completed by a test while the other rank came late. */
    static const ms_wx_event e0[] = {NOWAIT(10, 11, 2), NOWAIT(12, 13, 2), NOWAIT(20, 500, 4), NOWAIT(600, 700, 4)};
    static const ms_wx_msg m0[] = {RECV(1, 0, 10, 2), RECV(2, 0, 12, 2)};
    static const ms_wx_coll c0[] = {COLL(0, 550, -1, 3, MS_WX_BARRIER)};
    static const ms_wx_event e1[] = {MPI(100, 110, 1), MPI(650, 700, 5)};
    static const ms_wx_msg m1[] = {SEND(0, 0, 100, 0, 0)};
    static const ms_wx_coll c1[] = {COLL(0, 650, -1, 1, MS_WX_BARRIER)};
    static const ms_wx_event e2[] = {MPI(300, 310, 1), MPI(640, 700, 5)};
    static const ms_wx_msg m2[] = {SEND(0, 0, 300, 0, 0)};
    static const ms_wx_coll c2[] = {COLL(0, 640, -1, 1, MS_WX_BARRIER)};
    ms_wx_rank r[] = {mk_rank(0, e0, N(e0), m0, N(m0), c0, N(c0)), mk_rank(1, e1, N(e1), m1, N(m1), c1, N(c1)),
                      mk_rank(2, e2, N(e2), m2, N(m2), c2, N(c2))};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, 2);
    cr_expect_eq(w.colls, 1);
    /* Only rank 2's barrier (640, charged) waited, for rank 1 (650). */
    cr_assert_eq(w.ninst, 1);
    expect_inst(&w, 0, 2, 1, MS_WX_WAIT_BARRIER, 1, 640, 650);
    cr_expect_eq(w.pattern_ns[MS_WX_LATE_SENDER], 0);
    cr_expect_eq(w.wait_ns, 10);
    ms_waits_free(&w);
}

Test(waits, late_receiver_synchronous_send)
{
    /* Rank 0's ssend (10..200); rank 1 posts its receive at 150. */
    static const ms_wx_event e0[] = {MPI(10, 200, 0)};
    static const ms_wx_msg m0[] = {SEND(1, 0, 10, 0, 1)};
    static const ms_wx_event e1[] = {MPI(150, 200, 1)};
    static const ms_wx_msg m1[] = {RECV(0, 0, 150, 0)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, 1);
    cr_assert_eq(w.ninst, 1);
    expect_inst(&w, 0, 0, 0, MS_WX_LATE_RECEIVER, 1, 10, 150);
    cr_expect_eq(inst_at(&w, 0).cause_at, 150);
    cr_expect_eq(w.pattern_ns[MS_WX_LATE_RECEIVER], 140);
    cr_expect_eq(w.pattern_ns[MS_WX_LATE_SENDER], 0);
    cr_assert_eq(w.nrows, 1);
    expect_row(&w, 0, MS_WX_LATE_RECEIVER, 0, 0, 1, 140, 1);
    ms_waits_free(&w);
}

Test(waits, late_receiver_standard_send_held)
{
    /* A standard blocking send (10..200) that returned after the receive
     * was posted (150): the library held it. */
    static const ms_wx_event e0[] = {MPI(10, 200, 0)};
    static const ms_wx_msg m0[] = {SEND(1, 0, 10, 0, 2)};
    static const ms_wx_event e1[] = {MPI(150, 200, 1)};
    static const ms_wx_msg m1[] = {RECV(0, 0, 150, 0)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_assert_eq(w.ninst, 1);
    expect_inst(&w, 0, 0, 0, MS_WX_LATE_RECEIVER, 1, 10, 150);
    cr_expect_eq(w.wait_ns, 140);
    ms_waits_free(&w);
}

Test(waits, standard_send_returned_before_post_no_wait)
{
    /* The standard send (10..100) returned before the receive was posted
     * (150): buffered, it waited for nobody. A buffered-mode send (sync 0)
     * that returned late is not charged either. */
    static const ms_wx_event e0[] = {MPI(10, 100, 0), MPI(300, 500, 1)};
    static const ms_wx_msg m0[] = {SEND(1, 0, 10, 0, 2), SEND(1, 1, 300, 1, 0)};
    static const ms_wx_event e1[] = {MPI(150, 160, 2), MPI(400, 410, 2)};
    static const ms_wx_msg m1[] = {RECV(0, 0, 150, 0), RECV(0, 1, 400, 1)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, 2);
    cr_expect_eq(w.ninst, 0);
    cr_expect_eq(w.wait_ns, 0);
    ms_waits_free(&w);
}

Test(waits, unmatched_sends_and_receives)
{
    /* Rank 1 sent three messages; rank 0's log has one receive of them
     * (cut short) and a receive from rank 1 on a tag nobody sent. */
    static const ms_wx_event e0[] = {MPI(50, 120, 0), MPI(400, 410, 0)};
    static const ms_wx_msg m0[] = {RECV(1, 0, 50, 0), RECV(1, 9, 400, 1)};
    static const ms_wx_event e1[] = {MPI(100, 101, 1), MPI(200, 201, 1), MPI(300, 301, 1)};
    static const ms_wx_msg m1[] = {SEND(0, 0, 100, 0, 0), SEND(0, 0, 200, 1, 0), SEND(0, 0, 300, 2, 0)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, 1);
    cr_expect_eq(w.unmatched_sends, 2);
    cr_expect_eq(w.unmatched_recvs, 1);
    cr_assert_eq(w.ninst, 1);
    expect_inst(&w, 0, 0, 0, MS_WX_LATE_SENDER, 1, 50, 100);
    ms_waits_free(&w);
}

Test(waits, clock_condition_violation)
{
    /* The first receive (20..150) ended before its send started (200):
     * counted, its wait clamped to the call. The second pair is sound. */
    static const ms_wx_event e0[] = {MPI(20, 150, 0), MPI(300, 400, 0)};
    static const ms_wx_msg m0[] = {RECV(1, 0, 20, 0), RECV(1, 0, 300, 1)};
    static const ms_wx_event e1[] = {MPI(200, 210, 1), MPI(350, 360, 1)};
    static const ms_wx_msg m1[] = {SEND(0, 0, 200, 0, 0), SEND(0, 0, 350, 1, 0)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, 2);
    cr_expect_eq(w.clock_violations, 1);
    cr_assert_eq(w.ninst, 2);
    expect_inst(&w, 0, 0, 0, MS_WX_LATE_SENDER, 1, 20, 150);
    cr_expect_eq(inst_at(&w, 0).cause_at, 200);
    expect_inst(&w, 1, 0, 1, MS_WX_LATE_SENDER, 1, 300, 350);
    cr_expect_eq(w.wait_ns, 130 + 50);
    ms_waits_free(&w);
}

/* ---- collectives ---- */

static void three_ranks_one_coll(int cls, int32_t root, const int64_t entry[3], ms_waits *w)
{
    static ms_wx_event ev[3][1];
    static ms_wx_coll coll[3][1];
    ms_wx_rank r[3];
    for (int i = 0; i < 3; i++) {
        ev[i][0] = (ms_wx_event)MPI(entry[i], 400, 0);
        coll[i][0] = (ms_wx_coll)COLL(0, entry[i], root, 0, (uint8_t)cls);
        r[i] = mk_rank(i, ev[i], 1, NULL, 0, coll[i], 1);
    }
    compute(r, 3, w);
    cr_expect_eq(w->colls, 1);
    cr_expect_eq(w->unmatched_colls, 0);
}

Test(waits, wait_at_barrier_last_in_is_cause)
{
    /* Entries 100, 300, 200: rank 1 is last in. */
    const int64_t entry[3] = {100, 300, 200};
    ms_waits w;
    three_ranks_one_coll(MS_WX_BARRIER, -1, entry, &w);
    cr_assert_eq(w.ninst, 2);
    expect_inst(&w, 0, 0, 0, MS_WX_WAIT_BARRIER, 1, 100, 300);
    expect_inst(&w, 1, 2, 0, MS_WX_WAIT_BARRIER, 1, 200, 300);
    cr_expect_eq(w.pattern_ns[MS_WX_WAIT_BARRIER], 300);
    cr_expect_eq(w.wait_ns, 300);
    ms_waits_free(&w);
}

Test(waits, wait_at_nxn_last_in_is_cause)
{
    const int64_t entry[3] = {100, 300, 200};
    ms_waits w;
    three_ranks_one_coll(MS_WX_NXN, -1, entry, &w);
    cr_assert_eq(w.ninst, 2);
    expect_inst(&w, 0, 0, 0, MS_WX_WAIT_NXN, 1, 100, 300);
    expect_inst(&w, 1, 2, 0, MS_WX_WAIT_NXN, 1, 200, 300);
    cr_expect_eq(w.pattern_ns[MS_WX_WAIT_NXN], 300);
    cr_expect_eq(w.pattern_ns[MS_WX_WAIT_BARRIER], 0);
    ms_waits_free(&w);
}

Test(waits, late_broadcast_non_root_waits_for_root)
{
    /* Root 1 enters at 250: rank 0 (100) waits for it, rank 2 (300) came
     * after it, the root waits for nobody. */
    const int64_t entry[3] = {100, 250, 300};
    ms_waits w;
    three_ranks_one_coll(MS_WX_BCAST, 1, entry, &w);
    cr_assert_eq(w.ninst, 1);
    expect_inst(&w, 0, 0, 0, MS_WX_LATE_BCAST, 1, 100, 250);
    cr_expect_eq(w.pattern_ns[MS_WX_LATE_BCAST], 150);
    ms_waits_free(&w);
}

Test(waits, early_reduce_root_waits_for_first_non_root)
{
    /* Root 0 enters at 100; rank 2 is the first other one in (250). */
    const int64_t entry[3] = {100, 300, 250};
    ms_waits w;
    three_ranks_one_coll(MS_WX_REDUCE, 0, entry, &w);
    cr_assert_eq(w.ninst, 1);
    expect_inst(&w, 0, 0, 0, MS_WX_EARLY_REDUCE, 2, 100, 250);
    cr_expect_eq(w.pattern_ns[MS_WX_EARLY_REDUCE], 150);
    ms_waits_free(&w);
}

/* Barriers on communicator 0 (ranks 0, 1, 2) and 5 (ranks 0, 1),
 * interleaved; rank 2's log has its second call on 0 unless truncated. */
static void two_comms(int truncated, ms_waits *w)
{
    static const ms_wx_event e0[] = {MPI(100, 150, 0), MPI(200, 260, 0), MPI(300, 400, 0)};
    /* Given in no particular order. */
    static const ms_wx_coll c0[] = {COLL(0, 300, -1, 2, MS_WX_BARRIER), COLL(5, 200, -1, 1, MS_WX_BARRIER),
                                    COLL(0, 100, -1, 0, MS_WX_BARRIER)};
    static const ms_wx_event e1[] = {MPI(110, 150, 0), MPI(250, 260, 0), MPI(320, 400, 0)};
    static const ms_wx_coll c1[] = {COLL(0, 110, -1, 0, MS_WX_BARRIER), COLL(5, 250, -1, 1, MS_WX_BARRIER),
                                    COLL(0, 320, -1, 2, MS_WX_BARRIER)};
    static const ms_wx_event e2[] = {MPI(150, 151, 0), MPI(400, 401, 0)};
    static const ms_wx_coll c2[] = {COLL(0, 150, -1, 0, MS_WX_BARRIER), COLL(0, 400, -1, 1, MS_WX_BARRIER)};
    size_t n2 = truncated ? 1 : 2;
    ms_wx_rank r[] = {COLL_RANK(0, e0, c0), COLL_RANK(1, e1, c1), mk_rank(2, e2, n2, NULL, 0, c2, n2)};
    compute(r, N(r), w);
}

Test(waits, collectives_matched_per_communicator)
{
    ms_waits w;
    two_comms(0, &w);
    cr_expect_eq(w.colls, 3);
    cr_expect_eq(w.unmatched_colls, 0);
    cr_assert_eq(w.ninst, 5);
    expect_inst(&w, 0, 0, 0, MS_WX_WAIT_BARRIER, 2, 100, 150);
    expect_inst(&w, 1, 0, 1, MS_WX_WAIT_BARRIER, 1, 200, 250);
    expect_inst(&w, 2, 0, 2, MS_WX_WAIT_BARRIER, 2, 300, 400);
    expect_inst(&w, 3, 1, 0, MS_WX_WAIT_BARRIER, 2, 110, 150);
    expect_inst(&w, 4, 1, 2, MS_WX_WAIT_BARRIER, 2, 320, 400);
    cr_expect_eq(w.wait_ns, 50 + 50 + 100 + 40 + 80);
    ms_waits_free(&w);
}

Test(waits, truncated_rank_leaves_collectives_unmatched)
{
    /* Rank 2 lacks its second call on communicator 0: that call of ranks
     * 0 and 1 is left over; the rest still match. */
    ms_waits w;
    two_comms(1, &w);
    cr_expect_eq(w.colls, 2);
    cr_expect_eq(w.unmatched_colls, 2);
    cr_assert_eq(w.ninst, 3);
    expect_inst(&w, 0, 0, 0, MS_WX_WAIT_BARRIER, 2, 100, 150);
    expect_inst(&w, 1, 0, 1, MS_WX_WAIT_BARRIER, 1, 200, 250);
    expect_inst(&w, 2, 1, 0, MS_WX_WAIT_BARRIER, 2, 110, 150);
    cr_expect_eq(w.wait_ns, 50 + 50 + 40);
    ms_waits_free(&w);
}

/* ---- rows ---- */

Test(waits, rows_aggregate_and_order)
{
    /* Rank 0: receives in region 0 waiting 40 (for rank 1), 10 and 15
     * (for rank 2), one in region 1 waiting 100 (rank 1), a barrier
     * (region 3) waiting 65 for rank 2; rank 1's barrier waits 115. */
    static const ms_wx_event e0[] = {MPI(0, 40, 0), MPI(100, 110, 0), MPI(200, 215, 0), MPI(300, 400, 1),
                                     MPI(500, 600, 3)};
    static const ms_wx_msg m0[] = {RECV(1, 0, 0, 0), RECV(2, 0, 100, 1), RECV(2, 0, 200, 2), RECV(1, 0, 300, 3)};
    static const ms_wx_coll c0[] = {COLL(0, 500, -1, 4, MS_WX_BARRIER)};
    static const ms_wx_event e1[] = {MPI(40, 41, 2), MPI(400, 401, 2), MPI(450, 600, 3)};
    static const ms_wx_msg m1[] = {SEND(0, 0, 40, 0, 0), SEND(0, 0, 400, 1, 0)};
    static const ms_wx_coll c1[] = {COLL(0, 450, -1, 2, MS_WX_BARRIER)};
    static const ms_wx_event e2[] = {MPI(110, 111, 2), MPI(215, 216, 2), MPI(565, 600, 3)};
    static const ms_wx_msg m2[] = {SEND(0, 0, 110, 0, 0), SEND(0, 0, 215, 1, 0)};
    static const ms_wx_coll c2[] = {COLL(0, 565, -1, 2, MS_WX_BARRIER)};
    ms_wx_rank r[] = {mk_rank(0, e0, N(e0), m0, N(m0), c0, N(c0)), mk_rank(1, e1, N(e1), m1, N(m1), c1, N(c1)),
                      mk_rank(2, e2, N(e2), m2, N(m2), c2, N(c2))};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.messages, 4);
    cr_expect_eq(w.colls, 1);
    cr_assert_eq(w.ninst, 6);
    /* By rank, then start. */
    expect_inst(&w, 0, 0, 0, MS_WX_LATE_SENDER, 1, 0, 40);
    expect_inst(&w, 1, 0, 1, MS_WX_LATE_SENDER, 2, 100, 110);
    expect_inst(&w, 2, 0, 2, MS_WX_LATE_SENDER, 2, 200, 215);
    expect_inst(&w, 3, 0, 3, MS_WX_LATE_SENDER, 1, 300, 400);
    expect_inst(&w, 4, 0, 4, MS_WX_WAIT_BARRIER, 2, 500, 565);
    expect_inst(&w, 5, 1, 2, MS_WX_WAIT_BARRIER, 2, 450, 565);
    cr_expect_eq(w.wait_ns, 345);
    cr_expect_eq(w.pattern_ns[MS_WX_LATE_SENDER], 165);
    cr_expect_eq(w.pattern_ns[MS_WX_WAIT_BARRIER], 180);
    /* By wait time; 65 and 65 by pattern. Region 0's cause is rank 1 (40
     * ns in one call) over rank 2 (25 ns in two). */
    cr_assert_eq(w.nrows, 4);
    expect_row(&w, 0, MS_WX_WAIT_BARRIER, 1, 3, 1, 115, 2);
    expect_row(&w, 1, MS_WX_LATE_SENDER, 0, 1, 1, 100, 1);
    expect_row(&w, 2, MS_WX_LATE_SENDER, 0, 0, 3, 65, 1);
    expect_row(&w, 3, MS_WX_WAIT_BARRIER, 0, 3, 1, 65, 2);
    ms_waits_free(&w);
}

Test(waits, row_cause_tie_goes_to_lower_rank)
{
    /* Rank 0's two barriers wait 50 each, for rank 2 then for rank 1. */
    static const ms_wx_event e0[] = {MPI(100, 200, 0), MPI(300, 400, 0)};
    static const ms_wx_coll c0[] = {COLL(0, 100, -1, 0, MS_WX_BARRIER), COLL(0, 300, -1, 1, MS_WX_BARRIER)};
    static const ms_wx_event e1[] = {MPI(110, 200, 0), MPI(350, 400, 0)};
    static const ms_wx_coll c1[] = {COLL(0, 110, -1, 0, MS_WX_BARRIER), COLL(0, 350, -1, 1, MS_WX_BARRIER)};
    static const ms_wx_event e2[] = {MPI(150, 200, 0), MPI(320, 400, 0)};
    static const ms_wx_coll c2[] = {COLL(0, 150, -1, 0, MS_WX_BARRIER), COLL(0, 320, -1, 1, MS_WX_BARRIER)};
    ms_wx_rank r[] = {COLL_RANK(0, e0, c0), COLL_RANK(1, e1, c1), COLL_RANK(2, e2, c2)};
    ms_waits w;
    compute(r, N(r), &w);
    cr_expect_eq(w.colls, 2);
    /* Rank 0: 50 + 50; rank 1: 40 (for 2); rank 2: 30 (for 1). */
    cr_assert_eq(w.nrows, 3);
    expect_row(&w, 0, MS_WX_WAIT_BARRIER, 0, 0, 2, 100, 1);
    cr_expect_eq(w.rows[0].wait_best, 50);
    expect_row(&w, 1, MS_WX_WAIT_BARRIER, 1, 0, 1, 40, 2);
    cr_expect_eq(w.rows[1].wait_best, 40);
    expect_row(&w, 2, MS_WX_WAIT_BARRIER, 2, 0, 1, 30, 1);
    ms_waits_free(&w);
}

/* ---- the critical path ---- */

/* Rank 0 receives (100..600) what rank 1 sends at 500, after a call of
 * its own (200..250); rank 0 enters MPI_Finalize last, at 1000. With
 * user regions: on rank 1 around compute (260..450), on rank 0 one
 * around the receive (50..700) and one (800..900) nested in another
 * (750..950). */
static void path_run(int user, ms_waits *w)
{
    static const ms_wx_event e0[] = {MPI(100, 600, 0)};
    static const ms_wx_msg m0[] = {RECV(1, 0, 100, 0)};
    static const ms_wx_event e1[] = {MPI(200, 250, 2), MPI(500, 550, 1)};
    static const ms_wx_msg m1[] = {SEND(0, 0, 500, 1, 0)};
    static const ms_wx_event u0[] = {USER(50, 700, 4), MPI(100, 600, 0), USER(750, 950, 6), USER(800, 900, 5)};
    static const ms_wx_msg um0[] = {RECV(1, 0, 100, 1)};
    static const ms_wx_event u1[] = {MPI(200, 250, 2), USER(260, 450, 3), MPI(500, 550, 1)};
    static const ms_wx_msg um1[] = {SEND(0, 0, 500, 2, 0)};
    ms_wx_rank r[2];
    if (user) {
        r[0] = P2P_RANK(0, u0, um0);
        r[1] = P2P_RANK(1, u1, um1);
    } else {
        r[0] = P2P_RANK(0, e0, m0);
        r[1] = P2P_RANK(1, e1, m1);
    }
    r[0].app_end = 1000;
    r[0].app_ns = 1000;
    r[1].app_end = 700;
    r[1].app_ns = 700;
    compute(r, 2, w);
    cr_assert_eq(w->ninst, 1);
    expect_inst(w, 0, 0, user ? 1 : 0, MS_WX_LATE_SENDER, 1, 100, 500);
}

static void expect_path_rank(const ms_waits *w, size_t i, int32_t rank, uint64_t compute_ns, uint64_t mpi_ns)
{
    cr_assert_lt(i, w->npath_ranks);
    cr_expect_eq(w->path_ranks[i].rank, rank, "path rank %zu: %d", i, w->path_ranks[i].rank);
    cr_expect_eq(w->path_ranks[i].compute_ns, compute_ns, "path rank %zu: compute %lu", i,
                 (unsigned long)w->path_ranks[i].compute_ns);
    cr_expect_eq(w->path_ranks[i].mpi_ns, mpi_ns, "path rank %zu: mpi %lu", i, (unsigned long)w->path_ranks[i].mpi_ns);
}

static void expect_path_region(const ms_waits *w, size_t i, uint32_t region, uint64_t ns)
{
    cr_assert_lt(i, w->npath_regions);
    cr_expect_eq(w->path_regions[i].region, region, "path region %zu: %u", i, w->path_regions[i].region);
    cr_expect_eq(w->path_regions[i].on_path_ns, ns, "path region %zu: %lu ns", i,
                 (unsigned long)w->path_regions[i].on_path_ns);
}

/* The path's stretches, in time order: {rank, region, from, to, is_mpi}. */
typedef struct seg_want {
    int32_t rank;
    uint32_t region;
    int64_t from, to;
    int is_mpi;
} seg_want;

static void expect_segs(const ms_waits *w, const seg_want *want, size_t n)
{
    cr_assert_eq(w->npath_segs, n, "%zu path segments", w->npath_segs);
    for (size_t i = 0; i < n; i++) {
        const ms_wx_path_seg *g = &w->path_segs[i];
        cr_expect(g->rank == want[i].rank && g->region == want[i].region && g->from == want[i].from &&
                      g->to == want[i].to && g->is_mpi == want[i].is_mpi,
                  "segment %zu: got rank %d region %u [%ld, %ld) mpi %d; want rank %d region %u [%ld, %ld) mpi %d",
                  i, g->rank, g->region, (long)g->from, (long)g->to, g->is_mpi, want[i].rank, want[i].region,
                  (long)want[i].from, (long)want[i].to, want[i].is_mpi);
    }
}

#define C MS_WX_COMPUTE

/* More pieces than are kept: the longest stay, and of equal length the
 * latest, in time order. One rank: MS_WX_PATH_SEGS + 1000 calls of 10 ns,
 * 1 ns apart, and three of 50 ns among the first. */
Test(waits, critical_path_keeps_longest_pieces)
{
    size_t n = MS_WX_PATH_SEGS + 1000;
    ms_wx_event *ev = calloc(n, sizeof *ev);
    cr_assert_not_null(ev);
    int64_t t = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t len = (i == 5 || i == 7 || i == 9) ? 50 : 10;
        ev[i] = (ms_wx_event)MPI(t + 1, t + 1 + len, 0);
        t += 1 + len;
    }
    ms_wx_rank r = mk_rank(0, ev, n, NULL, 0, NULL, 0);
    ms_waits w;
    compute(&r, 1, &w);
    cr_assert_eq(w.has_path, 1);
    cr_assert_eq(w.npath_segs, MS_WX_PATH_SEGS);
    cr_expect_eq(w.npath_segs_all, 2 * n);
    /* The three long calls first, then the latest pieces of 10 ns. */
    cr_expect_eq(w.path_segs[0].from, ev[5].start);
    cr_expect_eq(w.path_segs[1].from, ev[7].start);
    cr_expect_eq(w.path_segs[2].from, ev[9].start);
    size_t first = n - (MS_WX_PATH_SEGS - 3);
    for (size_t k = 3; k < MS_WX_PATH_SEGS; k++) {
        const ms_wx_path_seg *g = &w.path_segs[k];
        cr_assert(g->is_mpi && g->from == ev[first + k - 3].start && g->to == ev[first + k - 3].end,
                  "segment %zu: [%ld, %ld) mpi %d", k, (long)g->from, (long)g->to, g->is_mpi);
    }
    ms_waits_free(&w);
    free(ev);
}

Test(waits, critical_path_through_late_sender)
{
    /* Backward from 1000 on rank 0: compute 600..1000, the receive after
     * the wait (500..600), then rank 1 before its send: compute 250..500,
     * its call 200..250, compute 0..200. */
    ms_waits w;
    path_run(0, &w);
    cr_assert_eq(w.has_path, 1);
    cr_expect_eq(w.path_ns, 1000);
    cr_expect_eq(w.path_steps, 3);
    cr_assert_eq(w.npath_ranks, 2);
    expect_path_rank(&w, 0, 0, 400, 100);
    expect_path_rank(&w, 1, 1, 450, 50);
    cr_assert_eq(w.npath_regions, 3);
    expect_path_region(&w, 0, MS_WX_COMPUTE, 850);
    expect_path_region(&w, 1, 0, 100);
    expect_path_region(&w, 2, 2, 50);
    /* Busy: (1000 + 700 - 400) / 2 = 650. */
    cr_expect_eq(w.imbalance_ns, 350);
    static const seg_want segs[] = {
        {1, C, 0, 200, 0}, {1, 2, 200, 250, 1}, {1, C, 250, 500, 0}, {0, 0, 500, 600, 1}, {0, C, 600, 1000, 0},
    };
    expect_segs(&w, segs, N(segs));
    ms_waits_free(&w);
}

Test(waits, critical_path_user_regions_take_compute)
{
    /* The same path; compute inside user regions goes to them: on rank 0
     * 600..700 to region 4, 750..800 and 900..950 to 6, 800..900 to 5,
     * the rest (100) to (compute); on rank 1 260..450 to region 3. */
    ms_waits w;
    path_run(1, &w);
    cr_assert_eq(w.has_path, 1);
    cr_expect_eq(w.path_ns, 1000);
    expect_path_rank(&w, 0, 0, 400, 100);
    expect_path_rank(&w, 1, 1, 450, 50);
    cr_assert_eq(w.npath_regions, 7);
    expect_path_region(&w, 0, MS_WX_COMPUTE, 100 + 60 + 200);
    expect_path_region(&w, 1, 3, 190);
    expect_path_region(&w, 2, 0, 100);
    expect_path_region(&w, 3, 4, 100);
    expect_path_region(&w, 4, 5, 100);
    expect_path_region(&w, 5, 6, 100);
    expect_path_region(&w, 6, 2, 50);
    cr_expect_eq(w.imbalance_ns, 350);
    static const seg_want segs[] = {
        {1, C, 0, 200, 0},   {1, 2, 200, 250, 1}, {1, C, 250, 260, 0}, {1, 3, 260, 450, 0},
        {1, C, 450, 500, 0}, {0, 0, 500, 600, 1}, {0, 4, 600, 700, 0}, {0, C, 700, 750, 0},
        {0, 6, 750, 800, 0}, {0, 5, 800, 900, 0}, {0, 6, 900, 950, 0}, {0, C, 950, 1000, 0},
    };
    expect_segs(&w, segs, N(segs));
    ms_waits_free(&w);
}

Test(waits, critical_path_follows_last_into_barrier)
{
    /* Barrier entries 100, 300, 200 (rank 1 last), all leave at 400;
     * rank 2 enters MPI_Finalize last (at 500). The path: rank 2 500..400
     * compute, its barrier after the wait (300..400), then rank 1 0..300. */
    static const ms_wx_event e0[] = {MPI(100, 400, 0)};
    static const ms_wx_event e1[] = {MPI(300, 400, 0)};
    static const ms_wx_event e2[] = {MPI(200, 400, 0)};
    static const ms_wx_coll c0[] = {COLL(0, 100, -1, 0, MS_WX_BARRIER)};
    static const ms_wx_coll c1[] = {COLL(0, 300, -1, 0, MS_WX_BARRIER)};
    static const ms_wx_coll c2[] = {COLL(0, 200, -1, 0, MS_WX_BARRIER)};
    ms_wx_rank r[] = {COLL_RANK(0, e0, c0), COLL_RANK(1, e1, c1), COLL_RANK(2, e2, c2)};
    r[0].app_end = 450;
    r[1].app_end = 420;
    r[2].app_end = 500;
    for (int i = 0; i < 3; i++)
        r[i].app_ns = (uint64_t)r[i].app_end;
    ms_waits w;
    compute(r, N(r), &w);
    cr_assert_eq(w.ninst, 2);
    cr_assert_eq(w.has_path, 1);
    cr_expect_eq(w.path_ns, 500);
    expect_path_rank(&w, 0, 0, 0, 0);
    expect_path_rank(&w, 1, 1, 300, 0);
    expect_path_rank(&w, 2, 2, 100, 100);
    cr_assert_eq(w.npath_regions, 2);
    expect_path_region(&w, 0, MS_WX_COMPUTE, 400);
    expect_path_region(&w, 1, 0, 100);
    /* Busy: (450 + 420 + 500 - 300) / 3 = 356.67. */
    cr_expect_eq(w.imbalance_ns, 143);
    static const seg_want segs[] = {{1, C, 0, 300, 0}, {2, 0, 300, 400, 1}, {2, C, 400, 500, 0}};
    expect_segs(&w, segs, N(segs));
    ms_waits_free(&w);
}

Test(waits, critical_path_back_and_forth)
{
    /* Ping-pong: rank 1's receive (50..110) waits for rank 0's send
     * (100); rank 0's receive (120..600) waits for rank 1's send (500).
     * Backward from 1000 on rank 0: compute 600..1000, its receive
     * 500..600, rank 1's compute 110..500 and receive 100..110, then rank
     * 0 again before its send: compute 0..100. */
    static const ms_wx_event e0[] = {MPI(100, 110, 1), MPI(120, 600, 0)};
    static const ms_wx_msg m0[] = {SEND(1, 0, 100, 0, 0), RECV(1, 1, 120, 1)};
    static const ms_wx_event e1[] = {MPI(50, 110, 0), MPI(500, 510, 1)};
    static const ms_wx_msg m1[] = {RECV(0, 0, 50, 0), SEND(0, 1, 500, 1, 0)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1)};
    r[0].app_end = 1000;
    r[0].app_ns = 1000;
    r[1].app_end = 700;
    r[1].app_ns = 700;
    ms_waits w;
    compute(r, N(r), &w);
    cr_assert_eq(w.ninst, 2);
    expect_inst(&w, 0, 0, 1, MS_WX_LATE_SENDER, 1, 120, 500);
    expect_inst(&w, 1, 1, 0, MS_WX_LATE_SENDER, 0, 50, 100);
    cr_assert_eq(w.has_path, 1);
    cr_expect_eq(w.path_ns, 1000);
    cr_expect_eq(w.path_steps, 3);
    expect_path_rank(&w, 0, 0, 500, 100);
    expect_path_rank(&w, 1, 1, 390, 10);
    cr_assert_eq(w.npath_regions, 2);
    expect_path_region(&w, 0, MS_WX_COMPUTE, 890);
    expect_path_region(&w, 1, 0, 110);
    /* Busy: (1000 + 700 - 430) / 2 = 635. */
    cr_expect_eq(w.imbalance_ns, 365);
    static const seg_want segs[] = {
        {0, C, 0, 100, 0}, {1, 0, 100, 110, 1}, {1, C, 110, 500, 0}, {0, 0, 500, 600, 1}, {0, C, 600, 1000, 0},
    };
    expect_segs(&w, segs, N(segs));
    ms_waits_free(&w);
}

Test(waits, critical_path_walks_first_thread_only)
{
    /* As critical_path_through_late_sender, and rank 0's second thread
     * waits too (50..300 for rank 1's send at 200): an instance, on its
     * thread, but not on the path. */
    static const ms_wx_event e0[] = {MPI(100, 600, 0),
                                     {.start = 50, .end = 300, .region = 3, .thread = 1, .kind = MS_WX_MPI, .charge = 1}};
    static const ms_wx_msg m0[] = {RECV(1, 0, 100, 0), RECV(1, 1, 50, 1)};
    static const ms_wx_event e1[] = {MPI(200, 250, 2), MPI(500, 550, 1)};
    static const ms_wx_msg m1[] = {SEND(0, 1, 200, 0, 0), SEND(0, 0, 500, 1, 0)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1)};
    r[0].app_end = 1000;
    r[0].app_ns = 1000;
    r[1].app_end = 700;
    r[1].app_ns = 700;
    ms_waits w;
    compute(r, N(r), &w);
    cr_assert_eq(w.ninst, 2);
    expect_inst(&w, 0, 0, 0, MS_WX_LATE_SENDER, 1, 100, 500);
    expect_inst(&w, 1, 0, 1, MS_WX_LATE_SENDER, 1, 50, 200);
    cr_expect_eq(inst_at(&w, 0).thread, 0);
    cr_expect_eq(inst_at(&w, 1).thread, 1);
    cr_expect_eq(w.path_ns, 1000);
    expect_path_rank(&w, 0, 0, 400, 100);
    expect_path_rank(&w, 1, 1, 450, 50);
    static const seg_want segs[] = {
        {1, C, 0, 200, 0}, {1, 2, 200, 250, 1}, {1, C, 250, 500, 0}, {0, 0, 500, 600, 1}, {0, C, 600, 1000, 0},
    };
    expect_segs(&w, segs, N(segs));
    ms_waits_free(&w);
}

Test(waits, critical_path_events_without_region)
{
    /* Events whose region is not known (MS_WX_NONE, as the reduction
     * gives for a name it cannot find): their time on the path counts as
     * (compute), the region index MS_WX_NONE stands for. */
    static const ms_wx_event e0[] = {MPI(100, 600, MS_WX_NONE)};
    static const ms_wx_msg m0[] = {RECV(1, 0, 100, 0)};
    static const ms_wx_event e1[] = {USER(100, 300, MS_WX_NONE), MPI(500, 550, 1)};
    static const ms_wx_msg m1[] = {SEND(0, 0, 500, 1, 0)};
    ms_wx_rank r[] = {P2P_RANK(0, e0, m0), P2P_RANK(1, e1, m1)};
    r[0].app_end = 1000;
    r[0].app_ns = 1000;
    ms_waits w;
    compute(r, N(r), &w);
    cr_assert_eq(w.ninst, 1);
    expect_inst(&w, 0, 0, 0, MS_WX_LATE_SENDER, 1, 100, 500);
    cr_assert_eq(w.nrows, 1);
    expect_row(&w, 0, MS_WX_LATE_SENDER, 0, MS_WX_NONE, 1, 400, 1);
    cr_assert_eq(w.has_path, 1);
    cr_expect_eq(w.path_ns, 1000);
    expect_path_rank(&w, 0, 0, 400, 100);
    expect_path_rank(&w, 1, 1, 500, 0);
    cr_assert_eq(w.npath_regions, 1);
    expect_path_region(&w, 0, MS_WX_COMPUTE, 1000);
    static const seg_want segs[] = {{1, C, 0, 100, 0},           {1, MS_WX_NONE, 100, 300, 0}, {1, C, 300, 500, 0},
                                    {0, MS_WX_NONE, 500, 600, 1}, {0, C, 600, 1000, 0}};
    expect_segs(&w, segs, N(segs));
    ms_waits_free(&w);
}

#undef C

/* ---- through real logs ---- */

UNIT_TMPDIR_FIXTURE();

#define INIT "mpi:init kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=0"
#define FIN "mpi:finalize kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=0"
#define SEND7 "mpi:send kind=point-to-point bytes=8 peer=0 root=-1 tag=7 comm=0"
#define RECV7 "mpi:recv kind=point-to-point bytes=8 peer=1 root=-1 tag=7 comm=0"
#define SEND1 "mpi:send kind=point-to-point bytes=8 peer=0 root=-1 tag=1 comm=0"
#define SEND2 "mpi:send kind=point-to-point bytes=8 peer=0 root=-1 tag=2 comm=0"
#define IRECV1 "mpi:irecv kind=point-to-point bytes=8 peer=1 root=-1 tag=1 comm=0"
#define IRECV2 "mpi:irecv kind=point-to-point bytes=8 peer=1 root=-1 tag=2 comm=0"
#define WAITALL "mpi:waitall kind=wait bytes=16 peer=-1 root=-1 tag=-1 comm=0 request=mixed"

/* A rank's log whose tool clock is clock_shift ns behind the common
 * clock (its header's real time is shifted by that much). */
static void open_shifted(synth *s, int rank, int64_t clock_shift)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
    ms_file_header h;
    synth_header(&h, rank, 2);
    h.realtime_ref_ns = SYNTH_REALTIME_REF + clock_shift;
    cr_assert_eq(synth_open_with(s, path, &h, "node0"), 0);
}

static void open_rank(synth *s, int rank)
{
    open_shifted(s, rank, 0);
}

/* Rank 1: init, its sends of tag 7 (nsends of them, 1000 ns apart from
 * send_at), finalize at 9000; all on a tool clock clock_shift behind. */
static void write_sender_shifted(int nsends, uint64_t send_at, int64_t clock_shift)
{
    synth s;
    open_shifted(&s, 1, clock_shift);
    synth_region(&s, 0, 0, INIT);
    synth_region(&s, 0, 1, SEND7);
    synth_region(&s, 0, 2, FIN);
    synth_event(&s, 0, 0, 1000, 2000);
    for (int i = 0; i < nsends; i++)
        synth_event(&s, 0, 1, send_at + 1000u * (uint64_t)i, send_at + 1000u * (uint64_t)i + 100);
    synth_event(&s, 0, 2, 9000, 9200);
    cr_assert_eq(synth_close(&s, 9000), 0);
}

static void write_sender(int nsends, uint64_t send_at)
{
    write_sender_shifted(nsends, send_at, 0);
}

static const ms_wx_row *find_row(const ms_run *run, int pattern, int32_t rank, const char *region)
{
    const ms_waits *w = run->waits;
    for (size_t i = 0; i < w->nrows; i++)
        if (w->rows[i].pattern == pattern && w->rows[i].rank == rank &&
            strcmp(ms_run_wait_region(run, w->rows[i].region), region) == 0)
            return &w->rows[i];
    return NULL;
}

TestSuite(waits_logs, .init = setup, .fini = teardown);

Test(waits_logs, late_sender_from_names)
{
    /* Rank 0 receives from 3000 to 8000; rank 1 sends at 6000. */
    synth s;
    open_rank(&s, 0);
    synth_region(&s, 0, 0, INIT);
    synth_region(&s, 0, 1, RECV7);
    synth_region(&s, 0, 2, FIN);
    synth_event(&s, 0, 0, 1000, 2000);
    synth_event(&s, 0, 1, 3000, 8000);
    synth_event(&s, 0, 2, 10000, 10500);
    cr_assert_eq(synth_close(&s, 10000), 0);
    write_sender(1, 6000);

    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_assert_not_null(run->waits);
    const ms_waits *w = run->waits;
    cr_expect_eq(run->wait_ranks, 2);
    cr_expect_eq(run->wait_ranks_old, 0);
    cr_expect_eq(w->messages, 1);
    cr_expect_eq(w->unmatched_sends, 0);
    cr_expect_eq(w->unmatched_recvs, 0);
    cr_expect_eq(w->clock_violations, 0);
    cr_assert_eq(w->nrows, 1);
    cr_expect_eq(w->rows[0].pattern, MS_WX_LATE_SENDER);
    cr_expect_eq(w->rows[0].rank, 0);
    cr_expect_str_eq(ms_run_wait_region(run, w->rows[0].region), RECV7);
    cr_expect_eq(w->rows[0].instances, 1);
    cr_expect_eq(w->rows[0].wait_ns, 3000);
    cr_expect_eq(w->rows[0].cause_rank, 1);
    cr_assert_eq(w->ninst, 1);
    cr_expect_eq(inst_at(w, 0).to - inst_at(w, 0).from, 3000);
    cr_expect_eq(w->wait_ns, 3000);
    cr_expect_eq(w->pattern_ns[MS_WX_LATE_SENDER], 3000);

    /* Backward from rank 0's MPI_Finalize (10000): compute 8000..10000,
     * the receive after the wait (6000..8000), rank 1 from MPI_Init's end
     * (2000) to its send (6000). */
    cr_assert_eq(w->has_path, 1);
    cr_expect_eq(w->path_ns, 8000);
    cr_assert_eq(w->npath_ranks, 2);
    expect_path_rank(w, 0, 0, 2000, 2000);
    expect_path_rank(w, 1, 1, 4000, 0);
    cr_assert_eq(w->npath_regions, 2);
    cr_expect_eq(w->path_regions[0].region, MS_WX_COMPUTE);
    cr_expect_eq(w->path_regions[0].on_path_ns, 6000);
    cr_expect_str_eq(ms_run_wait_region(run, w->path_regions[1].region), RECV7);
    cr_expect_eq(w->path_regions[1].on_path_ns, 2000);
    /* Busy: (8000 + 7000 - 3000) / 2 = 6000. */
    cr_expect_eq(w->imbalance_ns, 2000);
    ms_run_free(run);
}

Test(waits_logs, late_sender_on_the_common_clock)
{
    /* Rank 1's tool clock reads 500 ns behind: its send at 5500 is at
     * 6000 on the common clock, rank 0's receive 3000..8000 waits 3000. */
    synth s;
    open_rank(&s, 0);
    synth_region(&s, 0, 0, INIT);
    synth_region(&s, 0, 1, RECV7);
    synth_region(&s, 0, 2, FIN);
    synth_event(&s, 0, 0, 1000, 2000);
    synth_event(&s, 0, 1, 3000, 8000);
    synth_event(&s, 0, 2, 10000, 10500);
    cr_assert_eq(synth_close(&s, 10000), 0);
    write_sender_shifted(1, 5500, 500);

    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_assert_not_null(run->waits);
    const ms_waits *w = run->waits;
    cr_expect_eq(w->messages, 1);
    cr_assert_eq(w->nrows, 1);
    const ms_wx_row *r = find_row(run, MS_WX_LATE_SENDER, 0, RECV7);
    cr_assert_not_null(r);
    cr_expect_eq(r->wait_ns, 3000);
    cr_expect_eq(r->cause_rank, 1);
    cr_expect_eq(w->clock_violations, 0);
    ms_run_free(run);
}

Test(waits_logs, truncated_receiver_leaves_sends_unmatched)
{
    /* Rank 1 sends three messages (3000, 4000, 5000); rank 0's log, cut
     * short, has the first receive (2500..3500) only. */
    synth s;
    open_rank(&s, 0);
    synth_region(&s, 0, 0, INIT);
    synth_region(&s, 0, 1, RECV7);
    synth_event(&s, 0, 0, 1000, 2000);
    synth_event(&s, 0, 1, 2500, 3500);
    cr_assert_eq(synth_close(&s, SYNTH_NO_END), 0);
    write_sender(3, 3000);

    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_assert_not_null(run->waits);
    const ms_waits *w = run->waits;
    cr_expect_eq(run->wait_ranks, 2);
    cr_expect_eq(w->messages, 1);
    cr_expect_eq(w->unmatched_sends, 2);
    cr_expect_eq(w->unmatched_recvs, 0);
    cr_assert_eq(w->nrows, 1);
    const ms_wx_row *r = find_row(run, MS_WX_LATE_SENDER, 0, RECV7);
    cr_assert_not_null(r);
    cr_expect_eq(r->instances, 1);
    cr_expect_eq(r->wait_ns, 500);
    cr_expect_eq(r->cause_rank, 1);
    ms_run_free(run);
}

/* The calls.tbl op id of an op name. */
static uint32_t op_id(const char *name)
{
    uint32_t id = synth_op(name);
    cr_assert_neq(id, 0, "no op %s", name);
    return id;
}

Test(waits_logs, waitall_from_message_records)
{
    /* Rank 0 posts irecvs of tags 1 and 2 (3000, 3020) and waits for both
     * in a Waitall (3100..7000); the message records say which. Rank 1
     * sends tag 1 at 4000 and tag 2 at 6000: one wait, until 6000. */
    synth s;
    open_rank(&s, 0);
    synth_region(&s, 0, 0, INIT);
    synth_region(&s, 0, 1, IRECV1);
    synth_region(&s, 0, 2, IRECV2);
    synth_region(&s, 0, 3, WAITALL);
    synth_region(&s, 0, 4, FIN);
    synth_event(&s, 0, 0, 1000, 2000);
    synth_event(&s, 0, 1, 3000, 3010);
    synth_event(&s, 0, 2, 3020, 3030);
    uint32_t irecv = op_id("irecv");
    synth_message(&s, 0, irecv, MS_MESSAGE_RECV, 0, 1, 1, 8, 3000);
    synth_message(&s, 0, irecv, MS_MESSAGE_RECV, 0, 1, 2, 8, 3020);
    synth_event(&s, 0, 3, 3100, 7000);
    synth_event(&s, 0, 4, 8000, 8100);
    cr_assert_eq(synth_close(&s, 8000), 0);

    open_rank(&s, 1);
    synth_region(&s, 0, 0, INIT);
    synth_region(&s, 0, 1, SEND1);
    synth_region(&s, 0, 2, SEND2);
    synth_region(&s, 0, 3, FIN);
    synth_event(&s, 0, 0, 1000, 2000);
    synth_event(&s, 0, 1, 4000, 4010);
    synth_event(&s, 0, 2, 6000, 6010);
    synth_event(&s, 0, 3, 7500, 7600);
    cr_assert_eq(synth_close(&s, 7500), 0);

    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_assert_not_null(run->waits);
    const ms_waits *w = run->waits;
    cr_expect_eq(run->wait_ranks_old, 0);
    cr_expect_eq(w->messages, 2);
    cr_expect_eq(w->unmatched_sends, 0);
    cr_expect_eq(w->unmatched_recvs, 0);
    cr_assert_eq(w->nrows, 1);
    cr_expect_eq(w->rows[0].pattern, MS_WX_LATE_SENDER);
    cr_expect_eq(w->rows[0].rank, 0);
    cr_expect_str_eq(ms_run_wait_region(run, w->rows[0].region), WAITALL);
    cr_expect_eq(w->rows[0].instances, 1);
    cr_expect_eq(w->rows[0].wait_ns, 2900);
    cr_expect_eq(w->rows[0].cause_rank, 1);
    ms_run_free(run);
}
