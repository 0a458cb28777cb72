/* Polling counts as waiting (analysis/reduce/wait_facts.h): poll runs of
 * test-family calls and probes in synthesized logs, reduced; times in ns,
 * so every expectation is exact. Rank 1 sends tag 7 to rank 0 once; rank
 * 0 polls for it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/reduce.h"
#include "../../analysis/reduce/run.h"
#include "../../analysis/reduce/run_waits.h"
#include "../../analysis/reduce/wait_facts.h"
#include "../../analysis/waits/waits.h"
#include "synth.h"
#include "unit_util.h"

UNIT_TMPDIR_FIXTURE();

#define INIT "mpi:init kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=0"
#define FIN "mpi:finalize kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=0"
#define SEND7 "mpi:send kind=point-to-point bytes=8 peer=0 root=-1 tag=7 comm=0"
#define RECV7 "mpi:recv kind=point-to-point bytes=8 peer=1 root=-1 tag=7 comm=0"
#define IRECV7 "mpi:irecv kind=point-to-point bytes=-1 peer=1 root=-1 tag=7 comm=0"
/* A test that completed nothing names no request; the completing one does. */
#define POLL "mpi:test kind=wait bytes=-1 peer=-1 root=-1 tag=-1 comm=-1"
#define DONE "mpi:test kind=wait bytes=8 peer=1 root=-1 tag=7 comm=0 request=irecv"
#define PROBE "mpi:iprobe kind=point-to-point bytes=-1 peer=1 root=-1 tag=7 comm=0"
#define FOUND "mpi:iprobe kind=point-to-point bytes=8 peer=1 root=-1 tag=7 comm=0"
#define WAIT7 "mpi:wait kind=wait bytes=8 peer=1 root=-1 tag=7 comm=0 request=irecv"

/* Region ids of rank 0's thread 0. */
enum { R_INIT = 1, R_IRECV, R_POLL_A, R_DONE_A, R_POLL_B, R_PROBE, R_FOUND, R_RECV, R_WAIT, R_FIN };

#define GAP ((uint64_t)MS_WX_POLL_GAP_NS)
#define POLL_NS 10u    /* each poll's duration */

static void open_rank(synth *s, int rank)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
    cr_assert_eq(synth_open(s, path, rank, 2), 0);
}

static void put_site(synth *s, uint32_t id, uint64_t pc)
{
    s->len[0] = (size_t)(ms_rec_site(s->buf[0] + s->len[0], id, &pc, 1) - s->buf[0]);
}

/* Rank 1: init, one send of tag 7 at send_at, finalize after end. */
static void write_sender(uint64_t send_at, uint64_t end)
{
    synth s;
    open_rank(&s, 1);
    synth_region(&s, 0, 0, INIT);
    synth_region(&s, 0, 1, SEND7);
    synth_region(&s, 0, 2, FIN);
    synth_event(&s, 0, 0, 1000, 2000);
    synth_event(&s, 0, 1, send_at, send_at + 100);
    synth_event(&s, 0, 2, end, end + 200);
    cr_assert_eq(synth_close(&s, end), 0);
}

/* Rank 0's regions: polls at call site A (POLL, DONE), a poll at call
 * site B, probes at site P; then init. */
static void receiver_start(synth *s)
{
    open_rank(s, 0);
    synth_region(s, 0, R_INIT, INIT);
    synth_region(s, 0, R_IRECV, IRECV7);
    synth_region(s, 0, R_POLL_A, POLL);
    put_site(s, R_POLL_A, 0x401000);
    synth_region(s, 0, R_DONE_A, DONE);
    put_site(s, R_DONE_A, 0x401000);
    synth_region(s, 0, R_POLL_B, POLL);
    put_site(s, R_POLL_B, 0x402000);
    synth_region(s, 0, R_PROBE, PROBE);
    put_site(s, R_PROBE, 0x403000);
    synth_region(s, 0, R_FOUND, FOUND);
    put_site(s, R_FOUND, 0x403000);
    synth_region(s, 0, R_RECV, RECV7);
    synth_region(s, 0, R_WAIT, WAIT7);
    synth_region(s, 0, R_FIN, FIN);
    synth_event(s, 0, R_INIT, 1000, 2000);
}

