/* Summary mode: the aggregate <-> statistics round trip, the checks on
 * aggregates read from a log, and the same event stream recorded as a
 * trace and as summary snapshots (preload/summary.c, summary_log.c): the
 * merge must give the same --csv, --ranks-csv and --json, also when the
 * last calls follow the snapshot as events (a signal handler's flush). */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analysis/reduce/reduce.h"
#include "../../analysis/report/report.h"
#include "../../common/stats.h"
#include "../../preload/summary.h"
#include "../../preload/summary_log.h"
#include "../../preload/tstate.h"
#include "../../preload/counter_records.h"
#include "synth.h"
#include "unit_util.h"

/* ---- the round trip ---- */

Test(summary_agg, stats_round_trip_is_exact)
{
    ms_stats s;
    ms_stats_init(&s);
    for (int i = 0; i < 5000; i++) {
        /* Zero-length calls, short ones and a long tail. */
        uint64_t d = i % 97 == 0 ? 0 : (unit_rnd() % 1000) * (1 + unit_rnd() % 3 * 1000);
        cr_assert_eq(ms_stats_add(&s, (int64_t)(1000 + 10 * i), d), 0);
    }
    ms_stats_agg a;
    ms_stats_to_agg(&s, &a);
    cr_assert_eq(ms_stats_agg_check(&a), 0);
    ms_stats t;
    ms_stats_init(&t);
    cr_assert_eq(ms_stats_from_agg(&t, &a), 0);
    cr_expect_eq(t.calls, s.calls);
    cr_expect_eq(t.total_ns, s.total_ns);
    cr_expect_eq(t.min_ns, s.min_ns);
    cr_expect_eq(t.max_ns, s.max_ns);
    cr_expect_eq(t.mean_ns, s.mean_ns);
    cr_expect_eq(t.m2, s.m2);
    cr_expect_eq(t.first_start, s.first_start);
    cr_expect_eq(t.first_ns, s.first_ns);
    cr_expect_eq(t.last_end, s.last_end);
    cr_expect_eq(t.last_ns, s.last_ns);
    ms_summary x, y;
    ms_stats_summarize(&s, &x);
    ms_stats_summarize(&t, &y);
    cr_expect_eq(memcmp(&x, &y, sizeof x), 0, "the same statistics, percentiles included");
    /* Merging a rebuilt aggregate is merging the original. */
    ms_stats m1, m2;
    ms_stats_init(&m1);
    ms_stats_init(&m2);
    cr_assert_eq(ms_stats_merge(&m1, &s), 0);
    cr_assert_eq(ms_stats_merge(&m1, &s), 0);
    cr_assert_eq(ms_stats_merge(&m2, &t), 0);
    cr_assert_eq(ms_stats_merge(&m2, &t), 0);
    ms_stats_summarize(&m1, &x);
    ms_stats_summarize(&m2, &y);
    cr_expect_eq(memcmp(&x, &y, sizeof x), 0);
    ms_stats_free(&m1);
    ms_stats_free(&m2);
    ms_stats_free(&t);
    ms_stats_free(&s);
}

Test(summary_agg, inconsistent_aggregates_are_rejected)
{
    ms_stats s;
    ms_stats_init(&s);
    cr_assert_eq(ms_stats_add(&s, 0, 100), 0);
    cr_assert_eq(ms_stats_add(&s, 10, 300), 0);
    ms_stats_agg good;
    ms_stats_to_agg(&s, &good);
    cr_assert_eq(ms_stats_agg_check(&good), 0);
    uint64_t counts[4] = {0};
    ms_stats_agg a;

    a = good, a.calls = 0;
    cr_expect_neq(ms_stats_agg_check(&a), 0, "no calls");
    a = good, a.calls = 3;
    cr_expect_neq(ms_stats_agg_check(&a), 0, "bucket counts do not add up to the calls");
    a = good, a.min_ns = 400;
    cr_expect_neq(ms_stats_agg_check(&a), 0, "min above max");
    a = good, a.zero = 1, a.calls = 3;
    cr_expect_neq(ms_stats_agg_check(&a), 0, "zero-length calls with a non-zero min");
    a = good, a.lo = MS_SKETCH_MAX_INDEX;
    cr_expect_neq(ms_stats_agg_check(&a), 0, "buckets past the last");
    a = good, a.total_ns = 1000;
    cr_expect_neq(ms_stats_agg_check(&a), 0, "total above calls x max");
    a = good, a.m2 = NAN;
    cr_expect_neq(ms_stats_agg_check(&a), 0, "not a number");
    a = good, a.first_ns = 1;
    cr_expect_neq(ms_stats_agg_check(&a), 0, "first call shorter than min");
    a = good, a.counts = counts, a.len = 2;
    cr_expect_neq(ms_stats_agg_check(&a), 0, "empty buckets");
    ms_stats_free(&s);
}

