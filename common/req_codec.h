/*
 * Request records (docs/FORMAT.md "Requests"; log_format.h MS_CTL_REQUEST):
 * their one codec. The field layout of every kind is written and read here
 * only: the application's path and summary mode's writer thread write them
 * (pmpi/request_facts.h, preload/summary_requests.c), the merge's reader
 * and the writer thread read them (analysis/read/decode_request.c,
 * req_records.h).
 *
 *   encoders     ms_rec_request (head, kind and flags, handle, where) and
 *                what follows it: ms_rec_request_status (DONE with
 *                MS_REQF_STATUS), ms_rec_request_parts (NEW, REF with
 *                MS_REQF_PARTS); ms_rec_request_carried, ms_rec_request_base
 *                (whole records). On the hot path: inline, unchecked, the
 *                caller leaves the room that the _MAX sizes say.
 *   ms_rq_parse  a record after its head, checked against the end of its
 *                block and against what a writer writes
 *   ms_rq_read_in  the same for a record known to lie whole in a buffer
 *                that its writer filled (a kind of the application's path:
 *                not CARRIED nor BASE), unchecked; ms_rq_skip: past such a
 *                record, checked
 * MPI-free.
 */
#ifndef MPISCOPE_REQ_CODEC_H
#define MPISCOPE_REQ_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "log_format.h"
#include "req_match.h"

/* One request record as read. */
typedef struct ms_rq_record {
    uint32_t what;            /* kind and flags */
    uint64_t handle, where;   /* where: absolute, from the thread's base */
    int64_t peer, tag, bytes; /* with MS_REQF_STATUS */
    int64_t parts;            /* with MS_REQF_PARTS (version 9): NEW, the
                                 request's partitions; REF, those the call
                                 named; else 0 */
} ms_rq_record;

/* -1 (none), or a rank or tag that fits an int: what a writer writes for
 * a peer or a tag. */
static inline int ms_rq_int_field(int64_t v)
{
    return v >= -1 && v <= INT32_MAX;
}

/* Bytes a request record takes at most: its head, its kind and flags,
 * and five varints. */
#define MS_REQUEST_REC_MAX (2u + 5u * MS_VARINT_MAX)

/* A request record (version 6): one request handle of the thread's next
 * event. what: an ms_req_kind with its MS_REQF_* flags (one byte); where:
 * the address of the caller's handle minus that of the thread's previous
 * request record. */
static inline __attribute__((always_inline)) uint8_t *ms_rec_request(uint8_t *p, uint32_t what, uint64_t handle,
                                                                     int64_t where)
{
    p[0] = (uint8_t)(((unsigned)MS_CTL_REQUEST << 2) | MS_REC_CONTROL);
    p[1] = (uint8_t)what;
    p = ms_put_varint(p + 2, handle);
    return ms_put_varint(p, ms_zigzag(where));
}

/* Bytes a carried request record takes at most: its head, its kind and
 * flags, and nine varints. */
#define MS_REQUEST_CARRIED_MAX (2u + 9u * MS_VARINT_MAX)

/* A base record (version 7): the thread's next request record's where is
 * relative to `where`. */
static inline uint8_t *ms_rec_request_base(uint8_t *p, uint64_t where)
{
    p[0] = (uint8_t)(((unsigned)MS_CTL_REQUEST << 2) | MS_REC_CONTROL);
    p[1] = (uint8_t)MS_REQ_BASE;
    p[2] = 0;   /* no handle */
    return ms_put_varint(p + 3, where);
}

/* The status fields that follow a request record with MS_REQF_STATUS. */
static inline __attribute__((always_inline)) uint8_t *ms_rec_request_status(uint8_t *p, int64_t peer, int64_t tag,
                                                                            int64_t bytes)
{
    uint64_t zp = ms_zigzag(peer), zt = ms_zigzag(tag), zb = ms_zigzag(bytes);
    if (__builtin_expect((zp | zt | zb) < 0x80u, 1)) {
        p[0] = (uint8_t)zp;
        p[1] = (uint8_t)zt;
        p[2] = (uint8_t)zb;
        return p + 3;
    }
    p = ms_put_varint(p, zp);
    p = ms_put_varint(p, zt);
    return ms_put_varint(p, zb);
}
_Static_assert(((MS_CTL_REQUEST << 2) | MS_REC_CONTROL) < 0x80 && MS_REQ_WHAT_MAX < 0x80,
               "a request record's head and kind are one byte each");

/* The partition count that follows a record with MS_REQF_PARTS (NEW, REF;
 * version 9): 1 or more, an int. */
static inline uint8_t *ms_rec_request_parts(uint8_t *p, int64_t parts)
{
    return ms_put_varint(p, (uint64_t)parts);
}

/* Bytes a carried request record takes at most: its head, its kind and
 * flags, and nine varints. */
#define MS_REQUEST_CARRIED_MAX (2u + 9u * MS_VARINT_MAX)

