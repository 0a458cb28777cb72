/* Golden logs of every released format version (test/golden/) keep
 * decoding to the same reports. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../analysis/read/log_reader.h"
#include "../../analysis/reduce/reduce.h"
#include "../../analysis/reduce/run_end.h"
#include "../../analysis/report/report.h"
#include "unit_util.h"

/* test/golden/<version>, from the repository root or from the test binary
 * (build/test/unit/). */
static const char *golden_dir(const char *version)
{
    static char path[4096];
    struct stat sb;
    snprintf(path, sizeof path, "test/golden/%s", version);
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return path;
    char exe[2048];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    cr_assert_gt(n, 0);
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    snprintf(path, sizeof path, "%s/../../../test/golden/%s", exe, version);
    return path;
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp, "%s is missing", path);
    char *buf = NULL;
    size_t cap = 0, len = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            buf = realloc(buf, cap);
            cr_assert_not_null(buf);
        }
        size_t n = fread(buf + len, 1, cap - len - 1, fp);
        len += n;
        if (n == 0)
            break;
    }
    fclose(fp);
    buf[len] = '\0';
    return buf;
}

/* The reports of a version's logs equal the committed ones; `warnings` the
 * run warnings expected (version 3: its program is gone, so its call sites
 * are object+offset, with one warning). */
static void check_version(const char *dir, size_t warnings)
{
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_OK, "%s", run && run->nerrors ? run->errors[0] : "");
    cr_expect_eq(run->nwarnings, warnings, "%zu warnings, the first: %s", run->nwarnings,
                 run->nwarnings ? run->warnings[0] : "");
    char path[4200];
    snprintf(path, sizeof path, "%s/regions.csv", dir);
    char *want = slurp(path), *got = report(run, ms_report_csv);
    cr_expect_str_eq(got, want, "%s", path);
    free(want);
    free(got);
    snprintf(path, sizeof path, "%s/ranks.csv", dir);
    want = slurp(path);
    got = report(run, ms_report_ranks_csv);
    cr_expect_str_eq(got, want, "%s", path);
    free(want);
    free(got);
    snprintf(path, sizeof path, "%s/callsites.csv", dir);
    if (access(path, F_OK) == 0) {
        want = slurp(path);
        got = report(run, ms_report_callsites_csv);
        cr_expect_str_eq(got, want, "%s", path);
        free(want);
        free(got);
    }
    ms_run_free(run);
}

Test(golden, version_1)
{
    check_version(golden_dir("v1"), 0);
}

Test(golden, version_1_facts)
{
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(golden_dir("v1"), 1, &run), MS_REDUCE_OK);
    cr_assert_eq(run->nranks, 2);
    cr_expect_str_eq(run->ranks[0].host, "golden-a");
    cr_expect_str_eq(run->ranks[1].host, "golden-b");
    cr_expect_eq(run->ranks[0].threads, 2);
    cr_expect_eq(run->ranks[0].events, 16);
    cr_expect_eq(run->ranks[1].events, 14);
    cr_expect_eq(run->ranks[0].finalized, 1);
    cr_expect_eq(run->ranks[0].app_ns, 48000);
    cr_expect_eq(run->ranks[1].app_ns, 46000);
    ms_run_free(run);
}

Test(golden, version_2)
{
    check_version(golden_dir("v2"), 0);
}

Test(golden, version_2_facts)
{
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(golden_dir("v2"), 1, &run), MS_REDUCE_OK);
    cr_assert_eq(run->nranks, 2);
    cr_expect_eq(run->ranks[0].finalized, 1);
    cr_expect_eq(run->ranks[1].finalized, 1);
    ms_run_free(run);
}

Test(golden, version_3)
{
    check_version(golden_dir("v3"), 1);
}

Test(golden, version_3_facts)
{
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(golden_dir("v3"), 1, &run), MS_REDUCE_OK);
    cr_assert_eq(run->nranks, 2);
    cr_expect(strstr(run->warnings[0], "p2p_nonblocking") != NULL, "%s", run->warnings[0]);
    /* Every MPI call but init and finalize has a call site in the program. */
    uint64_t calls = 0, sited = 0;
    for (size_t i = 0; i < run->nregions; i++)
        if (run->regions[i].is_mpi && !strstr(run->regions[i].name, "mpi:init") &&
            !strstr(run->regions[i].name, "mpi:finalize"))
            calls += run->regions[i].summary.calls;
    for (size_t i = 0; i < run->ncallsites; i++) {
        cr_expect_str_eq(run->callsites[i].object, "p2p_nonblocking");
        cr_expect(run->callsites[i].object_missing);
        sited += run->callsites[i].calls;
    }
    cr_expect_eq(sited, calls);
    ms_run_free(run);
}