/* ---- one stream, two modes ---- */

#define INIT "mpi:init kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=0"
#define FIN "mpi:finalize kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=0"
#define SEND "mpi:send kind=point-to-point bytes=8 peer=1 root=-1 tag=0 comm=0"
#define RECV "mpi:recv kind=point-to-point bytes=8 peer=0 root=-1 tag=0 comm=0"
#define ALLRED "mpi:allreduce kind=collective bytes=800 peer=-1 root=-1 tag=-1 comm=0"
#define STEP "user:step"
#define KERNEL "cuda:kernel name=k"

#define NTHREADS 2
#define FINALIZE 5000000000ull

/* A thread's records, as the application threads append them to their
 * rings, and the positions (record boundaries) where a writer could cut. */
typedef struct stream {
    uint8_t *buf;
    size_t len;
    uint64_t cursor;
    size_t cuts[64];
    size_t ncuts;
} stream;

/* An empty stream of cap bytes whose time cursor starts at `cursor`. */
static void stream_open(stream *s, size_t cap, uint64_t cursor)
{
    memset(s, 0, sizeof *s);
    s->buf = malloc(cap);
    cr_assert_not_null(s->buf);
    s->cursor = cursor;
    s->len = (size_t)(ms_rec_time(s->buf, cursor) - s->buf);
}

static void put_region(stream *s, uint32_t id, const char *name)
{
    s->len = (size_t)(ms_rec_region(s->buf + s->len, id, name, strlen(name)) - s->buf);
}

static void put_event(stream *s, uint32_t id, uint64_t start, uint64_t end)
{
    if (start < s->cursor)
        s->len = (size_t)(ms_rec_time(s->buf + s->len, start) - s->buf), s->cursor = start;
    s->len = (size_t)(ms_rec_event(s->buf + s->len, id, start - s->cursor, end - start) - s->buf);
    s->cursor = end;
}

/* A counter sample of set 0 for region id `id` on counter thread cthread. */
static void put_sample(stream *s, uint32_t id, uint32_t cthread, uint64_t count, uint32_t flags)
{
    double v[3] = {1.5 * (double)count, 2.0 * (double)cthread + (double)count, flags ? 7.0 : NAN};
    s->len = (size_t)(ms_rec_counter_sample(s->buf + s->len, 0, (uint64_t)id + 1, cthread, cthread, count, flags,
                                            1e-3 * (double)count, v, 3) - s->buf);
}

static void cut(stream *s)
{
    s->cuts[s->ncuts++] = s->len;
}

/* Rank `rank`'s streams: nested user regions with MPI calls inside, the
 * same names under different ids on the two threads, one name under two
 * ids on thread 0, GPU activity delivered out of order, zero-length calls
 * and a call after MPI_Finalize was entered. */
