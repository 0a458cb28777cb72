/* Clock alignment (analysis/reduce/clock_align.h): the offset and drift fitted to
 * clock-sync measurements, the mapping of a rank's times through them, the
 * merge's use of it, and the reader's checks of sync blocks. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/clock_align.h"
#include "../../analysis/reduce/reduce.h"
#include "synth.h"
#include "unit_util.h"

#define BARRIER "mpi:barrier kind=collective bytes=-1 peer=-1 root=-1 tag=-1 comm=0"

/* A rank whose clock reads t + off + drift (t - base) when rank 0's reads t
 * (both header clocks; rank 0's header clock is its CLOCK_MONOTONIC +
 * PEER_OFFSET). */
#define PEER_OFFSET 1000000000000ll
typedef struct skewed {
    double off, drift;
    int64_t base;
} skewed;

static int64_t rank_clock(const skewed *k, int64_t t)
{
    return t + (int64_t)(k->off + k->drift * (double)(t - k->base));
}

/* A measurement taken when rank 0's header clock read t, with a round
 * trip of rtt ns (symmetric). */
static void observe(ms_clock_align *a, const skewed *k, int phase, int64_t t, uint64_t rtt)
{
    int64_t local = rank_clock(k, t);
    ms_sync_sample s = {.phase = (uint32_t)phase, .exchanges = 16, .t_send = (uint64_t)local - rtt / 2,
                        .t_recv = (uint64_t)local - rtt / 2 + rtt, .peer_mono_ns = (uint64_t)(t - PEER_OFFSET)};
    /* The rank's header clock is its tool clock here (offset 0). */
    ms_clock_obs_set(a, &s, 0);
}

Test(clock_align, offset_and_drift_are_recovered)
{
    const skewed k = {.off = 50e6, .drift = 200e-6, .base = 2000000000000ll};
    ms_clock_align a;
    memset(&a, 0, sizeof a);
    int64_t t_init = 2000000000000ll + 10000000, t_fin = t_init + 1000000000;
    observe(&a, &k, MS_SYNC_INIT, t_init, 2000);
    observe(&a, &k, MS_SYNC_FINALIZE, t_fin, 3000);
    ms_clock_fit(&a, PEER_OFFSET);
    cr_assert_eq(a.model, MS_ALIGN_DRIFT);
    /* Ahead by off + drift x 10 ms at the first measurement. */
    cr_expect(llabs(ms_clock_ahead_ns(&a) - (int64_t)(50e6 + 200e-6 * 10e6)) <= 1, "ahead %lld",
              (long long)ms_clock_ahead_ns(&a));
    cr_expect(fabs(ms_clock_drift_ppm(&a) - 200.0) < 1e-3, "drift %.6f ppm", ms_clock_drift_ppm(&a));
    cr_expect_eq(ms_clock_error_ns(&a), 1500, "half the longer round trip");
    /* Every time of the rank maps back to rank 0's clock, also before and
     * after the measurements. */
    for (int64_t t = t_init - 500000000; t <= t_fin + 500000000; t += 100000000) {
        int64_t got = ms_clock_apply(&a, rank_clock(&k, t));
        cr_expect(llabs(got - t) <= 2, "at %lld: %lld", (long long)t, (long long)got);
    }
    cr_expect(llabs(ms_clock_max_shift(&a) - (int64_t)(50e6 + 200e-6 * 1010e6)) <= 300);
}