/* Polls at site A from `from` (one every `every` ns) while they start
 * before `to`. */
static void polls(synth *s, uint32_t id, uint64_t from, uint64_t to, uint64_t every)
{
    for (uint64_t t = from; t < to; t += every)
        synth_event(s, 0, id, t, t + POLL_NS);
}

/* The test at site A that completes the irecv posted at `post`. */
static void completing_test(synth *s, uint64_t at, uint64_t post)
{
    synth_message(s, 0, synth_op("irecv"), MS_MESSAGE_RECV, 0, 1, 7, 8, post);
    synth_event(s, 0, R_DONE_A, at, at + POLL_NS);
}

static void receiver_end(synth *s, uint64_t fin)
{
    synth_event(s, 0, R_FIN, fin, fin + 500);
    cr_assert_eq(synth_close(s, fin), 0);
}

static ms_run *reduce_run(void)
{
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_assert_not_null(run->waits);
    cr_expect_eq(run->waits->messages, 1);
    return run;
}

/* A time of the synthesized logs' tool clock on the common clock. */
#define AT(t) ((int64_t)SYNTH_REALTIME_REF - (int64_t)SYNTH_CLOCK_REF + (int64_t)(t))

/* The run's only waiting call: rank 0, late sender, from..to (tool clock),
 * in region. */
static void expect_one_wait(const ms_run *run, const char *region, int64_t from, int64_t to)
{
    const ms_waits *w = run->waits;
    cr_assert_eq(w->ninst, 1, "%zu waiting calls", w->ninst);
    ms_wx_instance x;
    cr_assert_eq(ms_waits_inst_read(w, 0, 1, &x), 0);
    cr_expect_eq(x.rank, 0);
    cr_expect_eq(x.pattern, MS_WX_LATE_SENDER);
    cr_expect_eq(x.cause, 1);
    cr_expect_eq(x.from, AT(from), "from %ld, not %ld", (long)(x.from - AT(0)), (long)from);
    cr_expect_eq(x.to, AT(to), "to %ld, not %ld", (long)(x.to - AT(0)), (long)to);
    cr_assert_eq(w->nrows, 1);
    cr_expect_eq(w->rows[0].instances, 1);
    cr_expect_eq(w->rows[0].wait_ns, (uint64_t)(to - from));
    cr_expect_str_eq(ms_run_wait_region(run, w->rows[0].region), region);
}

TestSuite(poll_runs, .init = setup, .fini = teardown);

Test(poll_runs, test_loop_waits_from_its_first_poll)
{
    /* Irecv at 3000; polls from 3100, 100 ns apart, until the one at 8000
     * completes it; rank 1 sends at 6000: one wait, 3100 to 6000, in the
     * completing test's region. */
    synth s;
    receiver_start(&s);
    synth_event(&s, 0, R_IRECV, 3000, 3010);
    polls(&s, R_POLL_A, 3100, 8000, 100);
    completing_test(&s, 8000, 3000);
    receiver_end(&s, 10000);
    write_sender(6000, 9000);

    ms_run *run = reduce_run();
    expect_one_wait(run, DONE, 3100, 6000);
    const ms_waits *w = run->waits;
    cr_expect_eq(w->wait_ns, 2900);
    /* The critical path, backward from rank 0's MPI_Finalize (10000):
     * compute 8010..10000, the completing test after the wait
     * (6000..8010), then rank 1 from MPI_Init's end (2000) to its send
     * (6000). Rank 0's polls before it are not on it. */
    cr_assert_eq(w->has_path, 1);
    cr_assert_eq(w->npath_ranks, 2);
    cr_expect_eq(w->path_ranks[0].compute_ns, 1990);
    cr_expect_eq(w->path_ranks[0].mpi_ns, 2010);
    cr_expect_eq(w->path_ranks[1].compute_ns, 4000);
    cr_expect_eq(w->path_ranks[1].mpi_ns, 0);
    cr_expect_eq(w->path_ns, 1990 + 2010 + 4000);
    ms_run_free(run);
}