static void make_streams(stream *st, int rank)
{
    for (int t = 0; t < NTHREADS; t++)
        stream_open(&st[t], 1u << 22, 500 + (uint64_t)t);
    stream *a = &st[0], *b = &st[1];
    put_region(a, 0, INIT);
    put_event(a, 0, 1000, 2000);
    put_region(a, 1, STEP);
    put_region(a, 2, rank ? RECV : SEND);
    put_region(a, 3, ALLRED);
    put_region(a, 4, rank ? RECV : SEND);   /* a second call site */
    put_region(a, 5, KERNEL);
    put_region(b, 3, ALLRED);
    put_region(b, 0, STEP);
    /* Hardware counters of the steps: a sample per call and counter
     * thread, as LIKWID's marker API gives them, then a final one. */
    static const char *const names[] = {"INSTR_RETIRED_ANY:FIXC0", "CPU_CLK_UNHALTED_CORE:FIXC1", "CPI"};
    a->len = (size_t)(ms_rec_counter_set(a->buf + a->len, 0, "CLOCK", names, 2, 3) - a->buf);
    uint64_t t = 10000;
    for (int i = 0; i < 3000; i++) {
        uint64_t step0 = t;
        uint64_t d1 = 200 + unit_rnd() % 5000 + (uint64_t)rank * 17;
        put_event(a, i % 3 ? 2 : 4, t + 10, t + 10 + d1);
        uint64_t d2 = i % 50 == 0 ? 0 : 1000 + unit_rnd() % 200000;
        put_event(a, 3, t + 20 + d1, t + 20 + d1 + d2);
        t += 40 + d1 + d2;
        put_event(a, 1, step0, t);
        put_sample(a, 1, (uint32_t)(i % 2), (uint64_t)i / 2 + 1, 0);
        put_sample(a, 3, 0, (uint64_t)i + 1, 0);
        if (i % 10 == 0)   /* device time, delivered late */
            put_event(a, 5, step0 - 5000, step0 - 100);
        uint64_t bt = 2 * t + (uint64_t)i;
        put_event(b, 3, bt + 5, bt + 5 + unit_rnd() % 70000);
        put_event(b, 0, bt, bt + 80000);
        if (i % 700 == 0)
            cut(a), cut(b);
    }
    put_sample(a, 1, 0, 5000, MS_SAMPLE_FINAL);
    put_sample(a, 1, 1, 10, 0);   /* after the final one: ignored */
    put_region(a, 6, FIN);
    put_event(a, 6, FINALIZE, FINALIZE + 3000);
    put_event(b, 3, FINALIZE + 10, FINALIZE + 500);   /* outside the window */
}

/* With tsc set, the log clock is a time-stamp counter of 2.5 ticks per ns
 * (exactly, so that the writer's conversion, with the header's rate, and
 * the reader's, with the end record's, agree up to rounding). */
static int tsc;
#define TSC_RATE 2.5
static const ms_clock_info tsc_clock = {.kind = MS_CLOCK_TSC, .ticks_ref = 0, .ticks_per_ns = TSC_RATE};

static uint64_t mono_of(uint64_t ticks)
{
    return tsc ? SYNTH_CLOCK_REF + (uint64_t)((double)ticks / TSC_RATE) : ticks;
}

static ms_end_record end_record(void)
{
    uint64_t t = FINALIZE + 10000;
    return (ms_end_record){.finalize_start_ns = FINALIZE, .end_ns = mono_of(t), .end_ticks = t,
                           .nthreads = NTHREADS, .flags = MS_END_FINALIZED};
}

static ms_file_header header(int rank, uint32_t mode)
{
    ms_file_header h;
    synth_header(&h, rank, 2);
    h.mode = mode;
    return h;
}

static void write_trace(const char *dir, int rank, stream *st)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
    ms_file_header h = header(rank, MS_MODE_TRACE);
    ms_log log;
    cr_assert_eq(ms_log_open(&log, path, SYNTH_BUF, 1), 0);
    cr_assert_eq(ms_log_write_header(&log, &h, tsc ? &tsc_clock : NULL, NULL, 0), 0);
    /* Blocks as a writer cuts them, threads interleaved. */
    size_t from[NTHREADS] = {0};
    for (size_t k = 0; k <= st[0].ncuts; k++)
        for (int t = 0; t < NTHREADS; t++) {
            size_t to = k < st[t].ncuts ? st[t].cuts[k] : st[t].len;
            cr_assert_eq(ms_log_write_block(&log, MS_BLOCK_DATA, (uint32_t)t, st[t].buf + from[t], to - from[t]), 0);
            from[t] = to;
        }
    ms_end_record end = end_record();
    cr_assert_eq(ms_log_close(&log, &end), 0);
}

