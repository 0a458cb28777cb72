/* Statistics and the quantile sketch: hand-computed values, exact
 * percentiles of random data within 1 %, imbalance, first/last. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/sketch.h"
#include "../../common/stats.h"

#define NS 1e-9

static void add_all(ms_stats *s, const uint64_t *durs, size_t n, int64_t t0)
{
    int64_t t = t0;
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(ms_stats_add(s, t, durs[i]), 0);
        t += (int64_t)durs[i] + 10;
    }
}

static void expect_close(double got, double want, double rel, const char *what)
{
    double tol = fabs(want) * rel + 1e-18;
    cr_expect(fabs(got - want) <= tol, "%s: got %.12g, want %.12g", what, got, want);
}

Test(stats, pooled_mean_and_population_std)
{
    /* Rank 0: 1, 2, 3 us; rank 1: 4, 10 us. All five calls: mean 4 us,
     * squared deviations 9 + 4 + 1 + 0 + 36 = 50, population variance 10. */
    const uint64_t r0[] = {1000, 2000, 3000}, r1[] = {4000, 10000};
    ms_stats a, b;
    ms_stats_init(&a);
    ms_stats_init(&b);
    add_all(&a, r0, 3, 0);
    add_all(&b, r1, 2, 0);
    const ms_stats *ranks[] = {&a, &b};
    ms_summary s;
    cr_assert_eq(ms_stats_combine(ranks, 2, &s), 0);
    cr_expect_eq(s.ranks, 2);
    cr_expect_eq(s.calls, 5);
    expect_close(s.total_s, 20000 * NS, 1e-12, "total");
    expect_close(s.mean_s, 4000 * NS, 1e-12, "mean");
    expect_close(s.std_s, sqrt(10.0) * 1000 * NS, 1e-12, "std");
    expect_close(s.min_s, 1000 * NS, 0, "min");
    expect_close(s.max_s, 10000 * NS, 0, "max");

    /* One rank alone: 1, 2, 3 us -> mean 2, variance 2/3. */
    ms_summary one;
    ms_stats_summarize(&a, &one);
    cr_expect_eq(one.ranks, 1);
    expect_close(one.mean_s, 2000 * NS, 1e-12, "mean of rank 0");
    expect_close(one.std_s, sqrt(2.0 / 3.0) * 1000 * NS, 1e-12, "std of rank 0");
    cr_expect_eq(one.imbalance_pct, 0.0);
    ms_stats_free(&a);
    ms_stats_free(&b);
}

Test(stats, merge_in_any_split_equals_one_pass)
{
    enum { N = 1000 };
    uint64_t d[N];
    unsigned seed = 7;
    for (int i = 0; i < N; i++)
        d[i] = 100 + (uint64_t)(rand_r(&seed) % 100000);
    ms_stats whole, parts[4];
    ms_stats_init(&whole);
    add_all(&whole, d, N, 0);
    for (int k = 0; k < 4; k++)
        ms_stats_init(&parts[k]);
    for (int i = 0; i < N; i++)
        cr_assert_eq(ms_stats_add(&parts[i % 4], (int64_t)i * 1000000, d[i]), 0);
    const ms_stats *p[] = {&parts[0], &parts[1], &parts[2], &parts[3]};
    ms_summary a, b;
    ms_stats_summarize(&whole, &a);
    cr_assert_eq(ms_stats_combine(p, 4, &b), 0);
    cr_expect_eq(a.calls, b.calls);
    expect_close(b.total_s, a.total_s, 1e-12, "total");
    expect_close(b.mean_s, a.mean_s, 1e-12, "mean");
    expect_close(b.std_s, a.std_s, 1e-9, "std");
    cr_expect_eq(a.min_s, b.min_s);
    cr_expect_eq(a.max_s, b.max_s);
    cr_expect_eq(a.p50_s, b.p50_s, "a merged sketch equals the one-pass sketch");
    cr_expect_eq(a.p95_s, b.p95_s);
    cr_expect_eq(a.p99_s, b.p99_s);
    ms_stats_free(&whole);
    for (int k = 0; k < 4; k++)
        ms_stats_free(&parts[k]);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static double exact_quantile(const uint64_t *sorted, size_t n, double q)
{
    return (double)sorted[(size_t)floor(q * (double)(n - 1))];
}

static void check_quantiles(uint64_t *v, size_t n, const char *what)
{
    ms_sketch s;
    ms_sketch_init(&s);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(ms_sketch_add(&s, v[i]), 0);
    qsort(v, n, sizeof *v, cmp_u64);
    static const double qs[] = {0.0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1.0};
    for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
        double want = exact_quantile(v, n, qs[k]);
        double got = ms_sketch_quantile(&s, qs[k]);
        cr_expect(fabs(got - want) <= 0.01 * want, "%s: q=%g got %.6g want %.6g", what, qs[k], got, want);
    }
    cr_expect_eq(ms_sketch_quantile(&s, 0.0), (double)v[0]);
    cr_expect_eq(ms_sketch_quantile(&s, 1.0), (double)v[n - 1]);
    ms_sketch_free(&s);
}