Test(poll_runs, completing_first_poll_is_a_run_of_one)
{
    /* The first poll (7000..7010) completes the message rank 1 sent at
     * 7005: it waited 5 ns, as a blocking receive would. */
    synth s;
    receiver_start(&s);
    synth_event(&s, 0, R_IRECV, 3000, 3010);
    completing_test(&s, 7000, 3000);
    receiver_end(&s, 10000);
    write_sender(7005, 9000);

    ms_run *run = reduce_run();
    expect_one_wait(run, DONE, 7000, 7005);
    ms_run_free(run);
}

Test(poll_runs, gap_beyond_the_bound_starts_a_new_run)
{
    /* A poll at 3100, then one more than the bound after it ended, and
     * polls from there (100 ns apart) until the send: the wait starts at
     * the poll after the gap. */
    uint64_t second = 3100 + POLL_NS + GAP + 1, send = second + 2000;
    synth s;
    receiver_start(&s);
    synth_event(&s, 0, R_IRECV, 3000, 3010);
    synth_event(&s, 0, R_POLL_A, 3100, 3100 + POLL_NS);
    polls(&s, R_POLL_A, second, send + 1000, 100);
    completing_test(&s, send + 1000, 3000);
    receiver_end(&s, send + 5000);
    write_sender(send, send + 4000);

    ms_run *run = reduce_run();
    expect_one_wait(run, DONE, (int64_t)second, (int64_t)send);
    ms_run_free(run);
}

Test(poll_runs, gap_of_the_bound_keeps_the_run)
{
    /* The same with a gap of exactly the bound: one run from 3100. */
    uint64_t second = 3100 + POLL_NS + GAP, send = second + 2000;
    synth s;
    receiver_start(&s);
    synth_event(&s, 0, R_IRECV, 3000, 3010);
    synth_event(&s, 0, R_POLL_A, 3100, 3100 + POLL_NS);
    polls(&s, R_POLL_A, second, send + 1000, 100);
    completing_test(&s, send + 1000, 3000);
    receiver_end(&s, send + 5000);
    write_sender(send, send + 4000);

    ms_run *run = reduce_run();
    expect_one_wait(run, DONE, 3100, (int64_t)send);
    ms_run_free(run);
}

Test(poll_runs, poll_at_another_site_does_not_join)
{
    /* Polls at site A from 3100, one at site B (5000), polls at site A
     * again from 5100 until 8000: the run that completes starts at 5100. */
    synth s;
    receiver_start(&s);
    synth_event(&s, 0, R_IRECV, 3000, 3010);
    polls(&s, R_POLL_A, 3100, 5000, 100);
    synth_event(&s, 0, R_POLL_B, 5000, 5000 + POLL_NS);
    polls(&s, R_POLL_A, 5100, 8000, 100);
    completing_test(&s, 8000, 3000);
    receiver_end(&s, 10000);
    write_sender(6000, 9000);

    ms_run *run = reduce_run();
    expect_one_wait(run, DONE, 5100, 6000);
    ms_run_free(run);
}

Test(poll_runs, other_call_ends_the_run)
{
    /* Polls from 3100, another irecv (of no message) at 5000, polls again
     * from 5100: the run that completes starts at 5100. */
    synth s;
    receiver_start(&s);
    synth_event(&s, 0, R_IRECV, 3000, 3010);
    polls(&s, R_POLL_A, 3100, 5000, 100);
    synth_event(&s, 0, R_IRECV, 5000, 5000 + POLL_NS);
    polls(&s, R_POLL_A, 5100, 8000, 100);
    completing_test(&s, 8000, 3000);
    receiver_end(&s, 10000);
    write_sender(6000, 9000);

    ms_run *run = reduce_run();
    expect_one_wait(run, DONE, 5100, 6000);
    ms_run_free(run);
}

Test(poll_runs, probe_loop_then_recv_waits_from_the_first_probe)
{
    /* Iprobes from 3000 (100 ns apart); the one at 6100 finds the message
     * rank 1 sent at 6000; MPI_Recv takes it at 6120: it waited from the
     * first probe, 3000 to 6000. */
    synth s;
    receiver_start(&s);
    polls(&s, R_PROBE, 3000, 6100, 100);
    synth_event(&s, 0, R_FOUND, 6100, 6100 + POLL_NS);
    synth_event(&s, 0, R_RECV, 6120, 6200);
    receiver_end(&s, 10000);
    write_sender(6000, 9000);

    ms_run *run = reduce_run();
    expect_one_wait(run, RECV7, 3000, 6000);
    ms_run_free(run);
}