/* The summary writer: snapshots after each of the first `folds` cuts (all
 * of the stream when folds < 0), each replacing the file; then the rest of
 * the streams as events after the snapshot, and the end block. */
static void write_summary(const char *dir, int rank, stream *st, int folds)
{
    char name[32];
    snprintf(name, sizeof name, "rank-%06d.zst", rank);
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY);
    cr_assert_geq(dirfd, 0);
    ms_file_header h = header(rank, MS_MODE_SUMMARY);
    ms_log log;
    size_t block_max = 1u << 22;   /* the raw tail is written as one block */
    cr_assert_eq(ms_log_open_at(&log, dirfd, name, block_max, 1), 0);
    cr_assert_eq(ms_log_write_header(&log, &h, tsc ? &tsc_clock : NULL, NULL, 0), 0);
    ms_summary_log sl;
    cr_assert_eq(ms_summary_log_init(&sl, &log, dirfd, name), 0);
    close(dirfd);
    ms_sum_clock clock = {.ticks = 0, .ticks_ref = h.clock_ref_ns, .ns_ref = h.clock_ref_ns, .ticks_per_ns = 1.0};
    if (tsc)
        clock = (ms_sum_clock){.ticks = 1, .ticks_ref = 0, .ns_ref = h.clock_ref_ns, .ticks_per_ns = TSC_RATE};
    ms_sum *sum = ms_sum_new(&clock, h.init_end_ns, block_max);
    cr_assert_not_null(sum);
    uint8_t *buf = malloc(block_max);
    cr_assert_not_null(buf);
    ms_clock_sample cs = {.ticks = FINALIZE, .mono_ns = mono_of(FINALIZE), .realtime_ns = 1};
    size_t from[NTHREADS] = {0};
    size_t nfolds = folds < 0 ? st[0].ncuts + 1 : (size_t)folds;
    for (size_t k = 0; k < nfolds; k++) {
        if (k == st[0].ncuts)   /* the last fold: MPI_Finalize is known */
            ms_sum_set_window_end(sum, FINALIZE);
        for (int t = 0; t < NTHREADS; t++) {
            size_t to = k < st[t].ncuts ? st[t].cuts[k] : st[t].len;
            cr_assert_eq(ms_sum_consume(sum, (uint32_t)t, st[t].buf + from[t], to - from[t]), 0);
            from[t] = to;
        }
        cr_assert_eq(ms_summary_log_write(&sl, &log, sum, buf, &cs, NULL), 0);
    }
    for (int t = 0; t < NTHREADS; t++) {
        /* As the signal handler does: the cursor, then the raw records. */
        uint64_t cursor;
        if (from[t] == st[t].len)
            continue;
        if (ms_sum_cursor(sum, (uint32_t)t, &cursor) == 0) {
            uint8_t rec[16];
            uint8_t *p = ms_rec_time(rec, cursor);
            cr_assert_eq(ms_log_write_block(&log, MS_BLOCK_DATA, (uint32_t)t, rec, (size_t)(p - rec)), 0);
        } else {
            cr_assert_eq(from[t], 0, "a thread that consumed records has a cursor");
        }
        cr_assert_eq(ms_log_write_block(&log, MS_BLOCK_DATA, (uint32_t)t, st[t].buf + from[t], st[t].len - from[t]),
                     0);
    }
    ms_end_record end = end_record();
    cr_assert_eq(ms_log_close(&log, &end), 0);
    ms_summary_log_free(&sl);
    ms_sum_free(sum);
    free(buf);
}

static int json(FILE *fp, const ms_run *run)
{
    return ms_report_json(fp, run, "test");
}

/* Replace each "mode":"summary" by "mode":"trace", in place. */
static void same_mode(char *s)
{
    char *p;
    while ((p = strstr(s, "\"mode\":\"summary\"")))
        memmove(p + 8, "trace\"", 6), memmove(p + 14, p + 16, strlen(p + 16) + 1);
}

/* Compare two CSV reports: equal text, but for the mean and std columns,
 * which may differ in the last digits (Welford's update in one pass versus
 * Chan's merge of the per-thread parts). */
