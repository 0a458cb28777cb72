/* Point-to-point traffic of a synthesized run of three ranks: the matrix
 * (communicator records, MPI_COMM_SELF, completions not counted twice,
 * MPI_PROC_NULL left out, the sends of MPI_Startall and the receives of
 * MPI_Waitall from their message records, and a startall of a request the
 * tool did not see created left out), which messages get flows, and
 * the --matrix-csv, --events-csv and --trace outputs; and what the calls of
 * partitioned requests count as. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/flows.h"
#include "../../analysis/reduce/matrix.h"
#include "../../analysis/reduce/p2p.h"
#include "../../analysis/reduce/reduce.h"
#include "../../analysis/report/report.h"
#include "synth.h"
#include "unit_util.h"

#define P2P(op, rest) "mpi:" op " kind=point-to-point " rest
#define SEND_5 P2P("send", "bytes=8 peer=1 root=-1 tag=5 comm=0")
#define ISEND_77 P2P("isend", "bytes=100 peer=0 root=-1 tag=6 comm=77")
#define WAIT_ISEND "mpi:wait kind=wait bytes=100 peer=0 root=-1 tag=6 comm=77 request=isend"
#define STARTALL "mpi:startall kind=other bytes=32 peer=1 root=-1 tag=9 comm=0 request=send_init"
#define STARTALL_UNKNOWN "mpi:startall kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=-1 request=unknown"
#define SEND_NULL P2P("send", "bytes=4 peer=-1 root=-1 tag=1 comm=0")
#define SEND_SELF P2P("send", "bytes=3 peer=0 root=-1 tag=2 comm=1")
#define ALLRED "mpi:allreduce kind=collective bytes=8 peer=-1 root=-1 tag=-1 comm=0"
#define STEP "user:step"
#define RECV_5 P2P("recv", "bytes=8 peer=0 root=-1 tag=5 comm=0")
#define RECV_9 P2P("recv", "bytes=32 peer=0 root=-1 tag=9 comm=0")
#define START "mpi:start kind=other bytes=12 peer=2 root=-1 tag=3 comm=0 request=send_init"
#define WAIT_IRECV "mpi:wait kind=wait bytes=100 peer=1 root=-1 tag=6 comm=77 request=irecv"
#define WAIT_RINIT "mpi:wait kind=wait bytes=12 peer=1 root=-1 tag=3 comm=0 request=recv_init"
#define WAITALL_RINIT "mpi:waitall kind=wait bytes=12 peer=1 root=-1 tag=3 comm=0 request=recv_init"
#define SENDRECV_SELF P2P("sendrecv", "bytes=16 peer=0 root=-1 tag=7 comm=1")

UNIT_TMPDIR_FIXTURE();

static void open_rank(synth *s, int rank)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
    cr_assert_eq(synth_open(s, path, rank, 3), 0);
}

/* Communicator 77: comm rank 0 is world rank 2, comm rank 1 world rank 0. */
static const int comm77[] = {2, 0};

static void write_run(void)
{
    synth s;
    open_rank(&s, 0);
    synth_comm(&s, 0, 77, comm77, 2);
    const char *names0[] = {SEND_5, ISEND_77, WAIT_ISEND, STARTALL, SEND_NULL, SEND_SELF, ALLRED};
    for (uint32_t i = 0; i < 7; i++)
        synth_region(&s, 0, i, names0[i]);
    /* send x2, isend, its wait, startall (its message record: one send of
     * 32 bytes to rank 1, tag 9), send to MPI_PROC_NULL, self, allreduce */
    const uint32_t order0[] = {0, 0, 1, 2, 3, 4, 5, 6};
    for (uint64_t k = 0; k < 8; k++) {
        if (order0[k] == 3)
            synth_message(&s, 0, synth_op("send_init"), MS_MESSAGE_STARTED, 0, 1, 9, 32, 10000 + 1000 * k);
        synth_event(&s, 0, order0[k], 10000 + 1000 * k, 10500 + 1000 * k);
    }
    /* A second thread, flushed first: its rows still come after thread 0's. */
    synth_region(&s, 1, 0, STEP);
    synth_event(&s, 1, 0, 9000, 9100);
    synth_event(&s, 1, 0, 9200, 9300);
    cr_assert_eq(synth_flush(&s, 1), 0);
    cr_assert_eq(synth_close(&s, 50000), 0);

    open_rank(&s, 1);
    synth_region(&s, 0, 0, RECV_5);
    synth_region(&s, 0, 1, RECV_9);
    synth_region(&s, 0, 2, START);
    const uint32_t order1[] = {0, 0, 1, 2, 2};
    for (uint64_t k = 0; k < 5; k++)
        synth_event(&s, 0, order1[k], 10000 + 1000 * k, 10800 + 1000 * k);
    cr_assert_eq(synth_close(&s, 50000), 0);

    open_rank(&s, 2);
    synth_comm(&s, 0, 77, comm77, 2);
    synth_region(&s, 0, 0, WAIT_IRECV);
    synth_region(&s, 0, 1, WAIT_RINIT);
    synth_region(&s, 0, 2, WAITALL_RINIT);
    synth_region(&s, 0, 3, SENDRECV_SELF);
    synth_region(&s, 0, 4, STARTALL_UNKNOWN);
    /* The waitall's message record: the receive of tag 3 from rank 1. A
     * startall of a request of unknown origin (its record says op 0)
     * keeps its name's pattern. */
    for (uint32_t k = 0; k < 5; k++) {
        if (k == 2)
            synth_message(&s, 0, synth_op("recv_init"), MS_MESSAGE_RECV, 0, 1, 3, 12, 20000 + 1000 * k);
        if (k == 4)
            synth_message(&s, 0, 0, MS_MESSAGE_STARTED, -1, -1, -1, -1, 20000 + 1000 * k);
        synth_event(&s, 0, k, 20000 + 1000 * k, 20500 + 1000 * k);
    }
    cr_assert_eq(synth_close(&s, 50000), 0);
}

