/* The critical path over the threads of a rank (analysis/waits/
 * critical_path.c) on facts built here: times in ns, so every expectation
 * is exact. On a rank the walk follows the thread whose call it is in; a
 * waiting call's cause, on the thread that made the cause's call. */
#include <criterion/criterion.h>

#include "../../analysis/waits/waits.h"
#include "wx_rank.h"

#define N(a) (sizeof(a) / sizeof *(a))
#define MPI(s, e, reg, th) {.start = (s), .end = (e), .region = (reg), .thread = (th), .kind = MS_WX_MPI, .charge = 1}
#define USER(s, e, reg, th) {.start = (s), .end = (e), .region = (reg), .thread = (th), .kind = MS_WX_USER}
#define SEND(to, tg, at, e) {.comm = 0, .tag = (tg), .entry = (at), .other = (to), .ev = (e), .is_send = 1}
#define RECV(from, tg, at, e) {.comm = 0, .tag = (tg), .entry = (at), .other = (from), .ev = (e), .is_send = 0}
#define C MS_WX_COMPUTE

enum { R_RECV = 0, R_QUICK = 1, R_SEND = 2, R_USER = 3, R_RECV_T1 = 4 };

/* Rank 0 receives from rank 1 (100..600) and computes to 1000, the last
 * into MPI_Finalize. */
static const ms_wx_event ev0[] = {MPI(100, 600, R_RECV, 0)};
static const ms_wx_msg m0[] = {RECV(1, 0, 100, 0)};

static void run(const ms_wx_event *ev1, size_t nev1, const ms_wx_msg *m1, size_t nm1, ms_waits *w)
{
    ms_wx_rank r[] = {mk_rank(0, ev0, N(ev0), m0, N(m0), NULL, 0), mk_rank(1, ev1, nev1, m1, nm1, NULL, 0)};
    r[0].app_end = 1000;
    r[0].app_ns = 1000;
    cr_assert_eq(ms_waits_compute(r, N(r), w), 0);
    cr_assert(w->has_path);
}

typedef struct seg_want {
    int32_t rank;
    uint16_t thread;
    uint32_t region;
    int64_t from, to;
    int is_mpi;
} seg_want;

static void expect_segs(const ms_waits *w, const seg_want *want, size_t n)
{
    cr_assert_eq(w->npath_segs, n, "%zu path segments", w->npath_segs);
    for (size_t i = 0; i < n; i++) {
        const ms_wx_path_seg *g = &w->path_segs[i];
        cr_expect(g->rank == want[i].rank && g->thread == want[i].thread && g->region == want[i].region &&
                      g->from == want[i].from && g->to == want[i].to && g->is_mpi == want[i].is_mpi,
                  "segment %zu: got rank %d thread %u region %u [%ld, %ld) mpi %d", i, g->rank, g->thread,
                  g->region, (long)g->from, (long)g->to, g->is_mpi);
    }
}

static void expect_thread(const ms_waits *w, size_t i, int32_t rank, uint32_t thread, uint64_t compute_ns,
                          uint64_t mpi_ns)
{
    cr_assert_lt(i, w->npath_threads);
    const ms_wx_path_thread *t = &w->path_threads[i];
    cr_expect(t->rank == rank && t->thread == thread && t->compute_ns == compute_ns && t->mpi_ns == mpi_ns,
              "thread row %zu: rank %d thread %u compute %lu mpi %lu", i, t->rank, t->thread,
              (unsigned long)t->compute_ns, (unsigned long)t->mpi_ns);
}

TestSuite(path_threads);

/* Rank 1's second thread computes (a user region 200..400 in it), then
 * sends at 500; its first thread only makes a quick call (50..60) and one
 * after (700..710). Backward from 1000 on rank 0: compute 600..1000, the
 * receive after its wait (500..600), then rank 1's second thread before
 * its send: 0..500, its user region's 200 ns to that region. Rank 1's
 * first thread is not on the path. */