static void expect_same_csv(const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return;
    if (getenv("SUMMARY_TEST_SHOW"))
        fprintf(stderr, "%s\n----\n%s\n", a, b);
    char *x = strdup(a), *y = strdup(b), *sx, *sy;
    char *lx = strtok_r(x, "\n", &sx), *ly = strtok_r(y, "\n", &sy);
    int mean_col = -1, std_col = -1, line = 0;
    while (lx && ly) {
        char *cx = lx, *cy = ly;
        int col = 0;
        char *fx = strsep(&cx, ","), *fy = strsep(&cy, ",");
        while (fx && fy) {
            if (line == 0 && strcmp(fx, "mean_s") == 0)
                mean_col = col;
            if (line == 0 && strcmp(fx, "std_s") == 0)
                std_col = col;
            if (line > 0 && (col == mean_col || col == std_col)) {
                double u = strtod(fx, NULL), v = strtod(fy, NULL);
                cr_expect_leq(fabs(u - v), 1e-7 * fabs(u) + 1e-15, "line %d column %d: %s vs %s", line, col, fx, fy);
            } else {
                cr_expect_str_eq(fx, fy, "line %d column %d", line, col);
            }
            fx = strsep(&cx, ",");
            fy = strsep(&cy, ",");
            col++;
        }
        cr_expect(!fx && !fy, "line %d: as many columns", line);
        lx = strtok_r(NULL, "\n", &sx);
        ly = strtok_r(NULL, "\n", &sy);
        line++;
    }
    cr_expect(!lx && !ly, "as many lines");
    free(x);
    free(y);
}

/* The two runs and their directories, gone. */
static void free_modes(ms_run *rt, ms_run *rs, char *dt, char *ds)
{
    ms_run_free(rt);
    ms_run_free(rs);
    synth_rmdir(dt);
    synth_rmdir(ds);
    free(dt);
    free(ds);
}