static ms_run *reduce(void)
{
    write_run();
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_OK);
    return run;
}

TestSuite(traffic, .init = setup, .fini = teardown);

Test(traffic, matrix)
{
    ms_run *run = reduce();
    const ms_matrix_cell want[] = {
        {0, 0, 1, 3},    /* MPI_COMM_SELF */
        {0, 1, 3, 48},   /* send x2 and the startall's send; not MPI_PROC_NULL */
        {0, 2, 1, 100},  /* isend on comm 77: comm rank 0 is world 2; its wait not again */
        {1, 2, 2, 24},   /* MPI_Start of a persistent send, twice */
        {2, 2, 1, 16},   /* sendrecv's send half on MPI_COMM_SELF */
    };
    cr_assert_eq(run->nmatrix, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < run->nmatrix; i++) {
        const ms_matrix_cell *c = &run->matrix[i];
        cr_expect(c->src == want[i].src && c->dst == want[i].dst && c->messages == want[i].messages &&
                      c->bytes == want[i].bytes,
                  "cell %zu: %d -> %d %lu %lu", i, c->src, c->dst, (unsigned long)c->messages,
                  (unsigned long)c->bytes);
    }
    cr_expect_not_null(ms_matrix_find(run->matrix, run->nmatrix, 1, 2));
    cr_expect_not_null(ms_p2p_chan_find(run->chans, run->nchans, 2, MS_P2P_SEND_ANY, -1, -1, -1),
                       "the startall of an unknown request keeps its pattern");
    cr_expect_null(ms_matrix_find(run->matrix, run->nmatrix, 2, 1));

    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    cr_assert_eq(ms_report_matrix_csv(fp, run), 0);
    fclose(fp);
    cr_expect_str_eq(buf, "src,dst,messages,bytes\n0,0,1,3\n0,1,3,48\n0,2,1,100\n1,2,2,24\n2,2,1,16\n");
    free(buf);
    ms_run_free(run);
}