Test(path_threads, wait_continues_on_the_sending_thread)
{
    static const ms_wx_event ev1[] = {MPI(50, 60, R_QUICK, 0), USER(200, 400, R_USER, 1), MPI(500, 520, R_SEND, 1),
                                      MPI(700, 710, R_QUICK, 0)};
    static const ms_wx_msg m1[] = {SEND(0, 0, 500, 2)};
    ms_waits w;
    run(ev1, N(ev1), m1, N(m1), &w);
    ms_wx_instance x;
    cr_assert_eq(w.ninst, 1);
    cr_assert_eq(ms_waits_inst_read(&w, 0, 1, &x), 0);
    cr_expect(x.rank == 0 && x.cause == 1 && x.cause_thread == 1 && x.from == 100 && x.to == 500);
    cr_expect_eq(w.path_ns, 1000);
    cr_assert_eq(w.npath_ranks, 2);
    cr_expect(w.path_ranks[0].compute_ns == 400 && w.path_ranks[0].mpi_ns == 100);
    cr_expect(w.path_ranks[1].compute_ns == 500 && w.path_ranks[1].mpi_ns == 0);
    /* Rank 0 runs on its first thread only: no rows; rank 1 on its second. */
    cr_assert_eq(w.npath_threads, 1);
    expect_thread(&w, 0, 1, 1, 500, 0);
    static const seg_want segs[] = {
        {1, 1, C, 0, 200, 0},      {1, 1, R_USER, 200, 400, 0}, {1, 1, C, 400, 500, 0},
        {0, 0, R_RECV, 500, 600, 1}, {0, 0, C, 600, 1000, 0},
    };
    expect_segs(&w, segs, N(segs));
    cr_assert_eq(w.npath_regions, 3);
    cr_expect(w.path_regions[0].region == C && w.path_regions[0].on_path_ns == 700);
    cr_expect(w.path_regions[1].region == R_USER && w.path_regions[1].on_path_ns == 200);
    cr_expect(w.path_regions[2].region == R_RECV && w.path_regions[2].on_path_ns == 100);
    ms_waits_free(&w);
}

/* As above, but rank 1's second thread first receives (100..300) a message
 * its first thread sends at 250 (250..260): the path goes from the second
 * thread's receive, after its wait (250..300), to the first thread before
 * that send: compute 60..250, its quick call 50..60, compute 0..50. The
 * second thread: compute 300..500 (its user region 300..400). */
Test(path_threads, wait_on_another_thread_of_the_rank)
{
    static const ms_wx_event ev1[] = {MPI(50, 60, R_QUICK, 0),        MPI(100, 300, R_RECV_T1, 1),
                                      MPI(250, 260, R_SEND, 0),        USER(300, 400, R_USER, 1),
                                      MPI(500, 520, R_SEND, 1)};
    static const ms_wx_msg m1[] = {RECV(1, 1, 100, 1), SEND(1, 1, 250, 2), SEND(0, 0, 500, 4)};
    ms_waits w;
    run(ev1, N(ev1), m1, N(m1), &w);
    cr_expect_eq(w.path_ns, 1000);
    cr_expect(w.path_ranks[1].compute_ns == 440 && w.path_ranks[1].mpi_ns == 60);
    cr_assert_eq(w.npath_threads, 2);
    expect_thread(&w, 0, 1, 0, 240, 10);
    expect_thread(&w, 1, 1, 1, 200, 50);
    static const seg_want segs[] = {
        {1, 0, C, 0, 50, 0},         {1, 0, R_QUICK, 50, 60, 1},  {1, 0, C, 60, 250, 0},
        {1, 1, R_RECV_T1, 250, 300, 1}, {1, 1, R_USER, 300, 400, 0}, {1, 1, C, 400, 500, 0},
        {0, 0, R_RECV, 500, 600, 1},  {0, 0, C, 600, 1000, 0},
    };
    expect_segs(&w, segs, N(segs));
    ms_waits_free(&w);
}

/* One thread per rank: no rows per thread, and the path as before. */
Test(path_threads, one_thread_has_no_rows)
{
    static const ms_wx_event ev1[] = {MPI(50, 60, R_QUICK, 0), MPI(500, 520, R_SEND, 0)};
    static const ms_wx_msg m1[] = {SEND(0, 0, 500, 1)};
    ms_waits w;
    run(ev1, N(ev1), m1, N(m1), &w);
    cr_expect_eq(w.npath_threads, 0);
    cr_expect(w.path_ranks[1].compute_ns == 490 && w.path_ranks[1].mpi_ns == 10);
    ms_waits_free(&w);
}