static void compare_modes(int folds)
{
    char *dt = synth_tmpdir(), *ds = synth_tmpdir();
    cr_assert(dt && ds);
    for (int rank = 0; rank < 2; rank++) {
        stream st[NTHREADS];
        make_streams(st, rank);
        write_trace(dt, rank, st);
        write_summary(ds, rank, st, folds);
        for (int t = 0; t < NTHREADS; t++)
            free(st[t].buf);
    }
    ms_run *rt = NULL, *rs = NULL;
    /* Folded calls are not on the timeline, so the wait-state analysis of
     * the two differs by design: it is left out of this comparison. */
    ms_reduce_set_waits(0);
    cr_assert_eq(ms_reduce_dir(dt, 1, &rt), MS_REDUCE_OK);
    cr_assert_eq(ms_reduce_dir(ds, 2, &rs), MS_REDUCE_OK);
    ms_reduce_set_waits(1);
    cr_expect_eq(rt->nwarnings, 0);
    cr_expect_eq(rs->nwarnings, 0, "%s", rs->nwarnings ? rs->warnings[0] : "");
    cr_expect_eq(rt->summary_ranks, 0);
    cr_expect_eq(rs->summary_ranks, 2);
    cr_expect_eq(rs->events, rt->events);
    cr_assert_eq(rs->nregions, rt->nregions);
    if (tsc) {
        /* Two conversions of the counter to ns, each rounding down: up to
         * 1 ns per call apart, and percentiles within the sketch's 1 %. */
        for (size_t i = 0; i < rt->nregions; i++) {
            const ms_region *a = &rt->regions[i], *b = &rs->regions[i];
            double slack = (double)a->summary.calls + 1;
            cr_expect_str_eq(a->name, b->name);
            cr_expect_eq(a->summary.calls, b->summary.calls, "%s", a->name);
            cr_expect_leq(fabs((double)a->total_ns - (double)b->total_ns), slack, "%s", a->name);
            cr_expect_leq(fabs((double)a->window_ns - (double)b->window_ns), slack, "%s", a->name);
            cr_expect_leq(fabs((double)a->excl_ns - (double)b->excl_ns), 2 * slack, "%s", a->name);
            cr_expect_leq(fabs(a->summary.min_s - b->summary.min_s), 1e-9, "%s", a->name);
            cr_expect_leq(fabs(a->summary.max_s - b->summary.max_s), 1e-9, "%s", a->name);
            cr_expect_leq(fabs(a->summary.p50_s - b->summary.p50_s), 0.02 * a->summary.p50_s + 1e-9, "%s", a->name);
            cr_expect_leq(fabs(a->summary.p99_s - b->summary.p99_s), 0.02 * a->summary.p99_s + 1e-9, "%s", a->name);
            cr_expect_leq(fabs(a->summary.first_s - b->summary.first_s), 1e-9, "%s", a->name);
            cr_expect_leq(fabs(a->summary.last_s - b->summary.last_s), 1e-9, "%s", a->name);
        }
        for (size_t r = 0; r < rt->nranks; r++) {
            cr_expect_leq(llabs((long long)rt->ranks[r].app_ns - (long long)rs->ranks[r].app_ns), 1);
            cr_expect_leq(fabs((double)rt->ranks[r].mpi_ns - (double)rs->ranks[r].mpi_ns), 20000.0);
        }
        free_modes(rt, rs, dt, ds);
        return;
    }
    for (size_t i = 0; i < rt->nregions; i++) {
        const ms_region *a = &rt->regions[i], *b = &rs->regions[i];
        cr_expect_str_eq(a->name, b->name);
        cr_expect_eq(a->summary.calls, b->summary.calls);
        cr_expect_eq(a->total_ns, b->total_ns, "%s", a->name);
        cr_expect_eq(a->window_ns, b->window_ns, "%s", a->name);
        cr_expect_eq(a->excl_ns, b->excl_ns, "%s", a->name);
        cr_expect_eq(a->summary.p50_s, b->summary.p50_s, "%s", a->name);
        cr_expect_eq(a->summary.p95_s, b->summary.p95_s, "%s", a->name);
        cr_expect_eq(a->summary.p99_s, b->summary.p99_s, "%s", a->name);
    }
    char *ct = report(rt, ms_report_csv), *cs = report(rs, ms_report_csv);
    expect_same_csv(ct, cs);
    char *kt = report(rt, ms_report_ranks_csv), *ks = report(rs, ms_report_ranks_csv);
    cr_expect_str_eq(kt, ks);
    cr_expect_gt(rt->counters.nrows, 0);
    char *nt = report(rt, ms_report_counters_json), *ns = report(rs, ms_report_counters_json);
    cr_expect_str_eq(nt, ns, "the same hardware counters");
    free(nt), free(ns);
    char *jt = report(rt, json), *js = report(rs, json);
    same_mode(js);
    /* The JSON's numbers are printed with all their digits: mean and std
     * can differ in the last ones, so compare it with them cut off. */
    cr_expect_eq(strlen(jt), strlen(js));
    size_t diff = 0;
    for (size_t i = 0; jt[i] && js[i]; i++)
        diff += jt[i] != js[i];
    cr_expect_leq(diff, 4 * rt->nregions, "JSON reports differ in %zu characters", diff);
    free(ct), free(cs), free(kt), free(ks), free(jt), free(js);
    free_modes(rt, rs, dt, ds);
}

Test(summary_mode, one_snapshot_gives_the_trace_statistics)
{
    compare_modes(-1);
}

Test(summary_mode, snapshots_then_events_give_the_trace_statistics)
{
    /* Two snapshots, each replacing the file, then the rest as events. */
    compare_modes(2);
}

Test(summary_mode, time_stamp_counter_clock)
{
    tsc = 1;
    compare_modes(-1);
    compare_modes(3);
    tsc = 0;
}

Test(summary_mode, nothing_folded_yet_reads_as_a_trace)
{
    compare_modes(0);
}

/* The text report's warning on the tool's stalls says what to suspect in
 * each mode: in summary mode the writer's fold, else the file system or a
 * writer without a core of its own. */