Test(traffic, flow_keys)
{
    ms_run *run = reduce();
    ms_flows f;
    cr_assert_eq(ms_flows_build(run, &f), 0);
    const ms_flow_key *k = ms_flows_find(&f, 0, 1, 5, 0);
    cr_assert_not_null(k);
    cr_expect_eq(k->sends, 2);
    cr_expect_eq(k->recvs, 2);
    cr_expect_eq(k->n, 2, "plain sends and receives are matched");
    k = ms_flows_find(&f, 0, 2, 6, 77);
    cr_assert_not_null(k);
    cr_expect_eq(k->n, 1, "isend matched to its wait, through communicator 77");
    k = ms_flows_find(&f, 0, 1, 9, 0);
    cr_assert_not_null(k);
    cr_expect_eq(k->sends, 1, "the startall's send, from its message record");
    cr_expect_eq(k->n, 1, "the startall's send matched to its receive");
    k = ms_flows_find(&f, 1, 2, 3, 0);
    cr_assert_not_null(k);
    cr_expect_eq(k->sends, 2);
    cr_expect_eq(k->recvs, 2, "the waitall's receive, from its message record");
    cr_expect_eq(k->n, 2, "matched across MPI_Waitall");
    cr_expect_eq(f.nflows, 6);
    ms_flows_free(&f);
    ms_run_free(run);
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

Test(traffic, trace)
{
    ms_run *run = reduce();
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    cr_assert_eq(ms_report_trace(fp, run), 0);
    fclose(fp);
    /* Every event, and the waiting calls' slices inside them. */
    cr_expect_eq(count(buf, "\"ph\":\"X\"") - count(buf, "\"cat\":\"wait_state\""), run->events);
    cr_expect_eq(count(buf, "\"ph\":\"s\""), 6);
    cr_expect_eq(count(buf, "\"ph\":\"f\",\"bp\":\"e\""), 6);
    cr_expect_eq(count(buf, "\"name\":\"rank 1 (node0)\""), 1);
    cr_expect_eq(count(buf, "\"name\":\"thread 1\""), 1);
    /* The first send of rank 0 starts 1 us after the run's first event. */
    cr_expect_neq(strstr(buf, "{\"ph\":\"s\",\"name\":\"message\",\"cat\":\"message\",\"id\":1,\"pid\":0,\"tid\":0,"
                              "\"ts\":1.000}"),
                  NULL);
    cr_expect_neq(strstr(buf, "\"args\":{\"bytes\":100,\"peer\":0,\"tag\":6,\"comm\":77,\"root\":-1,"
                              "\"request\":\"isend\"}"),
                  NULL);
    free(buf);
    ms_run_free(run);
}

Test(traffic, events_csv)
{
    ms_run *run = reduce();
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    cr_assert_eq(ms_report_events_csv(fp, run), 0);
    fclose(fp);
    cr_expect_eq(count(buf, "\n"), run->events + 1);
    const char *head = MS_EVENTS_CSV_HEADER "\n" SEND_5 ",0,0,0,0.000001000,0.000001500,0.000000500\n" SEND_5
                       ",0,0,1,0.000002000,0.000002500,0.000000500\n";
    cr_expect_eq(strncmp(buf, head, strlen(head)), 0, "%s", buf);
    /* Thread 1 after thread 0, from call index 0, though it starts earlier. */
    const char *t1 = ALLRED ",0,0,7,0.000008000,0.000008500,0.000000500\n" STEP
                     ",0,1,0,0.000000000,0.000000100,0.000000100\n" STEP ",0,1,1,0.000000200,0.000000300,0.000000100\n"
                     RECV_5 ",1,0,0,";
    cr_expect_not_null(strstr(buf, t1), "%s", buf);
    free(buf);
    ms_run_free(run);
}

/* What the calls of partitioned requests (MPI 4.0) move: a start of a
 * psend_init request sends one message, a single completion of a
 * precv_init request receives one; startall, several completions and the
 * pready/parrived calls attribute none. */
static ms_p2p_dir classify(const char *name)
{
    ms_region_info ri;
    int64_t peer, tag, comm;
    cr_assert(ms_region_parse(name, &ri), "%s", name);
    return ms_p2p_classify(&ri, &peer, &tag, &comm);
}

Test(traffic, partitioned)
{
    cr_expect_eq(classify("mpi:start kind=other bytes=48 peer=1 root=-1 tag=90 comm=0 request=psend_init"),
                 MS_P2P_SEND);
    cr_expect_eq(classify("mpi:startall kind=other bytes=48 peer=1 root=-1 tag=90 comm=0 request=psend_init"),
                 MS_P2P_SEND_ANY);
    cr_expect_eq(classify("mpi:wait kind=wait bytes=48 peer=3 root=-1 tag=90 comm=0 request=precv_init"),
                 MS_P2P_RECV);
    cr_expect_eq(classify("mpi:test kind=wait bytes=48 peer=3 root=-1 tag=90 comm=0 request=precv_init"),
                 MS_P2P_RECV);
    cr_expect_eq(classify("mpi:waitall kind=wait bytes=48 peer=3 root=-1 tag=90 comm=0 request=precv_init"),
                 MS_P2P_RECV_ANY);
    cr_expect_eq(classify("mpi:wait kind=wait bytes=48 peer=1 root=-1 tag=90 comm=0 request=psend_init"),
                 MS_P2P_NONE);
    cr_expect_eq(classify("mpi:pready kind=other bytes=48 peer=1 root=-1 tag=90 comm=0 request=psend_init"),
                 MS_P2P_NONE);
    cr_expect_eq(classify("mpi:parrived kind=other bytes=48 peer=3 root=-1 tag=90 comm=0 request=precv_init"),
                 MS_P2P_NONE);
}
