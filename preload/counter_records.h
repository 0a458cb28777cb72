/*
 * Encoders for the hardware-counter records of a data block
 * (MS_CTL_COUNTER_SET, MS_CTL_COUNTER_SAMPLE; log_format.h). Used by the
 * LIKWID collector (likwid/) and by tests that synthesize logs. Each returns
 * the end of what it wrote; the caller guarantees room (the _MAX sizes).
 */
#ifndef MPISCOPE_COUNTER_RECORDS_H
#define MPISCOPE_COUNTER_RECORDS_H

#include <string.h>

#include "../common/log_format.h"

/* Bytes a counter-set definition and a sample can take at most. */
#define MS_COUNTER_SET_MAX \
    (5u * MS_VARINT_MAX + (MS_MAX_COUNTER_VALUES + 1u) * (MS_VARINT_MAX + MS_MAX_COUNTER_NAME))
#define MS_COUNTER_SAMPLE_MAX (8u * MS_VARINT_MAX + 8u + MS_MAX_COUNTER_VALUES * 8u)

static inline uint8_t *ms_rec_name_(uint8_t *p, const char *s)
{
    size_t len = s ? strlen(s) : 0;
    if (len > MS_MAX_COUNTER_NAME)
        len = MS_MAX_COUNTER_NAME;
    p = ms_put_varint(p, len);
    if (len)
        memcpy(p, s, len);
    return p + len;
}

/* Set `id`: group name, then n value names (the first nevents raw events,
 * the rest derived metrics); n <= MS_MAX_COUNTER_VALUES. */
static inline uint8_t *ms_rec_counter_set(uint8_t *p, uint32_t id, const char *group, const char *const *names,
                                          uint32_t nevents, uint32_t n)
{
    p = ms_put_varint(p, ((uint64_t)MS_CTL_COUNTER_SET << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, id);
    p = ms_put_varint(p, nevents);
    p = ms_put_varint(p, n);
    p = ms_rec_name_(p, group);
    for (uint32_t i = 0; i < n; i++)
        p = ms_rec_name_(p, names[i]);
    return p;
}

static inline uint8_t *ms_put_double(uint8_t *p, double v)
{
    memcpy(p, &v, 8);
    return p + 8;
}

/* A sample of set `set` for region `region_plus1` (0: the whole run). */
static inline uint8_t *ms_rec_counter_sample(uint8_t *p, uint32_t set, uint64_t region_plus1, uint32_t cthread,
                                             uint32_t cpu, uint64_t count, uint32_t flags, double time_s,
                                             const double *values, uint32_t n)
{
    p = ms_put_varint(p, ((uint64_t)MS_CTL_COUNTER_SAMPLE << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, set);
    p = ms_put_varint(p, region_plus1);
    p = ms_put_varint(p, cthread);
    p = ms_put_varint(p, cpu);
    p = ms_put_varint(p, count);
    p = ms_put_varint(p, flags);
    p = ms_put_double(p, time_s);
    p = ms_put_varint(p, n);
    for (uint32_t i = 0; i < n; i++)
        p = ms_put_double(p, values[i]);
    return p;
}

#endif