Test(summary_mode, stall_warning_names_the_mode)
{
    char *dt = synth_tmpdir(), *ds = synth_tmpdir();
    cr_assert(dt && ds);
    for (int rank = 0; rank < 2; rank++) {
        stream st[NTHREADS];
        for (int t = 0; t < NTHREADS; t++)
            stream_open(&st[t], 4096, 500);
        put_region(&st[0], 0, INIT);
        put_event(&st[0], 0, 1000, 2000);
        put_region(&st[0], 1, MS_STALL_REGION);
        /* Waits of 0.5 s in a run of about 5 s: 10 %. */
        put_event(&st[0], 1, 3000, 3000 + FINALIZE / 10);
        put_region(&st[0], 2, FIN);
        put_event(&st[0], 2, FINALIZE, FINALIZE + 3000);
        write_trace(dt, rank, st);
        write_summary(ds, rank, st, -1);
        for (int t = 0; t < NTHREADS; t++)
            free(st[t].buf);
    }
    ms_run *rt = NULL, *rs = NULL;
    cr_assert_eq(ms_reduce_dir(dt, 1, &rt), MS_REDUCE_OK);
    cr_assert_eq(ms_reduce_dir(ds, 1, &rs), MS_REDUCE_OK);
    char *tt = report(rt, ms_report_text), *ts = report(rs, ms_report_text);
    const char *warn = "  warning      the tool's writer could not keep up";
    cr_expect(strstr(tt, warn) != NULL, "%s", tt);
    cr_expect(strstr(ts, warn) != NULL, "%s", ts);
    cr_expect(strstr(tt, "a slow file system") != NULL, "%s", tt);
    cr_expect(strstr(tt, "in summary mode the writer") == NULL, "%s", tt);
    cr_expect(strstr(ts, "in summary mode the writer folds every event") != NULL, "%s", ts);
    cr_expect(strstr(ts, "a slow file system") == NULL, "%s", ts);
    free(tt), free(ts);
    free_modes(rt, rs, dt, ds);
}

Test(summary_mode, log_size_does_not_grow_with_calls)
{
    char *d = synth_tmpdir();
    cr_assert_not_null(d);
    stream st[NTHREADS];
    make_streams(st, 0);
    write_summary(d, 0, st, -1);
    char path[512];
    snprintf(path, sizeof path, "%s/rank-000000.zst", d);
    struct stat sb;
    cr_assert_eq(stat(path, &sb), 0);
    /* 12,000 calls and 6,000 counter samples in a few KiB: the snapshot
     * holds aggregates and the latest samples only. */
    cr_expect_lt(sb.st_size, 16384, "%lld bytes", (long long)sb.st_size);
    snprintf(path, sizeof path, "%s/rank-000000.zst.new", d);
    cr_expect_neq(access(path, F_OK), 0, "no temporary file is left");
    for (int t = 0; t < NTHREADS; t++)
        free(st[t].buf);
    synth_rmdir(d);
    free(d);
}

/* ---- hostile aggregates ---- */