Test(clock_align, round_trip_asymmetry_bounds_the_error)
{
    /* The reply took 10 us longer than the ping: the offset is off by at
     * most half the round trip. */
    const skewed k = {.off = -7e6, .drift = 0, .base = 0};
    ms_clock_align a;
    memset(&a, 0, sizeof a);
    int64_t t = 5000000000000ll;
    int64_t local = rank_clock(&k, t);
    ms_sync_sample s = {.phase = MS_SYNC_INIT, .exchanges = 1, .t_send = (uint64_t)local - 1000,
                        .t_recv = (uint64_t)local + 11000, .peer_mono_ns = (uint64_t)(t - PEER_OFFSET)};
    ms_clock_obs_set(&a, &s, 0);
    ms_clock_fit(&a, PEER_OFFSET);
    cr_assert_eq(a.model, MS_ALIGN_OFFSET);
    cr_expect_eq(a.obs[0].rtt_ns, 12000u);
    cr_expect_eq(ms_clock_error_ns(&a), 6000);
    cr_expect(llabs(ms_clock_ahead_ns(&a) - (int64_t)-7e6) <= 6000);
    cr_expect_eq(ms_clock_drift_ppm(&a), 0.0);
}

Test(clock_align, offset_only_without_a_usable_second_measurement)
{
    const skewed k = {.off = 3e6, .drift = 100e-6, .base = 0};
    int64_t t0 = 4000000000000ll;
    ms_clock_align a;

    /* No finalize measurement (the rank died, or was late). */
    memset(&a, 0, sizeof a);
    observe(&a, &k, MS_SYNC_INIT, t0, 1000);
    ms_clock_fit(&a, PEER_OFFSET);
    cr_expect_eq(a.model, MS_ALIGN_OFFSET);
    cr_expect_eq(ms_clock_apply(&a, rank_clock(&k, t0)), t0);
    cr_expect_eq(ms_clock_drift_ppm(&a), 0.0);

    /* Measurements less than MS_ALIGN_MIN_SPAN_NS apart. */
    memset(&a, 0, sizeof a);
    observe(&a, &k, MS_SYNC_INIT, t0, 1000);
    observe(&a, &k, MS_SYNC_FINALIZE, t0 + MS_ALIGN_MIN_SPAN_NS / 2, 1000);
    ms_clock_fit(&a, PEER_OFFSET);
    cr_expect_eq(a.model, MS_ALIGN_OFFSET);

    /* Only the finalize measurement (init's exchange timed out). */
    memset(&a, 0, sizeof a);
    observe(&a, &k, MS_SYNC_FINALIZE, t0, 1000);
    ms_clock_fit(&a, PEER_OFFSET);
    cr_expect_eq(a.model, MS_ALIGN_OFFSET);
    cr_expect_eq(ms_clock_apply(&a, rank_clock(&k, t0)), t0);

    /* A drift no clock has (2 %): offset only. */
    const skewed wild = {.off = 0, .drift = 0.02, .base = t0};
    memset(&a, 0, sizeof a);
    observe(&a, &wild, MS_SYNC_INIT, t0, 1000);
    observe(&a, &wild, MS_SYNC_FINALIZE, t0 + 1000000000, 1000);
    ms_clock_fit(&a, PEER_OFFSET);
    cr_expect_eq(a.model, MS_ALIGN_OFFSET);

    /* Nothing measured: times are left alone. */
    memset(&a, 0, sizeof a);
    ms_clock_fit(&a, PEER_OFFSET);
    cr_expect_eq(a.model, MS_ALIGN_NONE);
    cr_expect_eq(ms_clock_apply(&a, 123456789), 123456789);
    cr_expect_eq(ms_clock_ahead_ns(&a), 0);
}

Test(clock_align, apply_saturates)
{
    ms_clock_align a;
    memset(&a, 0, sizeof a);
    a.model = MS_ALIGN_DRIFT;
    a.offset_ns = INT64_MAX / 2;
    a.drift = 1e-3;
    cr_expect_eq(ms_clock_apply(&a, INT64_MAX - 10), INT64_MAX);
    a.offset_ns = INT64_MIN / 2;
    cr_expect_eq(ms_clock_apply(&a, INT64_MIN + 10), INT64_MIN);
}

/* ---- through the merge ---- */

UNIT_TMPDIR_FIXTURE();

TestSuite(clock_merge, .init = setup, .fini = teardown);

