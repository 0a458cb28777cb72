/* Duration statistics: see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S 1e9

void ms_stats_init(ms_stats *s)
{
    memset(s, 0, sizeof *s);
    ms_sketch_init(&s->sketch);
}

void ms_stats_free(ms_stats *s)
{
    ms_sketch_free(&s->sketch);
    memset(s, 0, sizeof *s);
}

int ms_stats_merge(ms_stats *dst, const ms_stats *src)
{
    if (src->calls == 0)
        return 0;
    if (ms_sketch_merge(&dst->sketch, &src->sketch) != 0)
        return -1;
    if (dst->calls == 0) {
        ms_sketch sk = dst->sketch;
        *dst = *src;
        dst->sketch = sk;
        return 0;
    }
    double na = (double)dst->calls, nb = (double)src->calls, n = na + nb;
    double delta = src->mean_ns - dst->mean_ns;
    dst->mean_ns += delta * nb / n;
    dst->m2 += src->m2 + delta * delta * na * nb / n;
    dst->calls += src->calls;
    dst->total_ns += src->total_ns;
    if (src->min_ns < dst->min_ns)
        dst->min_ns = src->min_ns;
    if (src->max_ns > dst->max_ns)
        dst->max_ns = src->max_ns;
    if (src->first_start < dst->first_start) {
        dst->first_start = src->first_start;
        dst->first_ns = src->first_ns;
    }
    if (src->last_end > dst->last_end) {
        dst->last_end = src->last_end;
        dst->last_ns = src->last_ns;
    }
    return 0;
}

void ms_stats_to_agg(const ms_stats *s, ms_stats_agg *a)
{
    *a = (ms_stats_agg){
        .calls = s->calls, .total_ns = s->total_ns, .min_ns = s->min_ns, .max_ns = s->max_ns,
        .mean_ns = s->mean_ns, .m2 = s->m2, .first_start = s->first_start, .first_ns = s->first_ns,
        .last_end = s->last_end, .last_ns = s->last_ns, .zero = s->sketch.zero,
        .lo = s->sketch.lo, .len = s->sketch.len, .counts = s->sketch.counts,
    };
    /* Trim empty buckets at both ends: the range is the values'. */
    while (a->len > 0 && a->counts[0] == 0)
        a->counts++, a->lo++, a->len--;
    while (a->len > 0 && a->counts[a->len - 1] == 0)
        a->len--;
    if (a->len == 0)
        a->lo = 0;
}

int ms_stats_agg_check(const ms_stats_agg *a)
{
    if (a->calls == 0 || a->min_ns > a->max_ns || a->lo < 0 || a->len < 0 ||
        a->len > MS_SKETCH_MAX_INDEX + 1 - a->lo || a->zero > a->calls)
        return -1;
    if ((a->zero > 0) != (a->min_ns == 0))
        return -1;
    uint64_t n = a->zero;
    for (int32_t i = 0; i < a->len; i++) {
        if (a->counts[i] > a->calls - n)
            return -1;
        n += a->counts[i];
    }
    if (n != a->calls || (a->max_ns > 0 && a->len == 0))
        return -1;
    /* total within [calls x min, calls x max], without overflow. */
    uint64_t q = a->total_ns / a->calls;
    if (q > a->max_ns || q + (a->total_ns % a->calls != 0) < a->min_ns)
        return -1;
    if (!isfinite(a->mean_ns) || !isfinite(a->m2) || a->m2 < 0.0 || a->mean_ns < 0.0)
        return -1;
    if (a->first_ns < a->min_ns || a->first_ns > a->max_ns || a->last_ns < a->min_ns || a->last_ns > a->max_ns)
        return -1;
    return 0;
}

int ms_stats_from_agg(ms_stats *s, const ms_stats_agg *a)
{
    if (a->len > 0) {
        s->sketch.counts = calloc((size_t)a->len, sizeof *s->sketch.counts);
        if (!s->sketch.counts)
            return -1;
        memcpy(s->sketch.counts, a->counts, (size_t)a->len * sizeof *a->counts);
        s->sketch.lo = a->lo;
        s->sketch.len = a->len;
    }
    s->sketch.zero = a->zero;
    s->sketch.n = a->calls;
    s->sketch.min = a->min_ns;
    s->sketch.max = a->max_ns;
    s->calls = a->calls;
    s->total_ns = a->total_ns;
    s->min_ns = a->min_ns;
    s->max_ns = a->max_ns;
    s->mean_ns = a->mean_ns;
    s->m2 = a->m2;
    s->first_start = a->first_start;
    s->first_ns = a->first_ns;
    s->last_end = a->last_end;
    s->last_ns = a->last_ns;
    return 0;
}

void ms_stats_shift(ms_stats *s, int64_t delta)
{
    if (s->calls == 0)
        return;
    s->first_start = ms_sat_add_i64(s->first_start, delta);
    s->last_end = ms_sat_add_i64(s->last_end, delta);
}

static void fill(const ms_stats *s, ms_summary *out)
{
    memset(out, 0, sizeof *out);
    if (s->calls == 0)
        return;
    out->calls = s->calls;
    out->total_s = (double)s->total_ns / NS_PER_S;
    out->mean_s = s->mean_ns / NS_PER_S;
    out->std_s = sqrt(s->m2 > 0.0 ? s->m2 / (double)s->calls : 0.0) / NS_PER_S;
    out->min_s = (double)s->min_ns / NS_PER_S;
    out->max_s = (double)s->max_ns / NS_PER_S;
    out->p50_s = ms_sketch_quantile(&s->sketch, 0.50) / NS_PER_S;
    out->p95_s = ms_sketch_quantile(&s->sketch, 0.95) / NS_PER_S;
    out->p99_s = ms_sketch_quantile(&s->sketch, 0.99) / NS_PER_S;
    out->first_s = (double)s->first_ns / NS_PER_S;
    out->last_s = (double)s->last_ns / NS_PER_S;
}

void ms_stats_summarize(const ms_stats *s, ms_summary *out)
{
    fill(s, out);
    out->ranks = s->calls > 0;
}

double ms_imbalance_pct(const uint64_t *totals_ns, size_t n)
{
    size_t k = 0;
    uint64_t max = 0;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (totals_ns[i] == 0)
            continue;
        k++;
        sum += (double)totals_ns[i];
        if (totals_ns[i] > max)
            max = totals_ns[i];
    }
    if (k < 2)
        return 0.0;
    return ((double)max / (sum / (double)k) - 1.0) * 100.0;
}

int ms_stats_combine(const ms_stats *const *per_rank, size_t n, ms_summary *out)
{
    ms_stats all;
    ms_stats_init(&all);
    uint32_t ranks = 0;
    uint64_t max = 0;
    size_t nonzero = 0;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        const ms_stats *s = per_rank[i];
        if (s->calls == 0)
            continue;
        ranks++;
        /* The same rule as ms_imbalance_pct, without a totals array. */
        if (s->total_ns > 0) {
            nonzero++;
            sum += (double)s->total_ns;
            if (s->total_ns > max)
                max = s->total_ns;
        }
        if (ms_stats_merge(&all, s) != 0) {
            ms_stats_free(&all);
            return -1;
        }
    }
    fill(&all, out);
    out->ranks = ranks;
    out->imbalance_pct = nonzero < 2 ? 0.0 : ((double)max / (sum / (double)nonzero) - 1.0) * 100.0;
    ms_stats_free(&all);
    return 0;
}