/* A log of one aggregate record built from these fields (after `id`). */
static ms_reduce_status read_one(uint64_t id, const uint64_t *v, size_t nv, double mean, double m2, char *msg,
                                 size_t cap)
{
    char *d = synth_tmpdir();
    cr_assert_not_null(d);
    char path[512];
    snprintf(path, sizeof path, "%s/rank-000000.zst", d);
    ms_file_header h = header(0, MS_MODE_SUMMARY);
    h.size = 1;
    ms_log log;
    cr_assert_eq(ms_log_open(&log, path, 1u << 16, 1), 0);
    cr_assert_eq(ms_log_write_header(&log, &h, NULL, NULL, 0), 0);
    uint8_t rec[4096], *p = rec;
    p = ms_rec_time(p, 100);
    p = ms_rec_region(p, 0, STEP, strlen(STEP));
    p = ms_put_varint(p, ((uint64_t)MS_CTL_SUMMARY << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, id);
    for (size_t i = 0; i < nv; i++) {
        if (i == 4) {   /* after calls, total, min, max: the two doubles */
            memcpy(p, &mean, 8), p += 8;
            memcpy(p, &m2, 8), p += 8;
        }
        p = ms_put_varint(p, v[i]);
    }
    cr_assert_eq(ms_log_write_block(&log, MS_BLOCK_DATA, 0, rec, (size_t)(p - rec)), 0);
    ms_end_record end = {.end_ns = 10, .nthreads = 1};
    cr_assert_eq(ms_log_close(&log, &end), 0);
    ms_run *run = NULL;
    ms_reduce_status st = ms_reduce_dir(d, 1, &run);
    cr_assert_not_null(run);
    snprintf(msg, cap, "%s", run->nerrors ? run->errors[0] : "");
    if (st == MS_REDUCE_OK) {
        cr_assert_eq(run->nregions, 1);
        cr_expect_eq(run->regions[0].summary.calls, v[0]);
        cr_expect_eq(run->events, v[0]);
    }
    ms_run_free(run);
    synth_rmdir(d);
    free(d);
    return st;
}

Test(summary_mode, hostile_aggregates_are_corrupt)
{
    char msg[1024];
    /* calls total min max | first first_dur last last_dur window excl zero lo n counts... */
    int32_t b100 = ms_sketch_bucket_of(100), b300 = ms_sketch_bucket_of(300);
    uint64_t good[] = {2, 400, 100, 300, 1000, 100, 2000, 300, 0, 400, 0, (uint64_t)b100,
                       (uint64_t)(b300 - b100 + 1)};
    size_t ng = sizeof good / sizeof good[0];
    uint64_t v[ng + 300];
    /* The counts: one in each end bucket. */
    memcpy(v, good, sizeof good);
    size_t nb = (size_t)(b300 - b100 + 1);
    for (size_t i = 0; i < nb; i++)
        v[ng + i] = i == 0 || i == nb - 1;
    cr_expect_eq(read_one(0, v, ng + nb, 200.0, 20000.0, msg, sizeof msg), MS_REDUCE_OK, "%s", msg);

    cr_expect_eq(read_one(5, v, ng + nb, 200.0, 20000.0, msg, sizeof msg), MS_REDUCE_BAD_INPUT);
    cr_expect(strstr(msg, "summary of an undefined region"), "%s", msg);

    v[ng] = 2;   /* three calls in the buckets, two counted */
    cr_expect_eq(read_one(0, v, ng + nb, 200.0, 20000.0, msg, sizeof msg), MS_REDUCE_BAD_INPUT);
    cr_expect(strstr(msg, "inconsistent summary record") && strstr(msg, "byte offset"), "%s", msg);
    v[ng] = 1;

    cr_expect_eq(read_one(0, v, ng + nb, NAN, 20000.0, msg, sizeof msg), MS_REDUCE_BAD_INPUT, "not a number");
    v[9] = 500;   /* exclusive time above the total */
    cr_expect_eq(read_one(0, v, ng + nb, 200.0, 20000.0, msg, sizeof msg), MS_REDUCE_BAD_INPUT);
    v[9] = 400;
    v[11] = MS_SKETCH_MAX_BUCKET;   /* buckets past the last */
    cr_expect_eq(read_one(0, v, ng + nb, 200.0, 20000.0, msg, sizeof msg), MS_REDUCE_BAD_INPUT);
    cr_expect(strstr(msg, "out of range"), "%s", msg);
    v[11] = (uint64_t)b100;
    /* Cut short: the record runs past its block. */
    cr_expect_eq(read_one(0, v, ng + nb - 3, 200.0, 20000.0, msg, sizeof msg), MS_REDUCE_BAD_INPUT);
    cr_expect(strstr(msg, "runs past its block"), "%s", msg);
}

Test(summary_mode, snapshot_interval_grows_with_the_job_above_1000_ranks)
{
    cr_expect_eq(ms_summary_snapshot_ns(200, 1), 200000000u);
    cr_expect_eq(ms_summary_snapshot_ns(200, 0), 200000000u);
    cr_expect_eq(ms_summary_snapshot_ns(200, 1000), 200000000u);
    cr_expect_eq(ms_summary_snapshot_ns(200, 1001), 400000000u);
    cr_expect_eq(ms_summary_snapshot_ns(1000, 100000), 100000000000u);
    cr_expect_eq(ms_summary_snapshot_ns(1, 2147483647), 2147484000000u);
}