static void write_sync(synth *s, int phase, uint64_t t_send, uint64_t t_recv, uint64_t peer)
{
    ms_sync_sample ss = {.phase = (uint32_t)phase, .exchanges = 16, .t_send = t_send, .t_recv = t_recv,
                         .peer_mono_ns = peer};
    cr_assert_eq(ms_log_write_block(&s->log, MS_BLOCK_SYNC, 0, &ss, sizeof ss), 0);
}

/* Rank 1's clocks read tau + 40 ms + 300 ppm (tau - 1 s) when rank 0's
 * read tau (its CLOCK_REALTIME in the header too, so its header clock is
 * off by as much). Both make 10 barriers 100 ms apart, from tau =
 * 1.1 s, each leaving at the same true time; rank 1 measured at 1.05 s and
 * 2.2 s. With finalize: whether rank 1 has its finalize measurement. */
static uint64_t skew1(uint64_t tau)
{
    return tau + 40000000 + (uint64_t)(300e-6 * (double)(tau - 1000000000));
}

static void write_two_ranks(int with_finalize)
{
    for (int rank = 0; rank < 2; rank++) {
        char path[512];
        snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
        synth s;
        ms_file_header h;
        synth_header(&h, rank, 2);
        h.init_end_ns = rank ? skew1(1000000000) : 1000000000;
        h.clock_ref_ns = h.init_end_ns;
        /* Rank 1's host clock is skewed as a whole: its CLOCK_REALTIME too. */
        h.realtime_ref_ns = SYNTH_REALTIME_REF + (rank ? 40000000 : 0);
        cr_assert_eq(synth_open_with(&s, path, &h, "node0"), 0);
        if (rank == 1)
            write_sync(&s, MS_SYNC_INIT, skew1(1050000000) - 800, skew1(1050000000) + 800, 1050000000);
        synth_region(&s, 0, 0, BARRIER);
        for (int i = 0; i < 10; i++) {
            uint64_t out = 1100000000ull + (uint64_t)i * 100000000ull;
            uint64_t in = out - (rank ? 10000 : 3000);
            synth_event(&s, 0, 0, rank ? skew1(in) : in, rank ? skew1(out) : out);
        }
        cr_assert_eq(synth_flush(&s, 0), 0);
        if (rank == 1 && with_finalize)
            write_sync(&s, MS_SYNC_FINALIZE, skew1(2200000000) - 600, skew1(2200000000) + 600, 2200000000);
        cr_assert_eq(synth_close(&s, rank ? skew1(2190000000) : 2190000000), 0);
    }
}

static const ms_region *find(const ms_run *run, const char *name)
{
    for (size_t i = 0; i < run->nregions; i++)
        if (strcmp(run->regions[i].name, name) == 0)
            return &run->regions[i];
    return NULL;
}

Test(clock_merge, every_time_of_a_rank_goes_through_the_model)
{
    write_two_ranks(1);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_OK);
    cr_assert_eq(run->nranks, 2u);
    const ms_rank_info *r0 = &run->ranks[0], *r1 = &run->ranks[1];
    int64_t k = r0->clock_offset_ns;  /* the shared header clock's shift */
    cr_expect_eq(r0->align.model, MS_ALIGN_NONE, "rank 0 keeps its header clock");
    cr_assert_eq(r1->align.model, MS_ALIGN_DRIFT);
    cr_expect(llabs(ms_clock_ahead_ns(&r1->align) - (int64_t)(40e6 + 300e-6 * 50e6)) <= 2);
    cr_expect(fabs(ms_clock_drift_ppm(&r1->align) - 300.0) < 0.01, "%.4f", ms_clock_drift_ppm(&r1->align));
    /* Per event (what every timeline writes): the true time. */
    for (int i = 0; i < 10; i++) {
        uint64_t out = 1100000000ull + (uint64_t)i * 100000000ull;
        cr_expect(llabs(ms_rank_time(r1, skew1(out)) - ((int64_t)out + k)) <= 2, "barrier %d", i);
        cr_expect_eq(ms_rank_time(r0, out), (int64_t)out + k);
    }
    /* First and last events, the run's origin, the regions' first/last. */
    cr_expect(llabs(r1->first_start - (1100000000 - 10000 + k)) <= 2);
    cr_expect(llabs(r1->last_end - (2000000000 + k)) <= 2);
    cr_expect_eq(run->origin, 1100000000 - 10000 + k, "rank 1 entered first");
    const ms_region *b = find(run, BARRIER);
    cr_assert_not_null(b);
    cr_assert_eq(b->nranks, 2u);
    cr_expect(llabs(b->ranks[1].stats.first_start - (1100000000 - 10000 + k)) <= 2);
    cr_expect(llabs(b->ranks[1].stats.last_end - (2000000000 + k)) <= 2);
    /* The barrier that started first is rank 1's, 10 us long on its own
     * clock (durations are not rescaled). */
    cr_expect(fabs(b->summary.first_s - 10.003e-6) < 1e-9, "%.12f", b->summary.first_s);
    ms_run_free(run);
}

