/*
 * Roofline points from hardware-counter metrics (counters.h).
 *
 * Per set, the FLOP-rate metric is the one --flops-metric names, else the
 * first derived metric whose name contains "flop/s"; the bandwidth metric
 * the one --bandwidth-metric names, else the first whose name contains
 * "bandwidth" and "/s" (case-insensitive). Units come from the name (its
 * last [...] when it has one): FLOP/s with the decimal prefixes k, M, G, T
 * (10^3 .. 10^12); bytes/s ("Bytes/s", "Byte/s", "B/s") with k, M, G, T as
 * decimal prefixes (10^3 .. 10^12, as LIKWID's MBytes/s) and Ki, Mi, Gi, Ti
 * as binary ones (2^10 .. 2^40). A point is one (set, region, rank): gflops
 * and gbs are the sums over the counter threads of their rates in GFLOP/s
 * and GB/s (10^9 bytes/s); ai = gflops / gbs (FLOP/byte); runtime_s the
 * longest time of a counter thread. Only points with finite, positive
 * gflops and gbs are kept. A peak not given is the largest observation of
 * the kept points and marked empirical.
 */
#ifndef MPISCOPE_ROOFLINE_H
#define MPISCOPE_ROOFLINE_H

#include <stdint.h>
#include <stdio.h>

#include "counters.h"

#define MS_ROOFLINE_CSV_HEADER "region,rank,gflops,gbs,ai,runtime_s,flops_metric,bandwidth_metric"
/* The region of points that cover the whole run. */
#define MS_ROOFLINE_RUN "(run)"

typedef struct ms_roofline_opts {
    const char *flops_metric;      /* NULL: the first "flop/s" metric */
    const char *bandwidth_metric;  /* NULL: the first "bandwidth" ".../s" metric */
    double peak_gflops;            /* 0: empirical */
    double peak_gbs;               /* 0: empirical */
} ms_roofline_opts;

typedef struct ms_roofline_point {
    const char *region;            /* region name (MS_ROOFLINE_RUN: the whole run) */
    int32_t rank;
    double gflops, gbs, ai, runtime_s;
    const char *flops_metric, *bandwidth_metric;
} ms_roofline_point;

typedef struct ms_roofline {
    size_t npoints;
    ms_roofline_point *points;     /* by region, rank, set */
    size_t nrejected;              /* (set, region, rank) with a non-finite or
                                      non-positive rate */
    double peak_gflops, peak_gbs;
    int gflops_empirical, gbs_empirical;
} ms_roofline;

enum ms_rate_kind { MS_RATE_FLOPS = 0, MS_RATE_BYTES = 1 };

/* The factor from a metric's unit to GFLOP/s (MS_RATE_FLOPS) or GB/s
 * (MS_RATE_BYTES); 0 when the name has no such unit. */
double ms_roofline_unit(const char *name, enum ms_rate_kind kind);
/* The value index of the set's metric of that kind (want: an exact name,
 * or NULL to pick by the rule above); -1 when there is none. */
int ms_roofline_pick(const ms_counter_set *s, const char *want, enum ms_rate_kind kind);

/* Build the points of a run's counters (strings point into c, which must
 * outlive the result). Returns NULL when out of memory. */
ms_roofline *ms_roofline_build(const ms_counters *c, const ms_roofline_opts *o);
void ms_roofline_free(ms_roofline *r);

#endif
