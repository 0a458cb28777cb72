/*
 * The log reader's request records (docs/FORMAT.md "Requests", version 6):
 * each is kept on its thread until the thread's next event that is not a
 * tool's own ("mpiscope:..."); there the requests are matched
 * (common/req_match.h), the messages a version-5 log would have held are
 * delivered before the event, and an event that completed, started,
 * cancelled, freed or named requests takes the region name that reports
 * them (DESIGN section 4), as the application's path named it before
 * version 6.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/op_names.h"
#include "../../common/region_name.h"
#include "../../common/region_parse.h"
#include "log_reader_int.h"

/* What the reader knows of a region name that request records met. */
typedef struct ms_rd_name_info {
    int is_tool;              /* "mpiscope:...": records wait past it */
    int is_mpi;
    ms_rq_facts facts;        /* of a request an event of it created */
    ms_region_info info;      /* its fields */
} ms_rd_name_info;

/* A completion's derived name: from its event's name and its fold. */
typedef struct derived_key {
    uint32_t raw, req_op;
    int64_t bytes, peer, tag, comm;
} derived_key;

typedef struct derived_slot {
    derived_key k;
    uint32_t name;            /* index + 1; 0: empty */
} derived_slot;

ms_read_status ms_rd_request(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    if (r->version < 6)
        return ms_rd_corrupt_at(r, "request record in a log of format version < 6");
    uint64_t what, handle, where;
    if (get_varint(pp, end, &what) != 0 || get_varint(pp, end, &handle) != 0 || get_varint(pp, end, &where) != 0)
        return ms_rd_corrupt_at(r, "request record runs past its block");
    uint32_t kind = (uint32_t)(what & MS_REQ_KIND_MASK);
    uint64_t flags = what & ~(uint64_t)MS_REQ_KIND_MASK;
    int ok;
    switch (kind) {
    case MS_REQ_NEW:
        ok = (flags & ~(uint64_t)(MS_REQF_DIR | MS_REQF_PERSISTENT)) == 0 &&
             ((flags & MS_REQF_DIR) >> MS_REQF_DIR_SHIFT) <= 2;
        break;
    case MS_REQ_DONE:
        ok = (flags & ~(uint64_t)(MS_REQF_STATUS | MS_REQF_CANCELLED)) == 0;
        break;
    case MS_REQ_START:
    case MS_REQ_CANCEL:
    case MS_REQ_FREE:
    case MS_REQ_REF:
        ok = flags == 0;
        break;
    default:
        ok = 0;
    }
    if (!ok)
        return ms_rd_corrupt_at(r, "request record of an unknown kind or with unknown flags");
    if (handle == 0)
        return ms_rd_corrupt_at(r, "request record without a handle");
    ms_rd_pending p = {.what = (uint32_t)what, .handle = handle};
    p.where = t->req_where + (uint64_t)ms_unzigzag(where);
    t->req_where = p.where;
    if (flags & MS_REQF_STATUS && kind == MS_REQ_DONE) {
        uint64_t v[3];
        for (int i = 0; i < 3; i++)
            if (get_varint(pp, end, &v[i]) != 0)
                return ms_rd_corrupt_at(r, "request record runs past its block");
        p.peer = ms_unzigzag(v[0]);
        p.tag = ms_unzigzag(v[1]);
        p.bytes = ms_unzigzag(v[2]);
    }
    if (t->npend == t->pend_cap) {
        size_t cap = t->pend_cap ? t->pend_cap * 2 : 16;
        ms_rd_pending *a = realloc(t->pend, cap * sizeof *a);
        if (!a)
            return ms_rd_nomem(r);
        t->pend = a;
        t->pend_cap = cap;
    }
    t->pend[t->npend++] = p;
    return MS_READ_OK;
}

/* What the reader knows of name `idx` (parsed the first time); NULL when
 * out of memory. */
