/*
 * Duration statistics of one region: per rank (ms_stats, an accumulator fed
 * call by call and mergeable), and over all ranks (ms_summary).
 *
 * The definitions follow scope-profiler's MPIRegion (DESIGN section 6):
 *   calls, total       summed over ranks
 *   mean, std          over every call on every rank (std: population, i.e.
 *                      divided by n); per rank by Welford's update, across
 *                      ranks by Chan et al.'s pairwise formula
 *   min, max           over every call on every rank
 *   p50, p95, p99      over every call on every rank, from the merged sketch
 *                      (sketch.h)
 *   first              duration of the call that started earliest on any rank
 *   last               duration of the call that ended latest on any rank
 *   imbalance_pct      (max over ranks of the per-rank total / mean of the
 *                      per-rank totals - 1) x 100, over ranks with a non-zero
 *                      total; 0 with fewer than two such ranks
 *
 * Where this differs from scope-profiler 0.7:
 *   - Percentiles: scope-profiler uses numpy.percentile, which interpolates
 *     linearly between the two values around rank q (n - 1); we report the
 *     value at rank floor(q (n - 1)) within 1 % (the sketch's accuracy), so
 *     on few calls the two can differ by up to the gap between neighbours.
 *   - first/last within a rank: scope-profiler takes the first and the last
 *     call in recording order; we take the call with the earliest start and
 *     the one with the latest end, which is the same for one thread and
 *     well defined when several threads record. Ties go to the call recorded
 *     first (first) or last (last) within a rank, and to the lowest rank
 *     across ranks, as scope-profiler's min()/max() over ranks do.
 *   - Across ranks, starts and ends are compared on a common clock (each
 *     rank's tool clock shifted to CLOCK_REALTIME by its calibration), where
 *     scope-profiler compares raw per-rank timestamps.
 * A region with no calls has all statistics 0, as in scope-profiler.
 */
#ifndef MPISCOPE_STATS_H
#define MPISCOPE_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "sketch.h"

typedef struct ms_stats {
    uint64_t calls;
    uint64_t total_ns;
    uint64_t min_ns, max_ns;
    double mean_ns;           /* Welford */
    double m2;                /* sum of squared deviations from the mean, ns^2 */
    int64_t first_start;      /* earliest start, and that call's duration */
    uint64_t first_ns;
    int64_t last_end;         /* latest end, and that call's duration */
    uint64_t last_ns;
    ms_sketch sketch;
} ms_stats;

/* a + b, saturated at the ends of int64_t (times on any ns clock). */
static inline int64_t ms_sat_add_i64(int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b)
        return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b)
        return INT64_MIN;
    return a + b;
}

void ms_stats_init(ms_stats *s);
void ms_stats_free(ms_stats *s);

/* start + dur, at most INT64_MAX. */
static inline int64_t ms_stats_end_of(int64_t start, uint64_t dur)
{
    if (dur > (uint64_t)INT64_MAX || start > INT64_MAX - (int64_t)dur)
        return INT64_MAX;
    return start + (int64_t)dur;
}

/* One call that started at `start` (any ns clock) and lasted dur_ns.
 * Returns 0, or -1 when out of memory (s unchanged). Inline: the writer
 * thread of summary mode calls it for every event. */
static inline int ms_stats_add(ms_stats *s, int64_t start, uint64_t dur_ns)
{
    if (ms_sketch_add(&s->sketch, dur_ns) != 0)
        return -1;
    int64_t end = ms_stats_end_of(start, dur_ns);
    if (s->calls == 0) {
        s->min_ns = s->max_ns = dur_ns;
        s->first_start = start;
        s->first_ns = dur_ns;
        s->last_end = end;
        s->last_ns = dur_ns;
    } else {
        if (dur_ns < s->min_ns)
            s->min_ns = dur_ns;
        if (dur_ns > s->max_ns)
            s->max_ns = dur_ns;
        if (start < s->first_start) {
            s->first_start = start;
            s->first_ns = dur_ns;
        }
        if (end >= s->last_end) {
            s->last_end = end;
            s->last_ns = dur_ns;
        }
    }
    s->calls++;
    s->total_ns += dur_ns;
    double d = (double)dur_ns;
    double delta = d - s->mean_ns;
    s->mean_ns += delta / (double)s->calls;
    s->m2 += delta * (d - s->mean_ns);
    return 0;
}

/* dst += src, e.g. one rank's calls into the calls of lower ranks: ties of
 * first and of last go to dst. Returns 0, or -1 when out of memory (dst
 * unchanged). */
int ms_stats_merge(ms_stats *dst, const ms_stats *src);

/* Move the start/end times by delta ns (saturating), e.g. from a rank's
 * tool clock to the common clock. */
void ms_stats_shift(ms_stats *s, int64_t delta);

/* An ms_stats as summary mode stores it (log_format.h, MS_CTL_SUMMARY):
 * the same fields, the sketch as its bucket counts. */
typedef struct ms_stats_agg {
    uint64_t calls, total_ns, min_ns, max_ns;
    double mean_ns, m2;
    int64_t first_start;
    uint64_t first_ns;
    int64_t last_end;
    uint64_t last_ns;
    uint64_t zero;            /* calls shorter than 1 ns */
    int32_t lo, len;          /* buckets lo .. lo + len - 1 ... */
    const uint64_t *counts;   /* ... and their counts */
} ms_stats_agg;

/* The aggregate of s (calls > 0); a->counts points into s. */
void ms_stats_to_agg(const ms_stats *s, ms_stats_agg *a);

/* Check an aggregate read from a log: 0 when it is one that ms_stats_to_agg
 * can give (consistent counts, bounds and order), else -1. */
int ms_stats_agg_check(const ms_stats_agg *a);

/* s (initialized, empty) := the statistics of a checked aggregate. Returns
 * 0, or -1 when out of memory (s stays empty). */
int ms_stats_from_agg(ms_stats *s, const ms_stats_agg *a);

/* Statistics in seconds. */
typedef struct ms_summary {
    uint32_t ranks;           /* ranks with at least one call */
    uint64_t calls;
    double total_s, mean_s, std_s, min_s, max_s;
    double p50_s, p95_s, p99_s;
    double first_s, last_s;
    double imbalance_pct;
} ms_summary;

/* One rank's statistics (ranks = 1 when it has calls, imbalance 0). */
void ms_stats_summarize(const ms_stats *s, ms_summary *out);

/* Statistics over ranks: per_rank[i] is rank i's accumulator (any order of
 * ranks that is the tie-break order, normally ascending rank). Returns 0, or
 * -1 when out of memory. */
int ms_stats_combine(const ms_stats *const *per_rank, size_t n, ms_summary *out);

/* imbalance_pct of these per-rank totals (see above). */
double ms_imbalance_pct(const uint64_t *totals_ns, size_t n);

#endif