Test(golden, version_4)
{
    check_version(golden_dir("v4"), 1);
}

Test(golden, version_4_clock_alignment)
{
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(golden_dir("v4"), 1, &run), MS_REDUCE_OK);
    cr_assert_eq(run->nranks, 2);
    /* Written with MPISCOPE_TEST_CLOCK_SKEW=50000000,200: rank 1's clock
     * claims to be 50 ms ahead, so rank 0's clock reads 50 ms less (a in
     * analysis/reduce/clock_align.h); the run is too short for a drift. */
    cr_expect_eq(run->ranks[0].align.model, MS_ALIGN_NONE);
    cr_expect_eq(run->ranks[1].align.model, MS_ALIGN_OFFSET);
    cr_expect(llabs(run->ranks[1].align.offset_ns + 50000000) < 100000, "offset %lld",
              (long long)run->ranks[1].align.offset_ns);
    ms_run_free(run);
}

Test(golden, version_4_summary)
{
    check_version(golden_dir("v4-summary"), 1);
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(golden_dir("v4-summary"), 1, &run), MS_REDUCE_OK);
    cr_expect_eq(run->summary_ranks, 2);
    ms_run_free(run);
}

Test(golden, version_4_gpu)
{
    check_version(golden_dir("v4-gpu"), 2);
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(golden_dir("v4-gpu"), 1, &run), MS_REDUCE_OK);
    cr_assert_not_null(run->gpu);
    cr_expect_eq(run->gpu->kernels, 32);
    cr_expect_eq(run->gpu->copies, 26);
    cr_expect_eq(run->gpu->memsets, 2);
    cr_expect_eq(run->gpu->dropped, 5);
    cr_expect_eq(run->ranks[0].gpu.streams, 6);
    cr_expect_eq(run->ranks[1].gpu.streams, 5);
    cr_expect_eq(run->ranks[0].gpu.busy_ns, 1419997);
    cr_assert(run->ranks[0].gpu.norigins > 0);
    cr_expect_str_eq(run->ranks[0].gpu.origins[0].region, "step");
    cr_expect_eq(run->ranks[0].gpu.origins[0].calls, 20);
    cr_expect_eq(run->ranks[0].gpu.origins[0].gpu_ns, 1360002);
    ms_run_free(run);
}

Test(golden, version_5)
{
    check_version(golden_dir("v5"), 1);
}

/* The message records of v5/ as the reader delivers them. */
typedef struct golden_msgs {
    ms_read_message first[4];   /* the first four: the first waitall's */
    uint32_t n, started, cancelled, posted;
    uint64_t first_event_after;  /* start of the event after the first four */
    uint64_t pending;            /* records not yet followed by an event */
    uint64_t max_pending;
} golden_msgs;

static int golden_on_message(void *ctx, const ms_read_message *m)
{
    golden_msgs *g = ctx;
    if (g->n < 4)
        g->first[g->n] = *m;
    g->n++;
    g->started += (m->flags & MS_MSG_STARTED) != 0;
    g->cancelled += (m->flags & MS_MSG_CANCELLED) != 0;
    g->posted += (m->flags & MS_MSG_POSTED) != 0;
    g->pending++;
    return 0;
}

static int golden_on_event(void *ctx, const ms_read_event *ev)
{
    golden_msgs *g = ctx;
    if (g->n == 4 && !g->first_event_after)
        g->first_event_after = ev->start_ns;
    if (g->pending > g->max_pending)
        g->max_pending = g->pending;
    g->pending = 0;
    return 0;
}

/* Written from test/mpi/messages/messages.c at 2 ranks: each rank's 31
 * records, the first those of its first MPI_Waitall (an Irecv and an Isend
 * each way, the peer the other rank). Version 5 holds them as message
 * records; version 6 as request records, which the reader matches into the
 * same messages. */