static const ms_rd_name_info *name_info(ms_reader *r, uint32_t idx)
{
    if (idx >= r->ninfo) {
        size_t n = r->ninfo ? r->ninfo : 64;
        while (n <= idx)
            n *= 2;
        ms_rd_name_info **a = realloc(r->info, n * sizeof *a);
        if (!a)
            return NULL;
        memset(a + r->ninfo, 0, (n - r->ninfo) * sizeof *a);
        r->info = a;
        r->ninfo = n;
    }
    if (r->info[idx])
        return r->info[idx];
    ms_rd_name_info *ni = calloc(1, sizeof *ni);
    if (!ni)
        return NULL;
    const char *name = ms_strtab_str(&r->names, idx);
    size_t len = ms_strtab_len(&r->names, idx);
    ni->is_tool = len >= 9 && memcmp(name, "mpiscope:", 9) == 0;
    ni->is_mpi = ms_region_parse(name, &ni->info);
    ms_rq_facts *f = &ni->facts;
    *f = (ms_rq_facts){.op = 0, .comm = -1, .peer = -1, .tag = -1, .bytes = -1};
    if (ni->is_mpi) {
        f->op = ms_op_id(ni->info.op, strlen(ni->info.op));
        f->io = strcmp(ni->info.kind, "io") == 0;
        f->pair = strcmp(ni->info.op, "isendrecv") == 0 || strcmp(ni->info.op, "isendrecv_replace") == 0;
        f->comm = ni->info.comm;
        f->peer = ni->info.peer;
        f->tag = ni->info.tag;
        f->bytes = ni->info.bytes;
    }
    r->info[idx] = ni;
    return ni;
}