Test(sketch, percentiles_within_one_percent_of_exact)
{
    enum { N = 100000 };
    uint64_t *v = malloc(N * sizeof *v);
    cr_assert_not_null(v);
    unsigned seed = 12345;

    /* Uniform over 1 ns .. 1 ms. */
    for (size_t i = 0; i < N; i++)
        v[i] = 1 + (uint64_t)rand_r(&seed) % 1000000;
    check_quantiles(v, N, "uniform");

    /* Log-uniform over 1 ns .. 10 s: the table and the logarithm paths. */
    for (size_t i = 0; i < N; i++)
        v[i] = (uint64_t)exp((double)rand_r(&seed) / RAND_MAX * log(1e10));
    check_quantiles(v, N, "log-uniform");

    /* Bimodal: fast calls and a slow tail, as MPI waits look. */
    for (size_t i = 0; i < N; i++)
        v[i] = (rand_r(&seed) % 100 < 97) ? 300 + rand_r(&seed) % 50 : 2000000 + rand_r(&seed) % 1000000;
    check_quantiles(v, N, "bimodal");

    /* With zeros. */
    for (size_t i = 0; i < N; i++)
        v[i] = (i % 3 == 0) ? 0 : 1 + (uint64_t)rand_r(&seed) % 5000;
    check_quantiles(v, N, "zeros");

    /* Few values. */
    uint64_t few[] = {5000, 1000, 3000};
    check_quantiles(few, 3, "few");
    uint64_t huge[] = {UINT64_MAX, UINT64_MAX / 3, 1ull << 40};
    check_quantiles(huge, 3, "huge");
    free(v);
}

Test(sketch, quantile_definition)
{
    /* 0-based rank floor(q (n - 1)): for 1..100, p50 is 50, p95 95, p99 99. */
    ms_sketch s;
    ms_sketch_init(&s);
    for (uint64_t i = 1; i <= 100; i++)
        ms_sketch_add(&s, i * 1000);
    expect_close(ms_sketch_quantile(&s, 0.50), 50000, 0.01, "p50");
    expect_close(ms_sketch_quantile(&s, 0.95), 95000, 0.01, "p95");
    expect_close(ms_sketch_quantile(&s, 0.99), 99000, 0.01, "p99");
    cr_expect_eq(ms_sketch_quantile(&s, 0.0), 1000.0);
    cr_expect_eq(ms_sketch_quantile(&s, 1.0), 100000.0);

    /* Equal values come back exactly, an empty sketch gives 0. */
    ms_sketch e, same;
    ms_sketch_init(&e);
    ms_sketch_init(&same);
    cr_expect_eq(ms_sketch_quantile(&e, 0.5), 0.0);
    ms_sketch_add_n(&same, 777, 10);
    cr_expect_eq(ms_sketch_quantile(&same, 0.5), 777.0);
    cr_expect_eq(ms_sketch_quantile(&same, 0.99), 777.0);

    /* Merging an empty sketch, and into one. */
    cr_assert_eq(ms_sketch_merge(&e, &same), 0);
    cr_assert_eq(ms_sketch_merge(&same, &(ms_sketch){0}), 0);
    cr_expect_eq(e.n, 10);
    cr_expect_eq(ms_sketch_quantile(&e, 0.5), 777.0);
    ms_sketch_free(&s);
    ms_sketch_free(&e);
    ms_sketch_free(&same);
}

Test(sketch, bucket_bounds)
{
    cr_expect_eq(ms_sketch_index(1), 0);
    cr_expect_leq(ms_sketch_index(UINT64_MAX), MS_SKETCH_MAX_INDEX);
    /* Every bucket value is within 1 % of the values the bucket holds. */
    for (uint64_t v = 1; v < 200000; v = v * 11 / 10 + 1) {
        double b = ms_sketch_bucket_value(ms_sketch_index(v));
        cr_expect(fabs(b - (double)v) <= 0.01 * (double)v, "v=%llu bucket value %g", (unsigned long long)v, b);
    }
    for (uint64_t v = 65530; v < 65542; v++) {
        double b = ms_sketch_bucket_value(ms_sketch_index(v));
        cr_expect(fabs(b - (double)v) <= 0.01 * (double)v, "v=%llu (table edge)", (unsigned long long)v);
    }
}