Test(clock_merge, offset_only_without_the_finalize_measurement)
{
    write_two_ranks(0);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    const ms_rank_info *r1 = &run->ranks[1];
    int64_t k = run->ranks[0].clock_offset_ns;
    cr_assert_eq(r1->align.model, MS_ALIGN_OFFSET);
    /* Exact at the measurement, off by the uncorrected drift elsewhere. */
    cr_expect(llabs(ms_rank_time(r1, skew1(1050000000)) - (1050000000 + k)) <= 2);
    int64_t late = ms_rank_time(r1, skew1(2000000000)) - (2000000000 + k);
    cr_expect(llabs(late - (int64_t)(300e-6 * 950e6)) <= 10, "%lld", (long long)late);
    ms_run_free(run);
}

Test(clock_merge, no_alignment_without_rank_0)
{
    write_two_ranks(1);
    char path[512];
    snprintf(path, sizeof path, "%s/rank-000000.zst", dir);
    cr_assert_eq(remove(path), 0);
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_assert_eq(run->nranks, 1u);
    cr_expect_eq(run->ranks[0].align.model, MS_ALIGN_NONE);
    cr_expect_eq(ms_rank_time(&run->ranks[0], 5), 5 + run->ranks[0].clock_offset_ns);
    ms_run_free(run);
}

/* Two hosts of two ranks: ranks 0 and 1 read host A's clock, ranks 2 and
 * 3 host B's, which reads skew1 of A's; rank 2 (B's leader) measured
 * against rank 0, ranks 1 and 3 say they read their leader's clock. The
 * header clocks of one host differ by a few hundred ns (CLOCK_REALTIME and
 * CLOCK_MONOTONIC read together at each rank's start). */
static void write_two_hosts(void)
{
    for (int rank = 0; rank < 4; rank++) {
        char path[512];
        snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
        int b = rank >= 2;
        synth s;
        ms_file_header h;
        synth_header(&h, rank, 4);
        h.init_end_ns = b ? skew1(1000000000) : 1000000000;
        h.clock_ref_ns = h.init_end_ns;
        h.realtime_ref_ns = SYNTH_REALTIME_REF + (b ? 40000000 : 0) + (rank % 2 ? 700 : 0);
        cr_assert_eq(synth_open_with(&s, path, &h, b ? "nodeB" : "nodeA"), 0);
        if (rank % 2) {
            ms_sync_sample same = {.phase = MS_SYNC_INIT, .peer = rank - 1, .same_clock = 1};
            cr_assert_eq(ms_log_write_block(&s.log, MS_BLOCK_SYNC, 0, &same, sizeof same), 0);
        } else if (rank == 2) {
            write_sync(&s, MS_SYNC_INIT, skew1(1050000000) - 800, skew1(1050000000) + 800, 1050000000);
        }
        synth_region(&s, 0, 0, BARRIER);
        for (int i = 0; i < 10; i++) {
            uint64_t out = 1100000000ull + (uint64_t)i * 100000000ull, in = out - 3000 - 1000 * (uint64_t)rank;
            synth_event(&s, 0, 0, b ? skew1(in) : in, b ? skew1(out) : out);
        }
        cr_assert_eq(synth_flush(&s, 0), 0);
        if (rank == 2)
            write_sync(&s, MS_SYNC_FINALIZE, skew1(2200000000) - 600, skew1(2200000000) + 600, 2200000000);
        cr_assert_eq(synth_close(&s, b ? skew1(2190000000) : 2190000000), 0);
    }
}

