/*
 * A mergeable quantile sketch of durations in ns (the DDSketch scheme:
 * Masson, Rim and Lee, VLDB 2019), with a relative accuracy of 1 %.
 *
 * With a = 0.01 and gamma = (1 + a) / (1 - a), a value v >= 1 falls into
 * bucket i = ceil(log_gamma(v)), which holds (gamma^(i-1), gamma^i], and the
 * bucket stands for 2 gamma^i / (gamma + 1): within a relative error of a of
 * every value it holds. Values below 1 ns (zero-length calls) are counted in
 * a separate zero bucket that stands for 0. A 64-bit value needs bucket
 * indices 0 .. MS_SKETCH_MAX_INDEX only, so a sketch holds counts for one
 * contiguous index range that grows as values arrive (at most about 18 KiB;
 * a region whose calls span a factor of ten needs 116 buckets). Merging adds
 * counts bucket by bucket and is exact: merging sketches gives the sketch of
 * all their values, in any order.
 *
 * The q-quantile is the value at 0-based rank floor(q (n - 1)) of the sorted
 * values. The estimate is within 1 % of that value: it is the bucket's value,
 * clamped to the exact minimum and maximum, and the exact minimum (maximum)
 * itself at rank 0 (n - 1).
 */
#ifndef MPISCOPE_SKETCH_H
#define MPISCOPE_SKETCH_H

#include <stddef.h>
#include <stdint.h>

#define MS_SKETCH_ACCURACY 0.01
#define MS_SKETCH_MAX_INDEX 2240  /* ceil(log_gamma(2^64)) is 2218, plus room */

typedef struct ms_sketch {
    uint64_t *counts;   /* counts[i] for bucket lo + i */
    int32_t lo;         /* first bucket held */
    int32_t len;        /* buckets held */
    uint64_t zero;      /* values below 1 */
    uint64_t n;         /* all values */
    uint64_t min, max;  /* exact, valid when n > 0 */
} ms_sketch;

void ms_sketch_init(ms_sketch *s);
void ms_sketch_free(ms_sketch *s);

/* Count value v (ns) once, or `count` times. Returns 0, or -1 when out of
 * memory (the sketch is then unchanged). */
int ms_sketch_add(ms_sketch *s, uint64_t v);
int ms_sketch_add_n(ms_sketch *s, uint64_t v, uint64_t count);

/* dst += src. Returns 0, or -1 when out of memory (dst unchanged). */
int ms_sketch_merge(ms_sketch *dst, const ms_sketch *src);

/* The q-quantile (0 <= q <= 1) in ns; 0 for an empty sketch. */
double ms_sketch_quantile(const ms_sketch *s, double q);

/* The bucket of a value >= 1, and the value a bucket stands for. */
int32_t ms_sketch_index(uint64_t v);
double ms_sketch_bucket_value(int32_t index);

#endif