Test(stats, imbalance)
{
    /* max / mean - 1 over ranks with a non-zero total. */
    const uint64_t t1[] = {100, 200, 300};
    cr_expect_float_eq(ms_imbalance_pct(t1, 3), 50.0, 1e-9);
    const uint64_t t2[] = {0, 100, 0, 300, 0};
    cr_expect_float_eq(ms_imbalance_pct(t2, 5), 50.0, 1e-9, "zero totals are left out");
    const uint64_t t3[] = {0, 500, 0};
    cr_expect_eq(ms_imbalance_pct(t3, 3), 0.0, "one non-zero rank");
    const uint64_t t4[] = {400};
    cr_expect_eq(ms_imbalance_pct(t4, 1), 0.0, "a single rank");
    cr_expect_eq(ms_imbalance_pct(NULL, 0), 0.0);
    const uint64_t t5[] = {7, 7, 7, 7};
    cr_expect_eq(ms_imbalance_pct(t5, 4), 0.0, "balanced");

    /* The same rule through ms_stats_combine, with a rank of zero-length
     * calls (calls, but a zero total). */
    ms_stats r[3];
    for (int i = 0; i < 3; i++)
        ms_stats_init(&r[i]);
    ms_stats_add(&r[0], 0, 100);
    ms_stats_add(&r[1], 0, 0);
    ms_stats_add(&r[2], 0, 300);
    const ms_stats *p[] = {&r[0], &r[1], &r[2]};
    ms_summary s;
    cr_assert_eq(ms_stats_combine(p, 3, &s), 0);
    cr_expect_eq(s.ranks, 3);
    cr_expect_float_eq(s.imbalance_pct, 50.0, 1e-9);
    const ms_stats *single[] = {&r[2]};
    cr_assert_eq(ms_stats_combine(single, 1, &s), 0);
    cr_expect_eq(s.imbalance_pct, 0.0);
    for (int i = 0; i < 3; i++)
        ms_stats_free(&r[i]);
}

Test(stats, first_and_last)
{
    ms_stats a, b;
    ms_stats_init(&a);
    ms_stats_init(&b);
    /* Rank 0: calls at 100 (5 ns), 200 (7 ns), recorded out of order by a
     * second thread: 50 (11 ns). Rank 1: 60 (13 ns), 300 (17 ns), 310 (2 ns,
     * ends at 312 before 317). */
    ms_stats_add(&a, 100, 5);
    ms_stats_add(&a, 200, 7);
    ms_stats_add(&a, 50, 11);
    ms_stats_add(&b, 60, 13);
    ms_stats_add(&b, 300, 17);
    ms_stats_add(&b, 310, 2);
    ms_summary s;
    ms_stats_summarize(&a, &s);
    expect_close(s.first_s, 11 * NS, 0, "first of rank 0");
    expect_close(s.last_s, 7 * NS, 0, "last of rank 0");
    const ms_stats *p[] = {&a, &b};
    cr_assert_eq(ms_stats_combine(p, 2, &s), 0);
    expect_close(s.first_s, 11 * NS, 0, "first: the earliest start on any rank");
    expect_close(s.last_s, 17 * NS, 0, "last: the latest end on any rank");

    /* Ties: within a rank the later-recorded call ends last; across ranks
     * the lower rank wins. */
    ms_stats c, d;
    ms_stats_init(&c);
    ms_stats_init(&d);
    ms_stats_add(&c, 10, 5);   /* ends 15 */
    ms_stats_add(&c, 15, 0);   /* ends 15, recorded later */
    ms_stats_add(&d, 10, 3);   /* starts with c's first */
    ms_stats_add(&d, 12, 3);   /* ends 15 */
    ms_stats_summarize(&c, &s);
    cr_expect_eq(s.last_s, 0.0);
    const ms_stats *q[] = {&c, &d};
    cr_assert_eq(ms_stats_combine(q, 2, &s), 0);
    expect_close(s.first_s, 5 * NS, 0, "tie of first: lower rank");
    cr_expect_eq(s.last_s, 0.0, "tie of last: lower rank");

    /* Shifting to a common clock moves starts and ends, not durations. */
    ms_stats_shift(&d, -100);
    cr_expect_eq(d.first_start, -90);
    cr_expect_eq(d.last_end, -85);
    ms_stats_shift(&d, INT64_MAX);
    ms_stats_shift(&d, INT64_MAX);
    cr_expect_eq(d.last_end, INT64_MAX, "saturates");
    ms_stats_free(&a);
    ms_stats_free(&b);
    ms_stats_free(&c);
    ms_stats_free(&d);
}

Test(stats, empty_region_is_all_zero)
{
    ms_stats a;
    ms_stats_init(&a);
    ms_summary s;
    ms_stats_summarize(&a, &s);
    cr_expect_eq(s.calls, 0);
    cr_expect_eq(s.ranks, 0);
    cr_expect_eq(s.mean_s, 0.0);
    cr_expect_eq(s.p99_s, 0.0);
    const ms_stats *p[] = {&a};
    cr_assert_eq(ms_stats_combine(p, 1, &s), 0);
    cr_expect_eq(s.ranks, 0);
    cr_expect_eq(s.std_s, 0.0);
}