Test(clock_merge, one_time_base_per_host)
{
    write_two_hosts();
    ms_run *run = NULL;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_OK);
    cr_assert_eq(run->nranks, 4u);
    const ms_rank_info *r = run->ranks;
    int64_t k = r[0].clock_offset_ns;
    cr_expect(r[1].align.same_clock && r[1].align.peer == 0);
    cr_expect(r[3].align.same_clock && r[3].align.peer == 2);
    cr_assert_eq(r[2].align.model, MS_ALIGN_DRIFT);
    cr_expect(fabs(ms_clock_drift_ppm(&r[3].align) - 300.0) < 0.01, "the leader's drift");
    cr_expect_eq(ms_clock_error_ns(&r[3].align), ms_clock_error_ns(&r[2].align));
    /* The same tool-clock reading is the same time on the common clock for
     * every rank of a host, whatever their header offsets. */
    for (uint64_t t = 1000000000; t <= 2500000000u; t += 250000000) {
        cr_expect_eq(ms_rank_time(&r[1], t), ms_rank_time(&r[0], t));
        cr_expect_eq(ms_rank_time(&r[3], skew1(t)), ms_rank_time(&r[2], skew1(t)));
        cr_expect(llabs(ms_rank_time(&r[3], skew1(t)) - ((int64_t)t + k)) <= 2, "host B on host A's clock");
    }
    ms_run_free(run);

    /* Without host B's leader, its other rank has no way to rank 0. */
    char path[512];
    snprintf(path, sizeof path, "%s/rank-000002.zst", dir);
    cr_assert_eq(remove(path), 0);
    cr_assert_eq(ms_reduce_dir(dir, 1, &run), MS_REDUCE_OK);
    cr_assert_eq(run->nranks, 3u);
    cr_expect_eq(run->ranks[2].rank, 3);
    cr_expect_eq(run->ranks[2].align.model, MS_ALIGN_NONE);
    cr_expect(!run->ranks[2].align.same_clock);
    cr_expect_eq(run->ranks[1].align.model, MS_ALIGN_OFFSET, "host A's other rank: the header shift only");
    ms_run_free(run);
}

/* ---- the reader's checks ---- */

static ms_read_status read_one(const char *path, char *msg, size_t cap)
{
    ms_reader *r = ms_reader_create();
    cr_assert_not_null(r);
    ms_read_result res;
    ms_read_status st = ms_reader_read(r, path, NULL, NULL, &res);
    snprintf(msg, cap, "%s", res.message);
    ms_reader_destroy(r);
    return st;
}

static void write_with_sync(const char *path, uint32_t version, const ms_sync_sample *a, const ms_sync_sample *b)
{
    synth s;
    ms_file_header h;
    synth_header(&h, 1, 2);
    h.version = version;
    cr_assert_eq(synth_open_with(&s, path, &h, "node0"), 0);
    /* Versions 4 to 8 wrote the first 32 bytes. */
    size_t n = version >= 9 ? sizeof *a : MS_SYNC_SAMPLE_V4_SIZE;
    if (a)
        cr_assert_eq(ms_log_write_block(&s.log, MS_BLOCK_SYNC, 0, a, n), 0);
    if (b)
        cr_assert_eq(ms_log_write_block(&s.log, MS_BLOCK_SYNC, 0, b, n), 0);
    cr_assert_eq(synth_close(&s, 5000), 0);
}

