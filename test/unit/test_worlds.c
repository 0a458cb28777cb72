/* Worlds read as one run (mpiscope-merge --with-spawned; analysis/read/
 * worlds.h): a synthesized parent world of 2 ranks that spawned 2 children
 * into DIR/spawn-1. Parent r sends child r 4 bytes (tag 1) on the spawn's
 * intercommunicator (id 900 in the parents' logs, recorded without
 * members), child r answers 8 bytes (tag 2) on its parent
 * intercommunicator (id 700 in its logs, made by no call); the children's
 * rank 0 names the parents (spawned_by=). Read as one run: ranks 0..3, the
 * four messages in the matrix, named 0:r and 1:r; read alone, the parents'
 * sends have no peer; a log of a rank outside its world is corrupt. The
 * region names' communicators of a spawned world move out of the parents'
 * way, the intercommunicator's two sides meet. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../analysis/read/worlds.h"
#include "../../analysis/reduce/matrix.h"
#include "../../analysis/reduce/reduce.h"
#include "../../analysis/reduce/world_setup.h"
#include "synth.h"
#include "unit_util.h"

#define PARENT_RUN "00000000000000aa"
#define CHILD_RUN "00000000000000bb"

UNIT_TMPDIR_FIXTURE();

static void worlds_teardown(void)
{
    ms_worlds_clear();
    teardown();
}

/* Communicator origin record: made by op from parent (-1: none). */
static void synth_origin(synth *s, int thread, uint64_t id, uint32_t op, int64_t parent)
{
    uint8_t *p = s->buf[thread] + s->len[thread];
    p = ms_put_varint(p, ((uint64_t)MS_CTL_COMM_ORIGIN << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, id);
    p = ms_put_varint(p, op);
    p = ms_put_varint(p, (uint64_t)(parent + 1));
    p = ms_put_varint(p, 1);  /* seq */
    p = ms_put_varint(p, 0);  /* no region */
    p = ms_put_varint(p, 0);  /* no dimensions */
    s->len[thread] = (size_t)(p - s->buf[thread]);
}

static void open_log(synth *s, const char *sub, int rank, const char *run, const char *spawned_by)
{
    char path[600], host[] = "host=node0", run_kv[64], link[128];
    snprintf(path, sizeof path, "%s%s/rank-%06d.zst", dir, sub, rank);
    snprintf(run_kv, sizeof run_kv, "run=%s", run);
    snprintf(link, sizeof link, "spawned_by=%s", spawned_by ? spawned_by : "");
    const char *strings[] = {host, "mpi_library=Open MPI 4.1.4", "argv0=./app", "clock=CLOCK_MONOTONIC", run_kv,
                             link};
    ms_file_header h;
    synth_header(&h, rank, 2);
    cr_assert_eq(synth_open_strings(s, path, &h, strings, spawned_by ? 6 : 5), 0);
}

/* The worlds; link: what the children's rank 0 says of its parents. */
static void write_worlds_linked(const char *link)
{
    char sub[600];
    snprintf(sub, sizeof sub, "%s/spawn-1", dir);
    cr_assert_eq(mkdir(sub, 0755), 0);
    synth s;
    for (int r = 0; r < 2; r++) {
        char send[160], recv[160];
        snprintf(send, sizeof send, "mpi:send kind=point-to-point bytes=4 peer=%d root=-1 tag=1 comm=900", r);
        snprintf(recv, sizeof recv, "mpi:recv kind=point-to-point bytes=8 peer=%d root=-1 tag=2 comm=900", r);
        open_log(&s, "", r, PARENT_RUN, NULL);
        synth_comm(&s, 0, 900, NULL, 0);
        synth_origin(&s, 0, 900, synth_op("comm_spawn"), 0);
        synth_region(&s, 0, 0, send);
        synth_region(&s, 0, 1, recv);
        synth_event(&s, 0, 0, 10000, 11000);
        synth_event(&s, 0, 1, 12000, 13000);
        cr_assert_eq(synth_close(&s, 50000), 0);
    }
    for (int r = 0; r < 2; r++) {
        char recv[160], send[160];
        snprintf(recv, sizeof recv, "mpi:recv kind=point-to-point bytes=4 peer=%d root=-1 tag=1 comm=700", r);
        snprintf(send, sizeof send, "mpi:send kind=point-to-point bytes=8 peer=%d root=-1 tag=2 comm=700", r);
        open_log(&s, "/spawn-1", r, CHILD_RUN, r == 0 ? link : NULL);
        synth_comm(&s, 0, 700, NULL, 0);
        synth_origin(&s, 0, 700, 0, -1);
        synth_region(&s, 0, 0, recv);
        synth_region(&s, 0, 1, send);
        synth_region(&s, 0, 2, "mpi:allreduce kind=collective bytes=4 peer=-1 root=-1 tag=-1 comm=0");
        synth_event(&s, 0, 0, 10500, 11500);
        synth_event(&s, 0, 2, 11600, 11700);
        synth_event(&s, 0, 1, 11800, 12500);
        cr_assert_eq(synth_close(&s, 50000), 0);
    }
}

static void write_worlds(void)
{
    write_worlds_linked(PARENT_RUN ":900:0-1");
}

TestSuite(worlds, .init = setup, .fini = worlds_teardown);

Test(worlds, the_table)
{
    write_worlds();
    cr_assert_eq(ms_worlds_read(dir), 0);
    cr_assert_eq(ms_worlds_count(), 2);
    const ms_world *p = ms_world_at(0), *c = ms_world_at(1);
    cr_expect_eq(p->offset, 0);
    cr_expect_eq(c->offset, 2);
    cr_expect_eq(c->k, 1);
    cr_expect_eq(c->parent, 0);
    cr_expect_eq(c->parent_comm, 900);
    cr_expect_eq(c->own_comm, 700);
    cr_assert_eq(c->ngroup, 2);
    cr_expect(c->group[0] == 0 && c->group[1] == 1);
    cr_expect_eq(ms_worlds_ranks(), 4);
    char b[24];
    cr_expect_str_eq(ms_rank_name(3, b, sizeof b), "1:1");
    cr_expect_str_eq(ms_rank_name(1, b, sizeof b), "0:1");
    cr_expect_str_eq(ms_rank_name(-1, b, sizeof b), "-1");
    /* The two sides meet; the children's world and others move away. */
    cr_expect_eq(ms_world_comm(c, 700), 900);
    cr_expect_eq(ms_world_comm(p, 900), 900);
    cr_expect_eq(ms_world_comm(c, 1), 1);
    cr_expect_eq(ms_world_comm(c, -1), -1);
    int64_t w1 = ms_world_comm(c, 0);
    cr_expect(w1 > 1 && w1 != 900);
    char name[256];
    const char *raw = "mpi:allreduce kind=collective bytes=4 peer=-1 root=-1 tag=-1 comm=0 request=iallreduce";
    size_t n = ms_world_name(c, raw, strlen(raw), name, sizeof name);
    char want[256];
    snprintf(want, sizeof want,
             "mpi:allreduce kind=collective bytes=4 peer=-1 root=-1 tag=-1 comm=%lld request=iallreduce",
             (long long)w1);
    cr_expect_eq(n, strlen(want));
    cr_expect_str_eq(name, want);
    cr_expect_eq(ms_world_name(p, raw, strlen(raw), name, sizeof name), 0);
    cr_expect_eq(ms_world_name(c, "user:step", 9, name, sizeof name), 0);
}

Test(worlds, one_run_matrix)
{
    write_worlds();
    cr_assert_eq(ms_worlds_read(dir), 0);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_OK);
    cr_assert_eq(run->nranks, 4);
    cr_expect_eq(run->nerrors, 0);
    cr_expect_eq(run->nwarnings, 0);
    /* parent r -> child r: 4 bytes; child r -> parent r: 8 bytes */
    const ms_matrix_cell want[] = {{0, 2, 1, 4}, {1, 3, 1, 4}, {2, 0, 1, 8}, {3, 1, 1, 8}};
    cr_assert_eq(run->nmatrix, 4);
    for (size_t i = 0; i < 4; i++) {
        const ms_matrix_cell *m = &run->matrix[i];
        cr_expect(m->src == want[i].src && m->dst == want[i].dst && m->messages == want[i].messages &&
                      m->bytes == want[i].bytes,
                  "cell %zu: %d -> %d %llu messages %llu bytes", i, m->src, m->dst,
                  (unsigned long long)m->messages, (unsigned long long)m->bytes);
    }
    ms_run_free(run);
}

