/*
 * Encoders for the records of a data block (see log_format.h). Used by the
 * per-thread buffers on the hot path, and by tests that synthesize logs.
 * Each returns the end of what it wrote; the caller guarantees room.
 */
#ifndef MPISCOPE_RECORDS_H
#define MPISCOPE_RECORDS_H

#include <string.h>

#include "log_format.h"

/* Bytes an event record can take at most. */
#define MS_EVENT_MAX (3u * MS_VARINT_MAX)
/* Bytes a region definition can take at most. */
#define MS_REGION_DEF_MAX (3u * MS_VARINT_MAX + MS_MAX_NAME)

static inline __attribute__((always_inline)) uint8_t *ms_rec_event(uint8_t *p, uint32_t region, uint64_t gap_ns, uint64_t dur_ns)
{
    p = ms_put_varint(p, ((uint64_t)region << 2) | MS_REC_EVENT);
    p = ms_put_varint(p, gap_ns);
    return ms_put_varint(p, dur_ns);
}

static inline uint8_t *ms_rec_time(uint8_t *p, uint64_t t_ns)
{
    p = ms_put_varint(p, ((uint64_t)MS_CTL_TIME << 2) | MS_REC_CONTROL);
    return ms_put_varint(p, t_ns);
}

static inline uint8_t *ms_rec_region(uint8_t *p, uint32_t id, const char *name, size_t len)
{
    if (len > MS_MAX_NAME)
        len = MS_MAX_NAME;
    p = ms_put_varint(p, ((uint64_t)MS_CTL_REGION << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, id);
    p = ms_put_varint(p, len);
    memcpy(p, name, len);
    return p + len;
}

/* A communicator: its id and its members as world ranks, in comm rank order. */
static inline uint8_t *ms_rec_comm(uint8_t *p, uint64_t id, const int *world_ranks, uint32_t n)
{
    p = ms_put_varint(p, ((uint64_t)MS_CTL_COMM << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, id);
    p = ms_put_varint(p, n);
    for (uint32_t i = 0; i < n; i++)
        p = ms_put_varint(p, (uint64_t)(uint32_t)world_ranks[i]);
    return p;
}

#endif