static void check_messages(const char *version)
{
    for (int rank = 0; rank < 2; rank++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/rank-%06d.zst", golden_dir(version), rank);
        golden_msgs g;
        memset(&g, 0, sizeof g);
        ms_reader *r = ms_reader_create();
        cr_assert_not_null(r);
        ms_read_callbacks cb = {.event = golden_on_event, .message = golden_on_message};
        ms_read_result res;
        cr_assert_eq(ms_reader_read(r, path, &cb, &g, &res), MS_READ_OK, "%s", res.message);
        ms_reader_destroy(r);
        cr_expect_eq(g.n, 31);
        cr_expect_eq(g.posted, 31);
        cr_expect_eq(g.started, 6);
        cr_expect_eq(g.cancelled, 1);
        cr_expect_eq(g.pending, 0, "every record is followed by its event");
        cr_expect_eq(g.max_pending, 4);
        const int64_t tag[4] = {1, 1, 2, 2}, bytes[4] = {64, 64, 16, 16};
        for (int i = 0; i < 4; i++) {
            const ms_read_message *m = &g.first[i];
            cr_expect_eq(m->op, i % 2 ? 6u : 7u, "isend 6, irecv 7");
            cr_expect_eq(m->flags, (i % 2 ? 0u : MS_MSG_RECV) | MS_MSG_POSTED);
            cr_expect_eq(m->comm, 0);
            cr_expect_eq(m->peer, 1 - rank);
            cr_expect_eq(m->tag, tag[i]);
            cr_expect_eq(m->bytes, bytes[i]);
            cr_expect_lt(m->post_ns, g.first_event_after);
            if (i > 0)
                cr_expect_gt(m->post_ns, g.first[i - 1].post_ns, "posted in that order");
        }
    }
}

Test(golden, version_5_messages)
{
    check_messages("v5");
}

Test(golden, version_6)
{
    check_version(golden_dir("v6"), 1);
}

Test(golden, version_6_messages)
{
    check_messages("v6");
}

/* Version 7: test/mpi/faults/pipeline.c on a full disk. Warnings: each
 * rank's log ran out of room, and the program is gone. */
Test(golden, version_7)
{
    check_version(golden_dir("v7"), 3);
}

/* Its completions, named from requests carried over the gaps: every
 * receive's wait per tag and peer, none unknown, with the summary's. */
Test(golden, version_7_carried)
{
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(golden_dir("v7"), 1, &run), MS_REDUCE_OK);
    uint64_t waits = 0;
    for (size_t i = 0; i < run->nregions; i++) {
        const char *name = run->regions[i].name;
        cr_expect(strstr(name, "request=unknown") == NULL, "%s", name);
        if (strncmp(name, "mpi:wait ", 9) == 0 && strstr(name, "request=irecv"))
            waits += run->regions[i].summary.calls;
    }
    cr_expect_eq(waits, 2 * 30001, "30,000 steps and the last receive, on each rank");
    ms_run_free(run);
}

/* Version 8: test/mpi/comm_names/comm_names.c at 4 ranks, its program
 * gone (one warning). */
Test(golden, version_8)
{
    check_version(golden_dir("v8"), 1);
}

/* Its communicator origin and name records: every communicator's label,
 * size, maker and parent, a Cartesian communicator's dimensions, and the
 * names MPI_Comm_set_name gave, whole. */
Test(golden, version_8_communicators)
{
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(golden_dir("v8"), 1, &run), MS_REDUCE_OK);
    const ms_comms *c = &run->comms;
    cr_assert_eq(c->n, 9);
    static const struct {
        const char *label, *kind, *parent;
        uint32_t size;
    } want[] = {
        {"split#1 of world (2 ranks)", "split", "world", 2},
        {"split#2 of world (2 ranks)", "split", "world", 2},
        {"dup#1 of world", "dup", "world", 4},
        {"cart 2\xc3\x97"
         "2 of world",
         "cart", "world", 4},
        {"\"q\" <b>bold</b> & 'x'", "dup", "split#1 of world (2 ranks)", 2},
        {"\"q\" <b>bold</b> & 'x'", "dup", "split#2 of world (2 ranks)", 2},
        {"std::vector<std::map<int, char>>std::vector<std::map<int, cha...", "dup", "world", 4},
    };
    int seen[sizeof want / sizeof want[0]] = {0};
    for (size_t i = 0; i < c->n; i++) {
        const ms_comm_row *r = &c->v[i];
        char label[256], parent[256];
        ms_comms_label(c, r->f.id, label, sizeof label);
        if (r->f.id <= 1) {
            cr_expect_str_eq(label, r->f.id ? "self" : "world");
            continue;
        }
        ms_comms_label(c, r->f.parent, parent, sizeof parent);
        size_t k = 0;
        while (k < sizeof want / sizeof want[0] &&
               (seen[k] || strcmp(want[k].label, label) != 0 || strcmp(want[k].parent, parent) != 0))
            k++;
        cr_assert_lt(k, sizeof want / sizeof want[0], "unexpected communicator %s of %s", label, parent);
        seen[k] = 1;
        cr_expect(r->f.has_origin, "%s", label);
        cr_expect_str_eq(ms_comm_kind(r), want[k].kind, "%s", label);
        cr_expect_eq(r->f.size, want[k].size, "%s", label);
        cr_expect_eq(r->ranks, want[k].size, "%s: in every member's log", label);
        cr_expect_not_null(r->f.where, "%s: its call site", label);
        cr_expect_eq(r->f.ndims, strcmp(want[k].kind, "cart") ? 0u : 2u, "%s", label);
        if (r->f.ndims == 2)
            cr_expect(r->f.dims[0] == 2 && r->f.dims[1] == 2);
        cr_expect_eq(r->f.name != NULL, k >= 4, "%s: named", label);
        if (k == 6 && r->f.name) {
            const char *unit = "std::vector<std::map<int, char>>";
            cr_expect_eq(strlen(r->f.name), 1000, "the whole name");
            for (size_t b = 0; b < 1000 && r->f.name[b]; b++)
                cr_assert_eq(r->f.name[b], unit[b % 32], "byte %zu of the name", b);
        }
    }
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        cr_expect(seen[k], "no communicator %s of %s", want[k].label, want[k].parent);
    cr_expect_null(c->v[0].f.name, "world unnamed");
    ms_run_free(run);
}

