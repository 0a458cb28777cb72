/* Ending blocks (format version 9; 10: with a completion call's requests)
 * through the reader and the reduction: what a rank was inside as it
 * ended, which block tells the end, the requests a wait names, and the
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

Test(ending, the_tools_own_event_after_a_blocked_call_does_not_end_it)
{
    /* A signal handler's flush (the tool's event) written, then SIGKILL
     * before its ending block: the call it interrupted still stands. */
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, 0);
    synth s;
    ms_file_header h;
    synth_header(&h, 0, 1);
    cr_assert_eq(synth_open_with(&s, path, &h, "node0"), 0);
    synth_region(&s, 0, 0, ALLREDUCE);
    synth_region(&s, 0, 1, "mpiscope:signal_flush");
    synth_event(&s, 0, 0, 1010, 1100);
    cr_assert_eq(synth_flush(&s, 0), 0);
    ms_ending_record e = in_call(MS_ENDING_BLOCKED, "barrier", 3000, -1);
    cr_assert_eq(ms_log_write_block(&s.log, MS_BLOCK_ENDING, 0, &e, sizeof e), 0);
    synth_event(&s, 0, 1, 9000, 9010);
    cr_assert_eq(synth_flush(&s, 0), 0);
    cr_assert_eq(synth_close(&s, SYNTH_NO_END), 0);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_expect_eq(run->ranks[0].ending.cause, MS_ENDING_BLOCKED);
    cr_expect_eq(run->ranks[0].ending.op, synth_op("barrier"));
    ms_run_free(run);
}

#define H_RECV 0xac000001u   /* MPICH-like handles */
#define H_SEND 0xac000002u
#define W_REQS 0x7ffc0000u   /* &req[0]; &req[1] 8 bytes on */

/* Rank `rank` of 2: its allreduces, then an MPI_Irecv from the other rank
 * (tag 5) and an MPI_Issend to it (tag 6) into req[0] and req[1], then
 * stuck in MPI_Waitall on both (version 10 blocks; `any`: MPI_Waitany). */
static void write_waiting_rank(int rank, int any)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
    synth s;
    ms_file_header h;
    synth_header(&h, rank, 2);
    cr_assert_eq(synth_open_with(&s, path, &h, "node0"), 0);
    synth_region(&s, 0, 0, ALLREDUCE);
    for (uint64_t i = 0; i < 10; i++)
        synth_event(&s, 0, 0, 1010 + 100 * i, 1100 + 100 * i);
    cr_assert_eq(synth_flush(&s, 0), 0);
    char irecv[128], issend[128];
    snprintf(irecv, sizeof irecv, "mpi:irecv kind=point-to-point bytes=-1 peer=%d root=-1 tag=5 comm=0", 1 - rank);
    snprintf(issend, sizeof issend, "mpi:issend kind=point-to-point bytes=4 peer=%d root=-1 tag=6 comm=0", 1 - rank);
    synth_recs r = {.where = 0};
    r.p = r.b;
    r.p = ms_rec_region(r.p, 1, irecv, strlen(irecv));
    r.p = ms_rec_region(r.p, 2, issend, strlen(issend));
    r.p = ms_rec_time(r.p, 2100);
    synth_req(&r, MS_REQ_NEW | 1u << MS_REQF_DIR_SHIFT, H_RECV, W_REQS);
    r.p = ms_rec_event(r.p, 1, 10, 5);
    synth_req(&r, MS_REQ_NEW, H_SEND, W_REQS + 8);
    r.p = ms_rec_event(r.p, 2, 10, 5);
    cr_assert_eq(synth_emit_block(&s, 0, r.b, (size_t)(r.p - r.b)), 0);
    ms_ending_record e = in_call(MS_ENDING_STUCK, any ? "waitany" : "waitall", 3000, -1);
    e.call_comm = -1;
    e.req_count = 3;
    e.req_stride = 8;
    e.req_at = W_REQS;
    e.reqs[0] = H_RECV;
    e.reqs[1] = H_SEND;
    e.reqs[2] = 0;   /* MPI_REQUEST_NULL */
    cr_assert_eq(ms_log_write_block(&s.log, MS_BLOCK_ENDING, 0, &e, sizeof e), 0);
    cr_assert_eq(synth_close(&s, SYNTH_NO_END), 0);
}

Test(ending, a_wait_names_its_requests_and_waits_for_their_peers)
{
    write_waiting_rank(0, 0);
    write_waiting_rank(1, 0);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    for (int r = 0; r < 2; r++) {
        const ms_rank_ending *e = &run->ranks[r].ending;
        cr_assert_eq(e->req_count, 3);
        cr_assert_eq(e->nreqs, 2, "rank %d: the null request is left out", r);
        cr_expect_eq(e->reqs[0].op, synth_op("irecv"));
        cr_expect_eq(e->reqs[0].peer, 1 - r);
        cr_expect_eq(e->reqs[0].tag, 5);
        cr_expect_eq(e->reqs[1].op, synth_op("issend"));
        cr_expect_eq(e->reqs[1].peer, 1 - r);
        cr_expect_eq(e->reqs[1].tag, 6);
    }
    ms_run_end end;
    cr_assert_eq(ms_run_end_make(run, &end), 0);
    cr_assert_eq(end.ncycles, 1);
    cr_expect_eq(end.cycle_len[0], 2);
    cr_expect_eq(end.ranks[0].nwaits, 1);
    cr_expect_eq(end.ranks[0].waits_for[0], 1);
    ms_run_end_free(&end);
    ms_run_free(run);
}

Test(ending, a_version_9_block_names_no_requests)
{
    /* The first 80 bytes, as a version 9 writer wrote them. */
    ms_ending_record e = in_call(MS_ENDING_STUCK, "waitall", 3000, -1);
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, 0);
    synth s;
    ms_file_header h;
    synth_header(&h, 0, 1);
    h.version = 9;
    cr_assert_eq(synth_open_with(&s, path, &h, "node0"), 0);
    synth_region(&s, 0, 0, ALLREDUCE);
    synth_event(&s, 0, 0, 1010, 1100);
    cr_assert_eq(synth_flush(&s, 0), 0);
    cr_assert_eq(ms_log_write_block(&s.log, MS_BLOCK_ENDING, 0, &e, MS_ENDING_RECORD_V9_SIZE), 0);
    cr_assert_eq(synth_close(&s, SYNTH_NO_END), 0);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_expect_eq(run->ranks[0].ending.op, synth_op("waitall"));
    cr_expect_eq(run->ranks[0].ending.req_count, 0);
    cr_expect_eq(run->ranks[0].ending.nreqs, 0);
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
    ms_ending_record bad[5] = {good, good, good, good, good};
    bad[0].cause = 9;
    bad[1].signal = 200;
    bad[2].call_since = UINT64_MAX;
    bad[3].req_count = 1;
    bad[3].req_stride = 4096;
    bad[4].req_count = 1;
    bad[4].call_since = 0;
    for (size_t i = 0; i < 5; i++) {
        write_rank(0, &bad[i], 1, 0, MS_FORMAT_VERSION);
        cr_expect_eq(read_rank0(msg, sizeof msg), MS_READ_CORRUPT, "case %zu", i);
        cr_expect(strstr(msg, "bad values in an ending block") != NULL, "case %zu: %s", i, msg);
    }
}