/* A carried request record (version 7, docs/FORMAT.md "Requests carried
 * over a gap"): the request *r (not its thread) as a record of kind
 * MS_REQ_CARRIED with MS_REQ_NEW's flags (its direction, persistent);
 * where the address of the handle (absolute); op, traits (MS_REQT_*),
 * comm, peer, tag and bytes what the creating call said of it; posted 0
 * (not posted: an inactive persistent request) or 1 + post_ns (the log
 * clock). */
static inline uint8_t *ms_rec_request_carried(uint8_t *p, const ms_rq_req *r)
{
    uint32_t what = MS_REQ_CARRIED | ((uint32_t)r->f.dir << MS_REQF_DIR_SHIFT) |
                    (r->f.persistent ? MS_REQF_PERSISTENT : 0u);
    uint32_t traits = (r->f.io ? MS_REQT_IO : 0u) | (r->f.pair ? MS_REQT_PAIR : 0u);
    p[0] = (uint8_t)(((unsigned)MS_CTL_REQUEST << 2) | MS_REC_CONTROL);
    p[1] = (uint8_t)what;
    p = ms_put_varint(p + 2, r->handle);
    p = ms_put_varint(p, r->where);
    p = ms_put_varint(p, r->f.op);
    p = ms_put_varint(p, traits);
    p = ms_put_varint(p, ms_zigzag(r->f.comm));
    p = ms_put_varint(p, ms_zigzag(r->f.peer));
    p = ms_put_varint(p, ms_zigzag(r->f.tag));
    p = ms_put_varint(p, ms_zigzag(r->f.bytes));
    return ms_put_varint(p, r->posted ? r->post_ns + 1 : 0);
}

/* A record of the application's path after its head at p, whole before
 * the end of its buffer (MS_REQUEST_REC_MAX bytes or more), into *r;
 * *where_base is the thread's latest handle address, updated. Unchecked.
 * Returns past it. */
static inline const uint8_t *ms_rq_read_in(const uint8_t *p, uint64_t *where_base, ms_rq_record *r)
{
    uint64_t what, handle, where;
    p = ms_rec_varint_in(p, &what);
    p = ms_rec_varint_in(p, &handle);
    p = ms_rec_varint_in(p, &where);
    *r = (ms_rq_record){.what = (uint32_t)what, .handle = handle, .peer = -1, .tag = -1, .bytes = -1, .parts = 0};
    r->where = *where_base + (uint64_t)ms_unzigzag(where);
    *where_base = r->where;
    if ((what & MS_REQ_KIND_MASK) == MS_REQ_DONE && (what & MS_REQF_STATUS)) {
        uint64_t v;
        p = ms_rec_varint_in(p, &v);
        r->peer = ms_unzigzag(v);
        p = ms_rec_varint_in(p, &v);
        r->tag = ms_unzigzag(v);
        p = ms_rec_varint_in(p, &v);
        r->bytes = ms_unzigzag(v);
    }
    if ((what & MS_REQF_PARTS) && ms_req_more_varints(what)) {
        uint64_t v;
        p = ms_rec_varint_in(p, &v);
        r->parts = (int64_t)v;
    }
    return p;
}

/* Past a record of the application's path after its head at *pp (as
 * ms_rq_read_in reads it), checked against end: 0, or -1 when it runs past
 * end. */
static inline int ms_rq_skip(const uint8_t **pp, const uint8_t *end)
{
    uint64_t what, v;
    if (ms_get_varint(pp, end, &what) != 0)
        return -1;
    for (unsigned i = 2 + ms_req_more_varints(what); i > 0; i--)
        if (ms_get_varint(pp, end, &v) != 0)
            return -1;
    return 0;
}

enum ms_rq_parse_error {
    MS_RQ_OK = 0,
    MS_RQ_CUT,                /* runs past its block */
    MS_RQ_BAD_KIND,           /* an unknown kind or flags */
    MS_RQ_NO_HANDLE,          /* handle 0 */
    MS_RQ_BAD_STATUS,         /* a status field out of range */
    MS_RQ_BAD_CARRIED,        /* a carried request's field out of range */
    MS_RQ_BAD_PARTS,          /* a partition count out of range */
};

/* The record after its head at *pp (advanced past it); *where_base is the
 * thread's latest handle address, updated. A carried request (MS_REQ_CARRIED,
 * version 7: its where is absolute and leaves the base as it is) is
 * described in *carried, its post time in the log clock (posted: 1 + it;
 * thread not set); with carried NULL it is of an unknown kind, as is a
 * base record (MS_REQ_BASE, version 7: sets *where_base, names no
 * request). */
enum ms_rq_parse_error ms_rq_parse(const uint8_t **pp, const uint8_t *end, uint64_t *where_base,
                                   ms_rq_record *out, ms_rq_req *carried);
/* A message of ms_rq_parse_error. */
const char *ms_rq_parse_error_str(enum ms_rq_parse_error e);

#endif