/* Version 9 (ending blocks, sync blocks of a host's ranks sharing one
 * clock): test/mpi/faults/ending.c abort 20 at 2 ranks under MPICH, its
 * program gone. Rank 1 called MPI_Abort(3); MPICH's launcher then killed
 * rank 0 (SIGKILL) while it waited in MPI_Barrier: its log has no end block
 * (a warning), and the program's absence is the other. */
Test(golden, version_9)
{
    check_version(golden_dir("v9"), 2);
}

/* Its endings: rank 1 aborted; rank 0's end is unknown (killed without a
 * word), and it was last seen blocked in the barrier waiting for rank 1,
 * which waits for nobody. Both ranks share one clock (one host). */
Test(golden, version_9_ending)
{
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(golden_dir("v9"), 1, &run), MS_REDUCE_OK);
    cr_assert_eq(run->nranks, 2);
    ms_run_end e;
    cr_assert_eq(ms_run_end_make(run, &e), 0);
    cr_assert_eq(e.n, 2);
    cr_expect_eq(e.clean, 0);
    cr_expect_eq(e.ranks[1].state, MS_END_ABORTED);
    cr_expect_eq(e.ranks[0].state, MS_END_UNKNOWN);
    cr_expect(e.ranks[0].waiting, "rank 0 waited in the barrier");
    cr_expect(e.ranks[0].nwaits == 1 && e.ranks[0].waits_for[0] == 1, "rank 0 waits for rank 1");
    cr_expect(e.nblocking == 1 && e.blocking[0] == 1, "rank 1 is the one waited for");
    cr_expect_eq(e.ncycles, 0);
    ms_run_end_free(&e);
    ms_run_free(run);
}

/* Version 10 (an ending block names the requests a completion call waits
 * on): test/mpi/faults/ending.c waitall 20 at 2 ranks under MPICH with
 * MPISCOPE_HANG_S=1, interrupted (SIGINT) after 4 s, its program gone (the
 * one warning). Each rank posted MPI_Irecv (tag 5) and MPI_Issend (tag 6)
 * to the other and waits in MPI_Waitall: killed by SIGINT there, and the
 * requests' peers close one cycle of both ranks, which nobody outside it
 * blocks. */
Test(golden, version_10)
{
    check_version(golden_dir("v10"), 1);
}

Test(golden, version_10_ending)
{
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(golden_dir("v10"), 1, &run), MS_REDUCE_OK);
    cr_assert_eq(run->nranks, 2);
    ms_run_end e;
    cr_assert_eq(ms_run_end_make(run, &e), 0);
    cr_assert_eq(e.n, 2);
    cr_expect_eq(e.clean, 0);
    for (int r = 0; r < 2; r++) {
        cr_expect_eq(e.ranks[r].state, MS_END_KILLED, "rank %d killed", r);
        cr_expect(e.ranks[r].waiting, "rank %d waited in MPI_Waitall", r);
        cr_expect(e.ranks[r].nwaits == 1 && e.ranks[r].waits_for[0] == 1 - r, "rank %d waits for rank %d", r, 1 - r);
    }
    cr_expect_eq(e.ncycles, 1);
    cr_expect(e.ncycles == 1 && e.cycle_len[0] == 2 && e.cycles[0][0] == 0 && e.cycles[0][1] == 1,
              "the cycle is ranks 0 and 1");
    cr_expect_eq(e.nblocking, 0);
    ms_run_end_free(&e);
    ms_run_free(run);
}
