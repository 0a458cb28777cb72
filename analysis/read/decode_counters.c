/*
 * The log reader's hardware-counter records (docs/FORMAT.md "Hardware
 * counters"): counter sets and counter samples.
 */
#include <string.h>

#include "log_reader_int.h"

/* A counter name: varint len (at most MS_MAX_COUNTER_NAME), bytes, no NUL. */
static int get_counter_name(const uint8_t **pp, const uint8_t *end, const char **s, size_t *len)
{
    uint64_t n;
    if (get_varint(pp, end, &n) != 0 || n > MS_MAX_COUNTER_NAME || n > (uint64_t)(end - *pp) ||
        memchr(*pp, '\0', (size_t)n))
        return -1;
    *s = (const char *)*pp;
    *len = (size_t)n;
    *pp += n;
    return 0;
}

ms_read_status ms_rd_counter_set(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    uint64_t id, nev, n;
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &nev) != 0 || get_varint(pp, end, &n) != 0)
        return ms_rd_corrupt_at(r, "counter-set record runs past its block");
    if (id >= MS_MAX_COUNTER_SETS || n > MS_MAX_COUNTER_VALUES || nev > n)
        return ms_rd_corrupt_at(r, "counter set with an id or value count the format does not allow");
    ms_cset_ref ref = {.nevents = (uint32_t)nev, .n = (uint32_t)n};
    if (get_counter_name(pp, end, &ref.group, &ref.group_len) != 0)
        return ms_rd_corrupt_at(r, "counter-set group name too long, past its block or with a NUL byte");
    for (uint64_t i = 0; i < n; i++)
        if (get_counter_name(pp, end, &ref.name[i], &ref.len[i]) != 0)
            return ms_rd_corrupt_at(r, "counter name too long, past its block or with a NUL byte");
    uint32_t idx;
    int is_new;
    int rc = ms_cset_intern(&r->csets, &ref, &idx, &is_new);
    if (rc == -2)
        return ms_rd_corrupt_at(r, "more counter sets than a log may define");
    if (rc != 0)
        return ms_rd_nomem(r);
    t->cset[id] = (uint16_t)(idx + 1);
    if (is_new && r->cb && r->cb->counter_set && r->cb->counter_set(r->ctx, idx, &r->csets.v[idx]) != 0)
        return ms_rd_stopped(r);
    return MS_READ_OK;
}

ms_read_status ms_rd_counter_sample(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    uint64_t set, region, cthread, cpu, count, flags, n;
    if (get_varint(pp, end, &set) != 0 || get_varint(pp, end, &region) != 0 || get_varint(pp, end, &cthread) != 0 ||
        get_varint(pp, end, &cpu) != 0 || get_varint(pp, end, &count) != 0 || get_varint(pp, end, &flags) != 0 ||
        (uint64_t)(end - *pp) < 8)
        return ms_rd_corrupt_at(r, "counter-sample record runs past its block");
    double time_s, values[MS_MAX_COUNTER_VALUES];
    memcpy(&time_s, *pp, 8);
    *pp += 8;
    if (get_varint(pp, end, &n) != 0)
        return ms_rd_corrupt_at(r, "counter-sample record runs past its block");
    if (set >= MS_MAX_COUNTER_SETS || !t->cset[set])
        return ms_rd_corrupt_at(r, "counter sample of an undefined set");
    const ms_counter_set *def = &r->csets.v[t->cset[set] - 1];
    if (n != def->n)
        return ms_rd_corrupt_at(r, "counter sample with another value count than its set");
    if (n * 8u > (uint64_t)(end - *pp))
        return ms_rd_corrupt_at(r, "counter-sample record runs past its block");
    if (cthread > UINT32_MAX || cpu > UINT32_MAX || (flags & ~(uint64_t)MS_SAMPLE_FINAL) != 0)
        return ms_rd_corrupt_at(r, "counter sample with a thread, cpu or flags the format does not allow");
    if (!(time_s >= 0.0 && time_s <= 1e12))
        return ms_rd_corrupt_at(r, "counter sample time out of range");
    memcpy(values, *pp, (size_t)n * 8u);
    *pp += n * 8u;
    ms_counter_sample s = {.thread = t->thread, .set = t->cset[set] - 1u, .region = MS_REGION_RUN,
                           .cthread = (uint32_t)cthread, .cpu = (uint32_t)cpu, .count = count,
                           .flags = (uint32_t)flags, .time_s = time_s, .n = (uint32_t)n, .values = values};
    if (region != 0) {
        uint32_t b = region_of(t, region - 1);
        if (b == MS_IDMAP_NONE)
            return ms_rd_corrupt_at(r, "counter sample of an undefined region");
        s.region = r->bind_region[b];
    }
    if (r->cb && r->cb->counter_sample && r->cb->counter_sample(r->ctx, &s) != 0)
        return ms_rd_stopped(r);
    return MS_READ_OK;
}