Test(clock_merge, reader_rejects_bad_sync_blocks)
{
    char path[512], msg[512];
    snprintf(path, sizeof path, "%s/rank-000001.zst", dir);
    const ms_sync_sample good = {.phase = MS_SYNC_INIT, .exchanges = 16, .t_send = 10, .t_recv = 20,
                                 .peer_mono_ns = 15};
    write_with_sync(path, MS_FORMAT_VERSION, &good, NULL);
    cr_expect_eq(read_one(path, msg, sizeof msg), MS_READ_OK, "%s", msg);
    remove(path);
    write_with_sync(path, 8, &good, NULL);
    cr_expect_eq(read_one(path, msg, sizeof msg), MS_READ_OK, "version 8: %s", msg);
    remove(path);
    /* Version 9: the same clock as the host leader (rank 0 of 2 here). */
    const ms_sync_sample same = {.phase = MS_SYNC_INIT, .peer = 0, .same_clock = 1};
    write_with_sync(path, 9, &same, NULL);
    cr_expect_eq(read_one(path, msg, sizeof msg), MS_READ_OK, "same clock: %s", msg);
    remove(path);

    const struct {
        uint32_t version;
        ms_sync_sample a, b;
        int two;
        const char *why;
    } bad[] = {
        {3, good, good, 0, "malformed sync block"},
        {4, {.phase = 2, .exchanges = 16, .t_send = 10, .t_recv = 20}, good, 0, "bad values"},
        {4, {.phase = 0, .exchanges = 0, .t_send = 10, .t_recv = 20}, good, 0, "bad values"},
        {4, {.phase = 0, .exchanges = 65, .t_send = 10, .t_recv = 20}, good, 0, "bad values"},
        {4, {.phase = 0, .exchanges = 1, .t_send = 30, .t_recv = 20}, good, 0, "bad values"},
        {4, {.phase = 0, .exchanges = 1, .t_send = 10, .t_recv = 20, .peer_mono_ns = UINT64_MAX}, good, 0,
         "bad values"},
        {4, good, good, 1, "second sync block"},
        {8, good, good, 0, "malformed sync block"},   /* 40 bytes in a version 8 log */
        {9, {.phase = 0, .exchanges = 16, .t_send = 10, .t_recv = 20, .peer = 1}, good, 0, "bad values"},
        {9, {.phase = 0, .exchanges = 16, .t_send = 10, .t_recv = 20, .peer = 2}, good, 0, "bad values"},
        {9, {.phase = 0, .exchanges = 16, .t_send = 10, .t_recv = 20, .peer = -1}, good, 0, "bad values"},
        {9, {.phase = 0, .exchanges = 16, .t_send = 10, .t_recv = 20, .same_clock = 2}, good, 0, "bad values"},
        {9, {.phase = 0, .exchanges = 1, .same_clock = 1}, good, 0, "bad values"},
        {9, {.phase = 1, .same_clock = 1}, good, 0, "bad values"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (bad[i].version == 8) {
            /* A block of version 9's size in a log of version 8. */
            synth s;
            ms_file_header h;
            synth_header(&h, 1, 2);
            h.version = 8;
            cr_assert_eq(synth_open_with(&s, path, &h, "node0"), 0);
            cr_assert_eq(ms_log_write_block(&s.log, MS_BLOCK_SYNC, 0, &bad[i].a, sizeof bad[i].a), 0);
            cr_assert_eq(synth_close(&s, 5000), 0);
        } else {
            write_with_sync(path, bad[i].version, &bad[i].a, bad[i].two ? &bad[i].b : NULL);
        }
        cr_expect_eq(read_one(path, msg, sizeof msg), MS_READ_CORRUPT, "case %zu", i);
        cr_expect(strstr(msg, bad[i].why) != NULL, "case %zu: %s", i, msg);
        remove(path);
    }
}

/* A leader measured against its parent host leader, not rank 0: composed
 * with the parent's mapping, its times land on rank 0's clock; a rank of
 * its host takes the same mapping (shifted by the difference of their
 * header offsets), and the error bounds add up along the path. */
Test(clock_align, composed_along_the_tree_and_shared_on_a_host)
{
    /* Rank 1 against rank 0 (header clock = rank 0's + 40 ms, 100 ppm),
     * rank 2 against rank 1 (rank 2's = rank 1's + 10 ms, 50 ppm). */
    const skewed k1 = {.off = 40e6, .drift = 100e-6, .base = 2000000000000ll};
    const skewed k2 = {.off = 10e6, .drift = 50e-6, .base = 2000000000000ll};
    int64_t t_init = 2000000000000ll + 10000000, t_fin = t_init + 1000000000;
    ms_clock_align a1, a2;
    memset(&a1, 0, sizeof a1);
    memset(&a2, 0, sizeof a2);
    observe(&a1, &k1, MS_SYNC_INIT, t_init, 2000);
    observe(&a1, &k1, MS_SYNC_FINALIZE, t_fin, 2000);
    ms_clock_fit(&a1, PEER_OFFSET);
    /* Rank 2's measurements: rank 1's header clock read rank_clock(k1, t)
     * (its tool clock here, offset 0) when rank 2's read k2 of that. */
    for (int ph = 0; ph < 2; ph++) {
        int64_t t = ph ? t_fin : t_init;
        int64_t t1 = rank_clock(&k1, t), local = rank_clock(&k2, t1);
        ms_sync_sample s = {.phase = (uint32_t)ph, .exchanges = 16, .t_send = (uint64_t)local - 2000,
                            .t_recv = (uint64_t)local + 2000, .peer_mono_ns = (uint64_t)t1, .peer = 1};
        ms_clock_obs_set(&a2, &s, 0);
    }
    ms_clock_fit(&a2, 0);
    ms_clock_compose(&a2, &a1);
    cr_assert_eq(a2.model, MS_ALIGN_DRIFT);
    cr_expect_eq(a2.peer, 1);
    for (int64_t t = t_init - 500000000; t <= t_fin + 500000000; t += 100000000) {
        int64_t got = ms_clock_apply(&a2, rank_clock(&k2, rank_clock(&k1, t)));
        cr_expect(llabs(got - t) <= 3, "at %lld: %lld", (long long)t, (long long)got);
    }
    cr_expect_eq(ms_clock_error_ns(&a2), 2000 + 1000, "the two half round trips");

    /* Rank 3 reads rank 2's clock; its header clock is 700 ns behind. */
    ms_clock_align a3;
    memset(&a3, 0, sizeof a3);
    ms_sync_sample same = {.phase = MS_SYNC_INIT, .peer = 2, .same_clock = 1};
    ms_clock_obs_set(&a3, &same, 0);
    cr_assert(a3.same_clock);
    ms_clock_share(&a3, &a2, 700);
    for (int64_t t = t_init; t <= t_fin; t += 100000000) {
        int64_t h2 = rank_clock(&k2, rank_clock(&k1, t));
        cr_expect_eq(ms_clock_apply(&a3, h2 - 700), ms_clock_apply(&a2, h2));
    }
    cr_expect_eq(ms_clock_error_ns(&a3), ms_clock_error_ns(&a2));
    cr_expect(a3.same_clock && a3.peer == 2);

    /* On rank 0's host: rank 0's mapping is none, the shift alone remains. */
    ms_clock_align r0, a4;
    memset(&r0, 0, sizeof r0);
    memset(&a4, 0, sizeof a4);
    ms_clock_share(&a4, &r0, -300);
    cr_expect_eq(ms_clock_apply(&a4, 5000), 4700);
    ms_clock_share(&a4, &r0, 0);
    cr_expect_eq(a4.model, MS_ALIGN_NONE);
}
