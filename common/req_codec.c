/* Request records read, checked: see req_codec.h. */
#include "req_codec.h"

/* A carried request's fields after its where (docs/FORMAT.md, "Requests
 * carried over a gap"): op, traits, comm, peer, tag, bytes, posted. */
static enum ms_rq_parse_error carried_fields(const uint8_t **pp, const uint8_t *end, const ms_rq_record *rec,
                                             ms_rq_req *c)
{
    uint64_t v[7];
    for (int i = 0; i < 7; i++)
        if (ms_get_varint(pp, end, &v[i]) != 0)
            return MS_RQ_CUT;
    int64_t comm = ms_unzigzag(v[2]), peer = ms_unzigzag(v[3]), tag = ms_unzigzag(v[4]),
            bytes = ms_unzigzag(v[5]);
    if (v[0] >= MS_RQ_OP_UNKNOWN || (v[1] & ~(uint64_t)MS_REQT_ALL) || comm < -1 || !ms_rq_int_field(peer) ||
        !ms_rq_int_field(tag) || bytes < -1 || v[6] == UINT64_MAX)
        return MS_RQ_BAD_CARRIED;
    *c = (ms_rq_req){.handle = rec->handle, .where = rec->where, .posted = v[6] != 0,
                     .post_ns = v[6] ? v[6] - 1 : 0};
    c->f = (ms_rq_facts){.op = (uint32_t)v[0], .dir = (uint8_t)((rec->what & MS_REQF_DIR) >> MS_REQF_DIR_SHIFT),
                         .persistent = (rec->what & MS_REQF_PERSISTENT) != 0, .io = (v[1] & MS_REQT_IO) != 0,
                         .pair = (v[1] & MS_REQT_PAIR) != 0, .comm = comm, .peer = peer, .tag = tag,
                         .bytes = bytes, .root = -1, .parts = 0};
    return MS_RQ_OK;
}

/* ms_rq_parse, reading through a local copy of the position (kept in a
 * register: the varints are read without a store of it each). */
static enum ms_rq_parse_error parse(const uint8_t **pp, const uint8_t *end, uint64_t *where_base,
                                    ms_rq_record *out, ms_rq_req *carried);

enum ms_rq_parse_error ms_rq_parse(const uint8_t **pp, const uint8_t *end, uint64_t *where_base,
                                   ms_rq_record *out, ms_rq_req *carried)
{
    const uint8_t *p = *pp;
    enum ms_rq_parse_error e = parse(&p, end, where_base, out, carried);
    *pp = p;
    return e;
}

static inline __attribute__((always_inline)) enum ms_rq_parse_error parse(const uint8_t **pp, const uint8_t *end,
                                                                         uint64_t *where_base, ms_rq_record *out,
                                                                         ms_rq_req *carried)
{
    uint64_t what, handle, where;
    if (ms_get_varint(pp, end, &what) != 0 || ms_get_varint(pp, end, &handle) != 0 ||
        ms_get_varint(pp, end, &where) != 0)
        return MS_RQ_CUT;
    uint32_t kind = (uint32_t)(what & MS_REQ_KIND_MASK);
    uint64_t flags = what & ~(uint64_t)MS_REQ_KIND_MASK;
    int ok;
    switch (kind) {
    case MS_REQ_NEW:
        ok = (flags & ~(uint64_t)(MS_REQF_DIR | MS_REQF_PERSISTENT | MS_REQF_PARTS)) == 0 &&
             ((flags & MS_REQF_DIR) >> MS_REQF_DIR_SHIFT) <= 2;
        break;
    case MS_REQ_DONE:
        ok = (flags & ~(uint64_t)(MS_REQF_STATUS | MS_REQF_CANCELLED)) == 0;
        break;
    case MS_REQ_CARRIED:
        ok = carried && (flags & ~(uint64_t)(MS_REQF_DIR | MS_REQF_PERSISTENT)) == 0 &&
             ((flags & MS_REQF_DIR) >> MS_REQF_DIR_SHIFT) <= 2;
        break;
    case MS_REQ_BASE:
        ok = carried && flags == 0;
        break;
    case MS_REQ_REF:
        ok = (flags & ~(uint64_t)MS_REQF_PARTS) == 0;
        break;
    case MS_REQ_START:
    case MS_REQ_CANCEL:
    case MS_REQ_FREE:
        ok = flags == 0;
        break;
    default:
        ok = 0;
    }
    if (!ok)
        return MS_RQ_BAD_KIND;
    if (kind == MS_REQ_BASE) {
        /* No request: the thread's address base, absolute. */
        if (handle != 0)
            return MS_RQ_BAD_CARRIED;
        *out = (ms_rq_record){.what = (uint32_t)what, .handle = 0, .where = where, .peer = -1, .tag = -1,
                              .bytes = -1, .parts = 0};
        *where_base = where;
        return MS_RQ_OK;
    }
    if (handle == 0)
        return MS_RQ_NO_HANDLE;
    *out = (ms_rq_record){.what = (uint32_t)what, .handle = handle, .peer = -1, .tag = -1, .bytes = -1, .parts = 0};
    if (kind == MS_REQ_CARRIED) {
        out->where = where;
        return carried_fields(pp, end, out, carried);
    }
    out->where = *where_base + (uint64_t)ms_unzigzag(where);
    *where_base = out->where;
    if (kind == MS_REQ_DONE && (flags & MS_REQF_STATUS)) {
        uint64_t v[3];
        for (int i = 0; i < 3; i++)
            if (ms_get_varint(pp, end, &v[i]) != 0)
                return MS_RQ_CUT;
        out->peer = ms_unzigzag(v[0]);
        out->tag = ms_unzigzag(v[1]);
        out->bytes = ms_unzigzag(v[2]);
        /* As the writer writes them: -1, or a rank or tag that fits an
         * int; bytes -1 (not known) or more. */
        if (!ms_rq_int_field(out->peer) || !ms_rq_int_field(out->tag) || out->bytes < -1)
            return MS_RQ_BAD_STATUS;
    }
    if (flags & MS_REQF_PARTS) {
        /* A partition count (NEW) or the partitions named (REF): 1 or more,
         * an int. */
        uint64_t v;
        if (ms_get_varint(pp, end, &v) != 0)
            return MS_RQ_CUT;
        if (v < 1 || v > INT32_MAX)
            return MS_RQ_BAD_PARTS;
        out->parts = (int64_t)v;
    }
    return MS_RQ_OK;
}

const char *ms_rq_parse_error_str(enum ms_rq_parse_error e)
{
    switch (e) {
    case MS_RQ_OK: return "ok";
    case MS_RQ_CUT: return "request record runs past its block";
    case MS_RQ_BAD_KIND: return "request record of an unknown kind or with unknown flags";
    case MS_RQ_NO_HANDLE: return "request record without a handle";
    case MS_RQ_BAD_STATUS: return "request record with a status field out of range";
    case MS_RQ_BAD_CARRIED: return "carried request record with a field out of range";
    case MS_RQ_BAD_PARTS: return "request record with a partition count out of range";
    }
    return "bad request record";
}

