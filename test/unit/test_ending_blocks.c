/* Ending blocks (format version 9) through the reader and the reduction:
 * what a rank was inside as it ended, which block tells the end, and the
 * blocks the reader refuses. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../../analysis/reduce/reduce.h"
#include "../../analysis/reduce/run_end.h"
#include "synth.h"
#include "unit_util.h"

UNIT_TMPDIR_FIXTURE();

TestSuite(ending, .init = setup, .fini = teardown);

#define ALLREDUCE "mpi:allreduce kind=collective bytes=8 peer=-1 root=-1 tag=-1 comm=0"

static ms_ending_record in_call(uint32_t cause, const char *op, uint64_t since, int32_t peer)
{
    ms_ending_record e;
    memset(&e, 0, sizeof e);
    e.cause = cause;
    e.thread = 0;
    e.ticks = since + 500;
    e.call_since = since;
    e.call_comm = 0;
    e.call_op = synth_op(op);
    e.call_peer = peer;
    e.call_tag = peer >= 0 ? 5 : -1;
    e.call_root = -1;
    return e;
}

/* Rank `rank` of 2: 10 allreduces ending at 2000, then its ending blocks
 * (n of them) and its end record unless `finalize` is SYNTH_NO_END. */
static void write_rank(int rank, const ms_ending_record *e, size_t n, uint64_t finalize, uint32_t version)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
    synth s;
    ms_file_header h;
    synth_header(&h, rank, 2);
    h.version = version;
    cr_assert_eq(synth_open_with(&s, path, &h, "node0"), 0);
    synth_region(&s, 0, 0, ALLREDUCE);
    for (uint64_t i = 0; i < 10; i++)
        synth_event(&s, 0, 0, 1010 + 100 * i, 1100 + 100 * i);
    cr_assert_eq(synth_flush(&s, 0), 0);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(ms_log_write_block(&s.log, MS_BLOCK_ENDING, 0, &e[i], sizeof e[i]), 0);
    cr_assert_eq(synth_close(&s, finalize), 0);
}

Test(ending, a_blocked_rank_and_an_aborted_one)
{
    ms_ending_record blocked = in_call(MS_ENDING_BLOCKED, "barrier", 3000, -1);
    write_rank(0, &blocked, 1, SYNTH_NO_END, MS_FORMAT_VERSION);
    ms_ending_record ab = in_call(MS_ENDING_ABORT, "abort", 2500, -1);
    ab.code = 3;
    write_rank(1, &ab, 1, 0, MS_FORMAT_VERSION);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    const ms_rank_ending *e0 = &run->ranks[0].ending, *e1 = &run->ranks[1].ending;
    cr_expect_eq(e0->cause, MS_ENDING_BLOCKED);
    cr_expect_eq(e0->op, synth_op("barrier"));
    cr_expect_eq(e0->nmembers, 2, "the barrier's communicator is the world");
    cr_expect_eq(e0->last_op, synth_op("allreduce"));
    cr_expect_eq(e0->last_end_ns, 2000);
    cr_expect_eq(e1->cause, MS_ENDING_ABORT);
    cr_expect_eq(e1->code, 3);
    ms_run_end end;
    cr_assert_eq(ms_run_end_make(run, &end), 0);
    cr_expect_str_eq(ms_end_state_name(end.ranks[0].state), "unknown");
    cr_expect_str_eq(ms_end_state_name(end.ranks[1].state), "aborted");
    cr_expect(end.ranks[0].waiting);
    cr_assert_eq(end.nblocking, 1);
    cr_expect_eq(end.blocking[0], 1);
    ms_run_end_free(&end);
    ms_run_free(run);
}

Test(ending, a_call_that_completed_later_tells_nothing)
{
    /* Blocked in an allreduce from 1800, which ended at 2000: the rank went
     * on; the later signal block tells the end. */
    ms_ending_record e[2] = {in_call(MS_ENDING_BLOCKED, "allreduce", 1800, -1),
                             in_call(MS_ENDING_STUCK, "allreduce", 1900, -1)};
    write_rank(0, e, 2, SYNTH_NO_END, MS_FORMAT_VERSION);
    write_rank(1, NULL, 0, 0, MS_FORMAT_VERSION);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_expect_eq(run->ranks[0].ending.cause, 0);
    cr_expect_eq(run->ranks[0].ending.op, 0);
    ms_run_free(run);
}

Test(ending, the_receive_waits_for_its_source)
{
    ms_ending_record e = in_call(MS_ENDING_SIGNAL, "recv", 3000, 1);
    e.signal = 15;
    write_rank(0, &e, 1, SYNTH_NO_END, MS_FORMAT_VERSION);
    ms_ending_record f = in_call(MS_ENDING_STUCK, "recv", 3000, 0);
    write_rank(1, &f, 1, SYNTH_NO_END, MS_FORMAT_VERSION);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_expect_eq(run->ranks[0].ending.peer, 1);
    cr_expect_eq(run->ranks[0].ending.tag, 5);
    ms_run_end end;
    cr_assert_eq(ms_run_end_make(run, &end), 0);
    cr_assert_eq(end.ncycles, 1);
    cr_expect_eq(end.cycle_len[0], 2);
    ms_run_end_free(&end);
    ms_run_free(run);
}

static ms_read_status read_rank0(char *msg, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, 0);
    ms_reader *r = ms_reader_create();
    cr_assert_not_null(r);
    ms_read_result res;
    ms_read_status st = ms_reader_read(r, path, NULL, NULL, &res);
    snprintf(msg, cap, "%s", res.message);
    ms_reader_destroy(r);
    remove(path);
    return st;
}

Test(ending, bad_ending_blocks_are_corrupt)
{
    char msg[512];
    ms_ending_record good = in_call(MS_ENDING_STUCK, "recv", 3000, 1);
    write_rank(0, &good, 1, 0, MS_FORMAT_VERSION);
    cr_expect_eq(read_rank0(msg, sizeof msg), MS_READ_OK, "%s", msg);
    write_rank(0, &good, 1, 0, 8);
    cr_expect_eq(read_rank0(msg, sizeof msg), MS_READ_CORRUPT);
    cr_expect(strstr(msg, "malformed ending block") != NULL, "%s", msg);
    ms_ending_record bad[3] = {good, good, good};
    bad[0].cause = 9;
    bad[1].signal = 200;
    bad[2].call_since = UINT64_MAX;
    for (size_t i = 0; i < 3; i++) {
        write_rank(0, &bad[i], 1, 0, MS_FORMAT_VERSION);
        cr_expect_eq(read_rank0(msg, sizeof msg), MS_READ_CORRUPT, "case %zu", i);
        cr_expect(strstr(msg, "bad values in an ending block") != NULL, "case %zu: %s", i, msg);
    }
}
