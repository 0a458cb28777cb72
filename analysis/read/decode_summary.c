/*
 * The log reader's summary records (docs/FORMAT.md "Summary mode"): the
 * aggregate of all calls of one region id on one thread.
 */
#include <stdlib.h>
#include <string.h>

#include "log_reader_int.h"

static int get_double(const uint8_t **pp, const uint8_t *end, double *v)
{
    if (end - *pp < 8)
        return -1;
    memcpy(v, *pp, 8);
    *pp += 8;
    return 0;
}

ms_read_status ms_rd_summary(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    uint64_t id, f[4], first_t, first_ns, last_t, last_ns, window, excl, zero, lo, len;
    double mean, m2;
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &f[0]) != 0 || get_varint(pp, end, &f[1]) != 0 ||
        get_varint(pp, end, &f[2]) != 0 || get_varint(pp, end, &f[3]) != 0 || get_double(pp, end, &mean) != 0 ||
        get_double(pp, end, &m2) != 0 || get_varint(pp, end, &first_t) != 0 || get_varint(pp, end, &first_ns) != 0 ||
        get_varint(pp, end, &last_t) != 0 || get_varint(pp, end, &last_ns) != 0 ||
        get_varint(pp, end, &window) != 0 || get_varint(pp, end, &excl) != 0 || get_varint(pp, end, &zero) != 0 ||
        get_varint(pp, end, &lo) != 0 || get_varint(pp, end, &len) != 0)
        return ms_rd_corrupt_at(r, "summary record runs past its block");
    if (lo > MS_SKETCH_MAX_INDEX || len > MS_SKETCH_MAX_INDEX + 1u - lo)
        return ms_rd_corrupt_at(r, "summary record with sketch buckets out of range");
    if (!r->sum_counts && !(r->sum_counts = malloc((MS_SKETCH_MAX_INDEX + 1u) * sizeof *r->sum_counts)))
        return ms_rd_nomem(r);
    for (uint64_t i = 0; i < len; i++)
        if (get_varint(pp, end, &r->sum_counts[i]) != 0)
            return ms_rd_corrupt_at(r, "summary record runs past its block");
    uint32_t b = region_of(t, id);
    if (b == MS_IDMAP_NONE)
        return ms_rd_corrupt_at(r, "summary of an undefined region");
    if (first_t > MS_RD_MAX_TIME || last_t > MS_RD_MAX_TIME)
        return ms_rd_corrupt_at(r, "summary time out of range");
    ms_summary_rec s = {
        .thread = t->thread, .region = r->bind_region[b], .site = r->bind_site[b],
        .agg = {.calls = f[0], .total_ns = f[1], .min_ns = f[2], .max_ns = f[3], .mean_ns = mean, .m2 = m2,
                .first_start = (int64_t)to_ns(r, first_t), .first_ns = first_ns,
                .last_end = (int64_t)to_ns(r, last_t), .last_ns = last_ns, .zero = zero,
                .lo = (int32_t)lo, .len = (int32_t)len, .counts = r->sum_counts},
        .window_ns = window, .excl_ns = excl,
    };
    if (ms_stats_agg_check(&s.agg) != 0 || window > s.agg.total_ns || excl > s.agg.total_ns)
        return ms_rd_corrupt_at(r, "inconsistent summary record");
    r->res->summarized += s.agg.calls;
    if (r->cb && r->cb->summary && r->cb->summary(r->ctx, &s) != 0)
        return ms_rd_stopped(r);
    return MS_READ_OK;
}
