/* Counter-set and counter-sample records through the real writer and the
 * reader (analysis/read/decode_counters.c, counters.c): a round trip, final samples
 * replacing the others, and hostile records giving a clean error. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../preload/counter_records.h"
#include "../../analysis/reduce/counters.h"
#include "../../analysis/read/log_reader.h"
#include "synth.h"

static const char *names[] = {"EV0", "DP [MFLOP/s]", "Memory bandwidth [MBytes/s]"};

typedef struct got {
    int sets;
    ms_counter_acc *acc;
} got;

static int on_set(void *ctx, uint32_t set, const ms_counter_set *def)
{
    got *g = ctx;
    cr_expect_eq(set, (uint32_t)g->sets, "dense set indices");
    g->sets++;
    return ms_counter_acc_set(g->acc, set, def);
}

static int on_sample(void *ctx, const ms_counter_sample *s)
{
    return ms_counter_acc_sample(((got *)ctx)->acc, s);
}

static const ms_read_callbacks cb = {.counter_set = on_set, .counter_sample = on_sample};

/* A log with region "r" (id 0) on threads 0 and 1, then `extra` bytes of
 * records on thread 0. */
static char *write_log(const uint8_t *extra, size_t extra_len, int with_good)
{
    char *dir = synth_tmpdir();
    cr_assert_not_null(dir);
    static char path[256];
    snprintf(path, sizeof path, "%s/rank-000000.zst", dir);
    synth s;
    cr_assert_eq(synth_open(&s, path, 0, 1), 0);
    for (int t = 0; t < 2; t++) {
        synth_region(&s, t, 0, "likwid:r");
        synth_event(&s, t, 0, 5000, 6000);
    }
    if (with_good) {
        double v0[3] = {10, 100, 50}, v1[3] = {20, 300, 70}, vf[3] = {7, 1000, 500};
        for (int t = 0; t < 2; t++) {
            uint8_t *p = s.buf[t] + s.len[t];
            p = ms_rec_counter_set(p, 3, "MEM_DP", names, 1, 3);
            p = ms_rec_counter_sample(p, 3, 1, (uint32_t)t, 4u + (uint32_t)t, 1, 0, 0.5, t ? v1 : v0, 3);
            p = ms_rec_counter_sample(p, 3, 1, (uint32_t)t, 4u + (uint32_t)t, 2, 0, 1.0, t ? v1 : v0, 3);
            s.len[t] = (size_t)(p - s.buf[t]);
        }
        /* a final sample of thread 0 replaces both threads' samples */
        uint8_t *p = s.buf[1] + s.len[1];
        p = ms_rec_counter_sample(p, 3, 1, 9, 99, 3, MS_SAMPLE_FINAL, 2.0, vf, 3);
        p = ms_rec_counter_sample(p, 3, 0, 0, 0, 1, 0, 4.0, vf, 3);
        s.len[1] = (size_t)(p - s.buf[1]);
    }
    if (extra_len)
        memcpy(s.buf[0] + s.len[0], extra, extra_len);
    s.len[0] += extra_len;
    cr_assert_eq(synth_close(&s, 9000), 0);
    free(dir);
    return path;
}

Test(counter_records, round_trip_and_final_samples)
{
    char *path = write_log(NULL, 0, 1);
    ms_reader *rd = ms_reader_create();
    got g = {.acc = ms_counter_acc_new()};
    ms_read_result res;
    cr_assert_eq(ms_reader_read(rd, path, &cb, &g, &res), MS_READ_OK, "%s", res.message);
    cr_expect_eq(g.sets, 1, "the same set from two threads is one");
    cr_assert_eq(ms_counter_acc_resolve(g.acc, rd), 0);
    ms_counters c = {0};
    cr_assert_eq(ms_counters_add(&c, g.acc, 7), 0);
    ms_counters_sort(&c);
    cr_assert_eq(c.nsets, 1);
    cr_expect_str_eq(c.sets[0].group, "MEM_DP");
    cr_expect_eq(c.sets[0].nevents, 1);
    cr_expect_str_eq(c.sets[0].names[2], "Memory bandwidth [MBytes/s]");
    cr_assert_eq(c.nrows, 2, "the whole run and the final sample");
    cr_expect_null(c.rows[0].region);
    cr_expect_float_eq(c.rows[0].time_s, 4.0, 1e-12);
    cr_expect_str_eq(c.rows[1].region, "likwid:r");
    cr_expect_eq(c.rows[1].rank, 7);
    cr_expect_eq(c.rows[1].cthread, 9);
    cr_expect_eq(c.rows[1].cpu, 99);
    cr_expect_eq(c.rows[1].count, 3);
    cr_expect_float_eq(c.rows[1].values[1], 1000.0, 1e-12);
    ms_counters_free(&c);
    ms_counter_acc_free(g.acc);
    ms_reader_destroy(rd);
}