static uint64_t key_hash(const derived_key *k)
{
    uint64_t h = (uint64_t)k->raw * 0x9e3779b97f4a7c15ull ^ (uint64_t)k->req_op * 0xc2b2ae3d27d4eb4full ^
                 (uint64_t)k->bytes * 0x165667b19e3779f9ull ^ (uint64_t)k->peer * 0x85ebca77c2b2ae63ull ^
                 (uint64_t)k->tag * 0x27d4eb2f165667c5ull ^ (uint64_t)k->comm * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

static int key_same(const derived_key *a, const derived_key *b)
{
    return a->raw == b->raw && a->req_op == b->req_op && a->bytes == b->bytes && a->peer == b->peer &&
           a->tag == b->tag && a->comm == b->comm;
}

/* The name index of a completion's name: event name `raw` with the fields
 * of fold. */
static ms_read_status derived_name(ms_reader *r, uint32_t raw, const ms_rq_fold *fold, uint32_t *out)
{
    derived_key k = {.raw = raw, .req_op = fold->req_op, .bytes = fold->bytes, .peer = fold->peer,
                     .tag = fold->tag, .comm = fold->comm};
    derived_slot *s = r->derived;
    size_t mask = r->derived_mask;
    if (s) {
        for (size_t i = key_hash(&k) & mask; s[i].name; i = (i + 1) & mask) {
            if (key_same(&s[i].k, &k)) {
                *out = s[i].name - 1;
                return MS_READ_OK;
            }
        }
    }
    const ms_rd_name_info *ni = name_info(r, raw);
    if (!ni)
        return ms_rd_nomem(r);
    char buf[MS_MAX_NAME + 1];
    size_t len;
    if (!ni->is_mpi) {
        /* Not a name this reader can rewrite: the event keeps it. */
        *out = raw;
        return MS_READ_OK;
    }
    const char *req = fold->req_op == MS_RQ_OP_MIXED ? "mixed" : ms_op_name(fold->req_op);
    ms_region_fields f = {
        .op = ni->info.op,
        .kind = ni->info.kind,
        .bytes = fold->bytes,
        .peer = (int32_t)fold->peer,
        .root = (int32_t)ni->info.root,
        .tag = (int32_t)fold->tag,
        .comm = fold->comm,
        .request = req ? req : "unknown",
        .has_file = ni->info.file >= 0,
        .file = ni->info.file,
    };
    len = ms_region_format(buf, sizeof buf, &f);
    if (len > MS_MAX_NAME)
        len = MS_MAX_NAME;
    uint32_t idx;
    int is_new;
    if (!ms_strtab_find(&r->names, buf, len, &idx) && (ms_strtab_count(&r->names) >= MS_READER_MAX_REGIONS ||
                                                       r->names.bytes + len > MS_READER_MAX_NAME_BYTES))
        return ms_rd_corrupt_at(r, "more region names than a log may define");
    if (ms_strtab_intern(&r->names, buf, len, &idx, &is_new) != 0)
        return ms_rd_nomem(r);
    if (is_new && r->cb && r->cb->region && r->cb->region(r->ctx, idx, buf, len) != 0)
        return ms_rd_stopped(r);
    /* Keep it: the table grows at three quarters full. */
    if ((r->derived_used + 1) * 4 > (s ? mask + 1 : 0) * 3) {
        size_t n = s ? (mask + 1) * 2 : 256;
        derived_slot *a = calloc(n, sizeof *a);
        if (!a)
            return ms_rd_nomem(r);
        for (size_t i = 0; s && i <= mask; i++) {
            if (!s[i].name)
                continue;
            size_t j = key_hash(&s[i].k) & (n - 1);
            while (a[j].name)
                j = (j + 1) & (n - 1);
            a[j] = s[i];
        }
        free(s);
        r->derived = s = a;
        r->derived_mask = mask = n - 1;
    }
    size_t i = key_hash(&k) & mask;
    while (s[i].name)
        i = (i + 1) & mask;
    s[i] = (derived_slot){.k = k, .name = idx + 1};
    r->derived_used++;
    *out = idx;
    return MS_READ_OK;
}

ms_read_status ms_rd_requests_apply(ms_reader *r, thread_state *t, ms_read_event *ev)
{
    const ms_rd_name_info *ni = name_info(r, ev->region);
    if (!ni)
        return ms_rd_nomem(r);
    if (ni->is_tool)
        return MS_READ_OK;
    if (!r->rq && !(r->rq = ms_rq_create()))
        return ms_rd_nomem(r);
    ms_rq_call(r->rq);
    ms_rq_fold fold = ms_rq_fold_init();
    int took = 0;
    for (size_t i = 0; i < t->npend; i++) {
        const ms_rd_pending *p = &t->pend[i];
        uint32_t kind = p->what & MS_REQ_KIND_MASK;
        if (kind == MS_REQ_NEW) {
            ms_rq_facts f = ni->facts;
            f.dir = (uint8_t)((p->what & MS_REQF_DIR) >> MS_REQF_DIR_SHIFT);
            f.persistent = (p->what & MS_REQF_PERSISTENT) != 0;
            if (f.dir == 1)
                /* A receive's bytes are what its status will say. */
                f.bytes = -1;
            if (ms_rq_new(r->rq, t->thread, p->handle, p->where, &f, ev->start_ns) != 0)
                return ms_rd_nomem(r);
            continue;
        }
        ms_rq_status st = {.has = (p->what & MS_REQF_STATUS) != 0, .cancelled = (p->what & MS_REQF_CANCELLED) != 0,
                           .peer = p->peer, .tag = p->tag, .bytes = p->bytes};
        ms_rq_message m[2];
        int n = ms_rq_take(r->rq, kind, t->thread, p->handle, p->where, &st, ev->start_ns, &fold, m);
        took = 1;
        for (int j = 0; j < n; j++) {
            ms_read_message rm = {.thread = t->thread, .op = m[j].op, .flags = m[j].flags, .comm = m[j].comm,
                                  .peer = m[j].peer, .tag = m[j].tag, .bytes = m[j].bytes,
                                  .post_ns = m[j].post_ns};
            if (r->cb && r->cb->message && r->cb->message(r->ctx, &rm) != 0)
                return ms_rd_stopped(r);
        }
    }
    t->npend = 0;
    if (took) {
        uint32_t name = ev->region;
        ms_read_status s = derived_name(r, ev->region, &fold, &name);
        if (s != MS_READ_OK)
            return s;
        ev->region = name;
    }
    return MS_READ_OK;
}

void ms_rd_requests_reset(ms_reader *r)
{
    for (size_t i = 0; i < r->ninfo; i++) {
        free(r->info[i]);
        r->info[i] = NULL;
    }
    free(r->derived);
    r->derived = NULL;
    r->derived_mask = 0;
    r->derived_used = 0;
    if (r->rq)
        ms_rq_reset(r->rq);
}

void ms_rd_requests_free(ms_reader *r)
{
    ms_rd_requests_reset(r);
    free(r->info);
    r->info = NULL;
    r->ninfo = 0;
    ms_rq_destroy(r->rq);
    r->rq = NULL;
}
