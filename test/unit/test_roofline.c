/* Roofline points (analysis/reduce/roofline.c): metric choice, units, summing over
 * threads, rejected points and ceilings, from hand-made counter tables. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/roofline.h"
#include "../../analysis/report/report.h"

static char *names_a[] = {"EV0", "EV1", "Runtime (RDTSC) [s]", "DP [MFLOP/s]", "Memory bandwidth [MBytes/s]"};

static ms_counter_set set_a = {.group = "G", .nevents = 2, .n = 5, .names = names_a};

static void add_row(ms_counters *c, const char *region, int32_t rank, uint32_t thread, double time_s, double flops,
                    double bw)
{
    c->rows = realloc(c->rows, (c->nrows + 1) * sizeof *c->rows);
    cr_assert_not_null(c->rows);
    ms_counter_row *r = &c->rows[c->nrows++];
    memset(r, 0, sizeof *r);
    r->region = region ? strdup(region) : NULL;
    r->rank = rank;
    r->cthread = thread;
    r->time_s = time_s;
    r->values = malloc(5 * sizeof(double));
    double v[5] = {1, 2, time_s, flops, bw};
    memcpy(r->values, v, sizeof v);
}

static void init(ms_counters *c)
{
    memset(c, 0, sizeof *c);
    c->nsets = 1;
    c->sets = malloc(sizeof *c->sets);
    cr_assert_eq(ms_counter_set_copy(&c->sets[0], &set_a), 0);
}

Test(roofline, units)
{
    cr_expect_float_eq(ms_roofline_unit("DP [MFLOP/s]", MS_RATE_FLOPS), 1e-3, 1e-15);
    cr_expect_float_eq(ms_roofline_unit("x [GFLOP/s]", MS_RATE_FLOPS), 1.0, 1e-15);
    cr_expect_float_eq(ms_roofline_unit("x [kflop/s]", MS_RATE_FLOPS), 1e-6, 1e-18);
    cr_expect_float_eq(ms_roofline_unit("x [TFLOP/s]", MS_RATE_FLOPS), 1e3, 1e-9);
    cr_expect_float_eq(ms_roofline_unit("x [FLOP/s]", MS_RATE_FLOPS), 1e-9, 1e-21);
    cr_expect_eq(ms_roofline_unit("x [MBytes/s]", MS_RATE_FLOPS), 0.0);
    cr_expect_float_eq(ms_roofline_unit("Memory bandwidth [MBytes/s]", MS_RATE_BYTES), 1e-3, 1e-15);
    cr_expect_float_eq(ms_roofline_unit("L2 bandwidth [GByte/s]", MS_RATE_BYTES), 1.0, 1e-15);
    cr_expect_float_eq(ms_roofline_unit("bw [MiB/s]", MS_RATE_BYTES), 1048576.0 / 1e9, 1e-15);
    cr_expect_float_eq(ms_roofline_unit("bw [GiB/s]", MS_RATE_BYTES), 1073741824.0 / 1e9, 1e-12);
    cr_expect_float_eq(ms_roofline_unit("bw [KiB/s]", MS_RATE_BYTES), 1024.0 / 1e9, 1e-18);
    cr_expect_float_eq(ms_roofline_unit("bw [kB/s]", MS_RATE_BYTES), 1e-6, 1e-18);
    cr_expect_float_eq(ms_roofline_unit("bw [B/s]", MS_RATE_BYTES), 1e-9, 1e-21);
    cr_expect_eq(ms_roofline_unit("Memory data volume [GBytes]", MS_RATE_BYTES), 0.0);
    cr_expect_eq(ms_roofline_unit("bw [XB/s]", MS_RATE_BYTES), 0.0);
}

Test(roofline, metric_choice)
{
    char *n[] = {"FLOPS_EVENT/s", "Runtime [s]", "AVX DP [MFLOP/s]", "DP [mflop/S]", "L3 Bandwidth [MBytes/s]",
                 "Memory bandwidth [MBytes/s]"};
    ms_counter_set s = {.group = "G", .nevents = 1, .n = 6, .names = n};
    cr_expect_eq(ms_roofline_pick(&s, NULL, MS_RATE_FLOPS), 2, "events are never picked; the first metric");
    cr_expect_eq(ms_roofline_pick(&s, NULL, MS_RATE_BYTES), 4, "case-insensitive, the first one");
    cr_expect_eq(ms_roofline_pick(&s, "DP [mflop/S]", MS_RATE_FLOPS), 3);
    cr_expect_eq(ms_roofline_pick(&s, "Memory bandwidth [MBytes/s]", MS_RATE_BYTES), 5);
    cr_expect_eq(ms_roofline_pick(&s, "no such metric", MS_RATE_BYTES), -1);
}

Test(roofline, sums_threads_converts_and_rejects)
{
    ms_counters c;
    init(&c);
    /* four threads at 20 GFLOP/s (20000 MFLOP/s) and 2.5 GB/s make 80 and 10 */
    for (uint32_t t = 0; t < 4; t++)
        add_row(&c, "likwid:a", 0, t, 1.0 + t, 20000.0, 2500.0);
    add_row(&c, "likwid:a", 1, 0, 2.0, 5000.0, 1000.0);
    add_row(&c, "likwid:nan", 0, 0, 1.0, NAN, 1000.0);
    add_row(&c, "likwid:zero", 0, 0, 1.0, 1000.0, 0.0);
    add_row(&c, "likwid:neg", 0, 0, 1.0, -5.0, 1000.0);
    add_row(&c, "likwid:inf", 0, 0, 1.0, INFINITY, 1000.0);
    add_row(&c, NULL, 0, 0, 9.0, 1000.0, 500.0);
    ms_counters_sort(&c);
    ms_roofline_opts o = {0};
    ms_roofline *r = ms_roofline_build(&c, &o);
    cr_assert_not_null(r);
    cr_assert_eq(r->npoints, 3);
    cr_expect_eq(r->nrejected, 4);
    cr_expect_str_eq(r->points[0].region, MS_ROOFLINE_RUN, "the whole run first");
    cr_expect_float_eq(r->points[0].gflops, 1.0, 1e-12);
    cr_expect_float_eq(r->points[0].gbs, 0.5, 1e-12);
    cr_expect_float_eq(r->points[0].ai, 2.0, 1e-12);
    cr_expect_str_eq(r->points[1].region, "likwid:a");
    cr_expect_eq(r->points[1].rank, 0);
    cr_expect_float_eq(r->points[1].gflops, 80.0, 1e-12);
    cr_expect_float_eq(r->points[1].gbs, 10.0, 1e-12);
    cr_expect_float_eq(r->points[1].ai, 8.0, 1e-12);
    cr_expect_float_eq(r->points[1].runtime_s, 4.0, 1e-12, "the longest thread");
    cr_expect_str_eq(r->points[1].flops_metric, "DP [MFLOP/s]");
    cr_expect_str_eq(r->points[1].bandwidth_metric, "Memory bandwidth [MBytes/s]");
    cr_expect_eq(r->points[2].rank, 1);
    cr_expect_float_eq(r->points[2].ai, 5.0, 1e-12);
    cr_expect(r->gflops_empirical && r->gbs_empirical);
    cr_expect_float_eq(r->peak_gflops, 80.0, 1e-12, "the largest observation");
    cr_expect_float_eq(r->peak_gbs, 10.0, 1e-12);

    char buf[2048] = "";
    FILE *fp = fmemopen(buf, sizeof buf, "w");
    cr_assert_eq(ms_roofline_csv(fp, r), 0);
    fclose(fp);
    cr_expect_str_eq(buf, MS_ROOFLINE_CSV_HEADER "\n"
                          "(run),0,1,0.5,2,9,DP [MFLOP/s],Memory bandwidth [MBytes/s]\n"
                          "likwid:a,0,80,10,8,4,DP [MFLOP/s],Memory bandwidth [MBytes/s]\n"
                          "likwid:a,1,5,1,5,2,DP [MFLOP/s],Memory bandwidth [MBytes/s]\n");
    ms_roofline_free(r);

    ms_roofline_opts given = {.peak_gflops = 200.0};
    r = ms_roofline_build(&c, &given);
    cr_expect(!r->gflops_empirical && r->gbs_empirical);
    cr_expect_float_eq(r->peak_gflops, 200.0, 1e-12);
    cr_expect_float_eq(r->peak_gbs, 10.0, 1e-12);
    ms_roofline_free(r);

    ms_roofline_opts named = {.flops_metric = "Runtime (RDTSC) [s]"};
    r = ms_roofline_build(&c, &named);
    cr_expect_eq(r->npoints, 0, "a metric without a FLOP/s unit gives no points");
    ms_roofline_free(r);
    ms_counters_free(&c);
}