static void expect_corrupt(const uint8_t *rec, size_t n, const char *why)
{
    char *path = write_log(rec, n, 0);
    ms_reader *rd = ms_reader_create();
    got g = {.acc = ms_counter_acc_new()};
    ms_read_result res;
    ms_read_status st = ms_reader_read(rd, path, &cb, &g, &res);
    cr_expect_eq(st, MS_READ_CORRUPT, "%s: %s", why, res.message);
    cr_expect(strstr(res.message, "counter") != NULL, "%s: the message names the record: %s", why, res.message);
    ms_counter_acc_free(g.acc);
    ms_reader_destroy(rd);
}

Test(counter_records, hostile_records_are_corrupt)
{
    uint8_t b[4096], *p;
    double v[3] = {1, 2, 3};

    p = ms_rec_counter_sample(b, 0, 1, 0, 0, 1, 0, 1.0, v, 3);
    expect_corrupt(b, (size_t)(p - b), "a sample of an undefined set");

    p = ms_rec_counter_set(b, 0, "G", names, 1, 3);
    p = ms_rec_counter_sample(p, 0, 1, 0, 0, 1, 0, 1.0, v, 2);
    expect_corrupt(b, (size_t)(p - b), "a value count unlike the set's");

    p = ms_rec_counter_set(b, 0, "G", names, 1, 3);
    p = ms_rec_counter_sample(p, 0, 5, 0, 0, 1, 0, 1.0, v, 3);
    expect_corrupt(b, (size_t)(p - b), "a sample of an undefined region");

    p = ms_rec_counter_set(b, 0, "G", names, 1, 3);
    p = ms_rec_counter_sample(p, 0, 1, 0, 0, 1, 2, 1.0, v, 3);
    expect_corrupt(b, (size_t)(p - b), "unknown flags");

    p = ms_rec_counter_set(b, 0, "G", names, 1, 3);
    p = ms_rec_counter_sample(p, 0, 1, 0, 0, 1, 0, NAN, v, 3);
    expect_corrupt(b, (size_t)(p - b), "a time that is not a number");

    p = ms_rec_counter_set(b, 0, "G", names, 1, 3);
    uint8_t *q = ms_rec_counter_sample(p, 0, 1, 0, 0, 1, 0, 1.0, v, 3);
    expect_corrupt(b, (size_t)(q - b) - 5, "a sample cut short");

    p = ms_rec_counter_set(b, MS_MAX_COUNTER_SETS, "G", names, 1, 3);
    expect_corrupt(b, (size_t)(p - b), "a set id past the limit");

    p = ms_rec_counter_set(b, 0, "G", names, 3, 2);
    expect_corrupt(b, (size_t)(p - b), "more events than values");

    /* a value count past the limit, written by hand */
    p = b;
    p = ms_put_varint(p, ((uint64_t)MS_CTL_COUNTER_SET << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, 0);
    p = ms_put_varint(p, 0);
    p = ms_put_varint(p, MS_MAX_COUNTER_VALUES + 1);
    expect_corrupt(b, (size_t)(p - b), "too many values");

    /* a name longer than the format allows, and one with a NUL */
    p = b;
    p = ms_put_varint(p, ((uint64_t)MS_CTL_COUNTER_SET << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, 0);
    p = ms_put_varint(p, 0);
    p = ms_put_varint(p, 0);
    p = ms_put_varint(p, MS_MAX_COUNTER_NAME + 1);
    memset(p, 'x', MS_MAX_COUNTER_NAME + 1);
    p += MS_MAX_COUNTER_NAME + 1;
    expect_corrupt(b, (size_t)(p - b), "a group name too long");
    p = b;
    p = ms_put_varint(p, ((uint64_t)MS_CTL_COUNTER_SET << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, 0);
    p = ms_put_varint(p, 0);
    p = ms_put_varint(p, 0);
    p = ms_put_varint(p, 3);
    memcpy(p, "a\0b", 3);
    p += 3;
    expect_corrupt(b, (size_t)(p - b), "a group name with a NUL");
    p = ms_rec_counter_set(b, 0, "G", names, 1, 3);
    expect_corrupt(b, (size_t)(p - b) - 3, "a set cut short");
}
