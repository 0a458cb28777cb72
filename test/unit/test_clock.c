/*
 * The log clock: logs stamped with time-stamp-counter ticks are mapped to
 * CLOCK_MONOTONIC nanoseconds through the samples the log carries (header,
 * clock blocks, end record), not through the rate estimated at start.
 */
#include <criterion/criterion.h>

#include "../../analysis/read/log_reader.h"
#include "synth.h"

#define NS0 1000000000ull   /* CLOCK_MONOTONIC at start */
#define T0 5000000000ull    /* ticks at start */
#define RATE 3              /* true ticks per ns */

typedef struct got {
    ms_log_meta meta;
    ms_read_event ev[16];
    size_t n;
    ms_end_record end;
    int has_end;
} got;

static int on_header(void *ctx, const ms_log_meta *m)
{
    ((got *)ctx)->meta = *m;
    return 0;
}

static int on_event(void *ctx, const ms_read_event *e)
{
    got *g = ctx;
    if (g->n < 16)
        g->ev[g->n++] = *e;
    return 0;
}

static int on_end(void *ctx, const ms_end_record *e)
{
    got *g = ctx;
    g->end = *e;
    g->has_end = 1;
    return 0;
}

/* A TSC log whose start estimate (2.5 ticks/ns) is off the true rate (3). */
static void write_tsc_log(const char *path, int clock_block, int end_block)
{
    synth s;
    memset(&s, 0, sizeof s);
    cr_assert_eq(ms_log_open(&s.log, path, SYNTH_BUF, 3), 0);
    s.buf[0] = malloc(SYNTH_BUF);
    cr_assert(s.buf[0]);
    ms_file_header h;
    synth_header(&h, 0, 1);
    h.clock_ref_ns = NS0;
    h.init_start_ns = T0 - 3000;   /* 1000 ns before the reference */
    h.init_end_ns = T0;
    ms_clock_info clock = {.kind = MS_CLOCK_TSC, .ticks_ref = T0, .ticks_per_ns = 2.5};
    const char *strings[] = {"host=node0", "clock=TSC"};
    cr_assert_eq(ms_log_write_header(&s.log, &h, &clock, strings, 2), 0);
    if (clock_block) {
        ms_clock_sample cs = {.ticks = T0 + RATE * 10000000ull, .mono_ns = NS0 + 10000000ull};
        cr_assert_eq(ms_log_write_block(&s.log, MS_BLOCK_CLOCK, 0, &cs, sizeof cs), 0);
    }
    synth_region(&s, 0, 0, "mpi:barrier kind=collective bytes=-1 peer=-1 root=-1 tag=-1 comm=0");
    /* 3 ms and 6 ms after start, each 300 ticks (100 ns) long. */
    synth_event(&s, 0, 0, T0 + RATE * 3000000ull, T0 + RATE * 3000000ull + 300);
    synth_event(&s, 0, 0, T0 + RATE * 6000000ull, T0 + RATE * 6000000ull + 300);
    cr_assert_eq(synth_flush(&s, 0), 0);
    free(s.buf[0]);
    ms_end_record end = {.finalize_start_ns = T0 + RATE * 7000000ull, .end_ns = NS0 + 20000000ull,
                         .events = 2, .nthreads = 1, .flags = MS_END_FINALIZED,
                         .end_ticks = T0 + RATE * 20000000ull};
    cr_assert_eq(ms_log_close(&s.log, end_block ? &end : NULL), 0);
}

static ms_read_status read_it(const char *path, got *g)
{
    memset(g, 0, sizeof *g);
    ms_reader *r = ms_reader_create();
    cr_assert(r);
    ms_read_callbacks cb = {.header = on_header, .event = on_event, .end = on_end};
    ms_read_result res;
    ms_read_status st = ms_reader_read(r, path, &cb, g, &res);
    ms_reader_destroy(r);
    return st;
}

/* Write a TSC log (with a clock block, with the end block, as asked) into a
 * fresh directory and read it back into g. */
static ms_read_status tsc_log(int clock_block, int end_block, got *g)
{
    char *dir = synth_tmpdir();
    cr_assert(dir);
    char path[256];
    snprintf(path, sizeof path, "%s/rank-000000.zst", dir);
    write_tsc_log(path, clock_block, end_block);
    ms_read_status st = read_it(path, g);
    synth_rmdir(dir);
    free(dir);
    return st;
}

Test(clock, ticks_map_through_the_end_record)
{
    got g;
    cr_assert_eq(tsc_log(0, 1, &g), MS_READ_OK);
    cr_assert_eq(g.n, 2);
    /* The end record's pair gives the true rate, not the start estimate. */
    cr_expect_eq(g.ev[0].start_ns, NS0 + 3000000ull);
    cr_expect_eq(g.ev[0].end_ns, NS0 + 3000100ull);
    cr_expect_eq(g.ev[1].start_ns, NS0 + 6000000ull);
    cr_expect_eq(g.meta.header.init_start_ns, NS0 - 1000);
    cr_expect_eq(g.meta.header.init_end_ns, NS0);
    cr_expect_eq(g.meta.end_hint.finalize_start_ns, NS0 + 7000000ull);
    cr_assert(g.has_end);
    cr_expect_eq(g.end.finalize_start_ns, NS0 + 7000000ull);
}

Test(clock, truncated_log_maps_through_clock_blocks)
{
    got g;
    cr_assert_eq(tsc_log(1, 0, &g), MS_READ_TRUNCATED);
    cr_assert_eq(g.n, 2);
    cr_expect_eq(g.ev[0].start_ns, NS0 + 3000000ull);
    cr_expect_eq(g.ev[1].end_ns, NS0 + 6000100ull);
}

Test(clock, without_samples_the_start_estimate_is_used)
{
    got g;
    cr_assert_eq(tsc_log(0, 0, &g), MS_READ_TRUNCATED);
    cr_assert_eq(g.n, 2);
    /* 9e6 ticks at 2.5 ticks/ns. */
    cr_expect_eq(g.ev[0].start_ns, NS0 + 3600000ull);
}

Test(clock, bad_clock_description_is_corrupt)
{
    char *dir = synth_tmpdir();
    char path[256];
    snprintf(path, sizeof path, "%s/rank-000000.zst", dir);
    ms_log log;
    cr_assert_eq(ms_log_open(&log, path, 1 << 16, 3), 0);
    ms_file_header h;
    synth_header(&h, 0, 1);
    ms_clock_info clock = {.kind = MS_CLOCK_TSC, .ticks_ref = T0, .ticks_per_ns = 0.0};
    cr_assert_eq(ms_log_write_header(&log, &h, &clock, NULL, 0), 0);
    cr_assert_eq(ms_log_close(&log, NULL), 0);
    got g;
    cr_expect_eq(read_it(path, &g), MS_READ_CORRUPT);
    synth_rmdir(dir);
    free(dir);
}