Test(worlds, alone_the_other_world_has_no_ranks)
{
    write_worlds();
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_OK);
    cr_expect_eq(run->nranks, 2);
    cr_expect_eq(run->nmatrix, 0);
    char b[24];
    cr_expect_str_eq(ms_rank_name(1, b, sizeof b), "1");
    ms_run_free(run);
}

/* A link the logs do not bear out (a spawning group larger than the
 * parents' world, a run that is not there) joins nothing: both worlds
 * are read, the messages between them have no peer. */
Test(worlds, a_link_that_does_not_fit_joins_nothing)
{
    const char *links[] = {PARENT_RUN ":900:0-5", "00000000000000cc:900:0-1"};
    for (size_t i = 0; i < 2; i++) {
        if (i) {
            ms_worlds_clear();
            synth_rmdir(dir);
            free(dir);
            setup();
        }
        write_worlds_linked(links[i]);
        cr_assert_eq(ms_worlds_read(dir), 0);
        cr_assert_eq(ms_worlds_count(), 2);
        cr_expect_eq(ms_world_at(1)->parent, -1, "link %s", links[i]);
        ms_run *run = NULL;
        cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
        cr_expect_eq(run->nranks, 4);
        cr_expect_eq(run->nmatrix, 0, "link %s", links[i]);
        ms_run_free(run);
    }
}

/* A spawned world's log whose rank lies outside the world its lowest
 * rank's log gives (here rank 2 of a world of 2) is corrupt: never rank
 * 0 of a next world. */
Test(worlds, a_rank_outside_its_world_is_corrupt)
{
    write_worlds();
    synth s;
    char path[600], run_kv[64];
    snprintf(path, sizeof path, "%s/spawn-1/rank-000002.zst", dir);
    snprintf(run_kv, sizeof run_kv, "run=%s", CHILD_RUN);
    const char *strings[] = {"host=node0", run_kv};
    ms_file_header h;
    synth_header(&h, 2, 3);
    cr_assert_eq(synth_open_strings(&s, path, &h, strings, 2), 0);
    cr_assert_eq(synth_close(&s, 50000), 0);
    cr_assert_eq(ms_worlds_read(dir), 0);
    cr_assert_eq(ms_worlds_ranks(), 4);
    ms_run *run = NULL;
    cr_expect_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_BAD_INPUT);
    int named = 0;
    for (size_t i = 0; run && i < run->nerrors; i++)
        named |= strstr(run->errors[i], "rank-000002.zst") && strstr(run->errors[i], "rank outside its world");
    cr_expect(named, "no error names the log and why");
    ms_run_free(run);
}
