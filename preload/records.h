/*
 * Encoders for the records of a data block (see log_format.h). Used by the
 * per-thread buffers on the hot path, and by tests that synthesize logs.
 * Each returns the end of what it wrote; the caller guarantees room.
 */
#ifndef MPISCOPE_RECORDS_H
#define MPISCOPE_RECORDS_H

#include <string.h>

#include "../common/log_format.h"
#include "../common/req_codec.h"

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

/* A control record of an id and a name cut to max bytes. */
static inline uint8_t *ms_rec_named(uint8_t *p, uint64_t ctl, uint64_t id, const char *name, size_t len, size_t max)
{
    if (len > max)
        len = max;
    p = ms_put_varint(p, (ctl << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, id);
    p = ms_put_varint(p, len);
    memcpy(p, name, len);
    return p + len;
}

static inline uint8_t *ms_rec_region(uint8_t *p, uint32_t id, const char *name, size_t len)
{
    return ms_rec_named(p, MS_CTL_REGION, id, name, len, MS_MAX_NAME);
}

/* Bytes ms_rec_aside takes at most. */
#define MS_ASIDE_MAX (2u * (MS_VARINT_MAX + 1u) + MS_EVENT_MAX)

/* An event [t0, t1] of `region` that leaves the stream's time cursor at
 * `cursor`, as it was: a time record to t0, the event, a time record back
 * (the tool's own waits, docs/FORMAT.md), so that records encoded against
 * the cursor before it stay valid. */
static inline uint8_t *ms_rec_aside(uint8_t *p, uint32_t region, uint64_t t0, uint64_t t1, uint64_t cursor)
{
    p = ms_rec_time(p, t0);
    p = ms_rec_event(p, region, 0, t1 > t0 ? t1 - t0 : 0);
    return ms_rec_time(p, cursor);
}

/* Bytes a call-site record and an object record can take at most. */
#define MS_SITE_DEF_MAX ((3u + MS_MAX_SITE_FRAMES) * MS_VARINT_MAX)
#define MS_OBJECT_DEF_MAX (6u * MS_VARINT_MAX + MS_MAX_OBJECT_PATH + MS_MAX_BUILD_ID)

/* The call site of region id `id`: n (<= MS_MAX_SITE_FRAMES) return addresses. */
static inline uint8_t *ms_rec_site(uint8_t *p, uint32_t id, const uint64_t *pc, unsigned n)
{
    p = ms_put_varint(p, ((uint64_t)MS_CTL_SITE << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, id);
    p = ms_put_varint(p, n);
    for (unsigned i = 0; i < n; i++)
        p = ms_put_varint(p, pc[i]);
    return p;
}

/* An ELF object of the process (path and build-id are cut to their limits). */
static inline uint8_t *ms_rec_object(uint8_t *p, uint64_t base, uint64_t lo, uint64_t hi, const char *path,
                                     size_t path_len, const uint8_t *build_id, size_t id_len)
{
    if (path_len > MS_MAX_OBJECT_PATH)
        path_len = MS_MAX_OBJECT_PATH;
    if (id_len > MS_MAX_BUILD_ID)
        id_len = MS_MAX_BUILD_ID;
    p = ms_put_varint(p, ((uint64_t)MS_CTL_OBJECT << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, base);
    p = ms_put_varint(p, lo);
    p = ms_put_varint(p, hi);
    p = ms_put_varint(p, path_len);
    memcpy(p, path, path_len);
    p += path_len;
    p = ms_put_varint(p, id_len);
    memcpy(p, build_id, id_len);
    return p + id_len;
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

/* Bytes a communicator origin or name record takes at most (version 8). */
#define MS_COMM_ORIGIN_REC_MAX ((7u + MS_MAX_COMM_DIMS) * MS_VARINT_MAX)
#define MS_COMM_NAME_REC_MAX (3u * MS_VARINT_MAX + MS_MAX_COMM_NAME)

/* How a communicator was made (version 8): the creating call's op, its
 * parent (-1: none), the creation's number, the creating call's region id
 * (-1: none) and a Cartesian communicator's dimensions (ndims at most
 * MS_MAX_COMM_DIMS). */
static inline uint8_t *ms_rec_comm_origin(uint8_t *p, uint64_t id, uint32_t op, int64_t parent, uint64_t seq,
                                          int64_t region, const int *dims, uint32_t ndims)
{
    p = ms_put_varint(p, ((uint64_t)MS_CTL_COMM_ORIGIN << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, id);
    p = ms_put_varint(p, op);
    p = ms_put_varint(p, (uint64_t)parent + 1u);
    p = ms_put_varint(p, seq);
    p = ms_put_varint(p, (uint64_t)region + 1u);
    p = ms_put_varint(p, ndims);
    for (uint32_t i = 0; i < ndims; i++)
        p = ms_put_varint(p, (uint64_t)(uint32_t)dims[i]);
    return p;
}

/* The name given to a communicator (version 8), cut to MS_MAX_COMM_NAME. */
static inline uint8_t *ms_rec_comm_name(uint8_t *p, uint64_t id, const char *name, size_t len)
{
    return ms_rec_named(p, MS_CTL_COMM_NAME, id, name, len, MS_MAX_COMM_NAME);
}

/* Bytes a file record takes at most. */
#define MS_FILE_REC_MAX (4u * MS_VARINT_MAX + MS_MAX_FILE_PATH)

/* A file of MPI-IO (version 5): its id, the communicator it was opened on
 * (-1: none), its path (cut to MS_MAX_FILE_PATH bytes). */
static inline uint8_t *ms_rec_file(uint8_t *p, uint32_t id, int64_t comm, const char *path, size_t len)
{
    if (len > MS_MAX_FILE_PATH)
        len = MS_MAX_FILE_PATH;
    p = ms_put_varint(p, ((uint64_t)MS_CTL_FILE << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, id);
    p = ms_put_varint(p, (uint64_t)comm + 1u);
    p = ms_put_varint(p, len);
    memcpy(p, path, len);
    return p + len;
}

/* Bytes a message record takes at most: its head and seven varints. */
#define MS_MESSAGE_REC_MAX (1u + 7u * MS_VARINT_MAX)

/* A message record (version 5): one request the thread's next event
 * completed or started. comm -1, peer, tag and bytes -1: none or not known;
 * post: the stream's time cursor at this record minus the start of the call
 * that posted the request (0 unless flags has MS_MESSAGE_POSTED). */
static inline __attribute__((always_inline)) uint8_t *ms_rec_message(uint8_t *p, uint32_t op, uint32_t flags,
                                                                     int64_t comm, int64_t peer, int64_t tag,
                                                                     int64_t bytes, int64_t post)
{
    uint64_t head = ((unsigned)MS_CTL_MESSAGE << 2) | MS_REC_CONTROL;
    uint64_t c = (uint64_t)comm + 1u, zp = ms_zigzag(peer), zt = ms_zigzag(tag);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Most often the head and the next five fields are one byte each:
     * written in one store (the caller leaves MS_MESSAGE_REC_MAX bytes of
     * room). */
    if (__builtin_expect(((uint64_t)op | flags | c | zp | zt) < 0x80u, 1)) {
        uint64_t w = head | (uint64_t)op << 8 | (uint64_t)flags << 16 | c << 24 | zp << 32 | zt << 40;
        memcpy(p, &w, sizeof w);
        p += 6;
        p = ms_put_varint(p, ms_zigzag(bytes));
        return ms_put_varint(p, ms_zigzag(post));
    }
#endif
    *p++ = (uint8_t)head;
    p = ms_put_varint(p, op);
    p = ms_put_varint(p, flags);
    p = ms_put_varint(p, c);
    p = ms_put_varint(p, zp);
    p = ms_put_varint(p, zt);
    p = ms_put_varint(p, ms_zigzag(bytes));
    return ms_put_varint(p, ms_zigzag(post));
}
_Static_assert(((MS_CTL_MESSAGE << 2) | MS_REC_CONTROL) < 0x80, "a message record's head is one byte");

/* Request records: common/req_codec.h, their one codec. */

/* GPU records (version 4): a stream's identity, the launch of the next
 * event, dropped records, the CUPTI overhead track. */
#define MS_GPU_REC_MAX (4u * MS_VARINT_MAX)
static inline uint8_t *ms_rec_gpu_stream(uint8_t *p, uint32_t device, uint32_t context, uint32_t stream)
{
    p = ms_put_varint(p, ((uint64_t)MS_CTL_GPU_STREAM << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, device);
    p = ms_put_varint(p, context);
    return ms_put_varint(p, stream);
}

static inline uint8_t *ms_rec_gpu_launch(uint8_t *p, uint32_t host_thread_plus1, uint64_t t)
{
    p = ms_put_varint(p, ((uint64_t)MS_CTL_GPU_LAUNCH << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, host_thread_plus1);
    return ms_put_varint(p, t);
}

static inline uint8_t *ms_rec_gpu_dropped(uint8_t *p, uint64_t n)
{
    p = ms_put_varint(p, ((uint64_t)MS_CTL_GPU_DROPPED << 2) | MS_REC_CONTROL);
    return ms_put_varint(p, n);
}

static inline uint8_t *ms_rec_gpu_tool(uint8_t *p)
{
    return ms_put_varint(p, ((uint64_t)MS_CTL_GPU_TOOL << 2) | MS_REC_CONTROL);
}

#endif