Test(poll_runs, probe_loop_then_irecv_and_wait_waits_from_the_first_probe)
{
    /* The same with MPI_Irecv at 6120 and MPI_Wait at 6130 completing it:
     * the wait waited from the first probe, 3000 to 6000. */
    synth s;
    receiver_start(&s);
    polls(&s, R_PROBE, 3000, 6100, 100);
    synth_event(&s, 0, R_FOUND, 6100, 6100 + POLL_NS);
    synth_event(&s, 0, R_IRECV, 6120, 6125);
    synth_message(&s, 0, synth_op("irecv"), MS_MESSAGE_RECV, 0, 1, 7, 8, 6120);
    synth_event(&s, 0, R_WAIT, 6130, 6200);
    receiver_end(&s, 10000);
    write_sender(6000, 9000);

    ms_run *run = reduce_run();
    expect_one_wait(run, WAIT7, 3000, 6000);
    ms_run_free(run);
}

Test(poll_runs, polled_synchronous_send_waits_for_the_late_receiver)
{
    /* Rank 0 posts an Issend at 3000 and polls it from 3100 until the
     * test at 8000 completes it; rank 1's receive is posted at 6000: rank
     * 0 waited from its first poll, 3100 to 6000, late receiver. */
    synth s;
    receiver_start(&s);
    synth_region(&s, 0, 20, "mpi:issend kind=point-to-point bytes=8 peer=1 root=-1 tag=7 comm=0");
    synth_region(&s, 0, 21, "mpi:test kind=wait bytes=8 peer=1 root=-1 tag=7 comm=0 request=issend");
    put_site(&s, 21, 0x401000);
    synth_event(&s, 0, 20, 3000, 3010);
    polls(&s, R_POLL_A, 3100, 8000, 100);
    synth_message(&s, 0, synth_op("issend"), 0, 0, 1, 7, 8, 3000);
    synth_event(&s, 0, 21, 8000, 8000 + POLL_NS);
    receiver_end(&s, 10000);
    open_rank(&s, 1);
    synth_region(&s, 0, 0, INIT);
    synth_region(&s, 0, 1, "mpi:recv kind=point-to-point bytes=8 peer=0 root=-1 tag=7 comm=0");
    synth_region(&s, 0, 2, FIN);
    synth_event(&s, 0, 0, 1000, 2000);
    synth_event(&s, 0, 1, 6000, 6100);
    synth_event(&s, 0, 2, 9000, 9200);
    cr_assert_eq(synth_close(&s, 9000), 0);

    ms_run *run = reduce_run();
    const ms_waits *w = run->waits;
    cr_assert_eq(w->ninst, 1, "%zu waiting calls", w->ninst);
    ms_wx_instance x;
    cr_assert_eq(ms_waits_inst_read(w, 0, 1, &x), 0);
    cr_expect_eq(x.rank, 0);
    cr_expect_eq(x.pattern, MS_WX_LATE_RECEIVER);
    cr_expect_eq(x.cause, 1);
    cr_expect_eq(x.from, AT(3100));
    cr_expect_eq(x.to, AT(6000));
    ms_run_free(run);
}

Test(poll_runs, recv_long_after_the_probes_waits_alone)
{
    /* The same, but the receive comes more than the bound after the last
     * probe: it is a receive of its own, posted after the send, no wait. */
    uint64_t recv = 6110 + GAP + 1;
    synth s;
    receiver_start(&s);
    polls(&s, R_PROBE, 3000, 6100, 100);
    synth_event(&s, 0, R_FOUND, 6100, 6100 + POLL_NS);
    synth_event(&s, 0, R_RECV, recv, recv + 80);
    receiver_end(&s, recv + 1000);
    write_sender(6000, recv + 500);

    ms_run *run = reduce_run();
    cr_expect_eq(run->waits->ninst, 0);
    cr_expect_eq(run->waits->nrows, 0);
    ms_run_free(run);
}
