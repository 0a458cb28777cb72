/*
 * The log reader's request records (docs/FORMAT.md "Requests", version 6):
 * each is kept on its thread until the thread's next event that is not a
 * tool's own ("mpiscope:..."); there the requests are matched
 * (common/req_match.h), the messages a version-5 log would have held are
 * delivered before the event, and an event that completed, started,
 * cancelled, freed or named requests takes the region name that reports
 * them (DESIGN section 4), as the application's path named it before
 * version 6. A request carried over a gap of the trace (version 7) is
 * live at once.
 */
#include <stdlib.h>
#include <string.h>

#include "log_reader_int.h"

/* What the reader knows of a region name that request records met. */
typedef struct ms_rd_name_info {
    int is_tool;              /* "mpiscope:...": records wait past it */
    int is_mpi;
    ms_rq_facts facts;        /* of a request an event of it created */
    ms_region_info info;      /* its fields */
} ms_rd_name_info;

ms_read_status ms_rd_request(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    if (r->version < 6)
        return ms_rd_corrupt_at(r, "request record in a log of format version < 6");
    /* Read in place, at the end of the records kept: kept unless it names
     * no request to match at the event. */
    if (t->npend == t->pend_cap) {
        size_t cap = t->pend_cap ? t->pend_cap * 2 : 16;
        ms_rq_record *a = realloc(t->pend, cap * sizeof *a);
        if (!a)
            return ms_rd_nomem(r);
        t->pend = a;
        t->pend_cap = cap;
    }
    ms_rq_record *rec = &t->pend[t->npend];
    ms_rq_req carried;
    enum ms_rq_parse_error e = ms_rq_parse(pp, end, &t->req_where, rec, r->version >= 7 ? &carried : NULL);
    if (e != MS_RQ_OK)
        return ms_rd_corrupt_at(r, ms_rq_parse_error_str(e));
    if (r->version < 9 && (rec->what & MS_REQF_PARTS) && (rec->what & MS_REQ_KIND_MASK) != MS_REQ_CARRIED &&
        (rec->what & MS_REQ_KIND_MASK) != MS_REQ_BASE)
        return ms_rd_corrupt_at(r, "request record with a partition count in a log of format version < 9");
    if ((rec->what & MS_REQ_KIND_MASK) == MS_REQ_BASE)
        return MS_READ_OK;   /* the thread's address base, set */
    if ((rec->what & MS_REQ_KIND_MASK) == MS_REQ_CARRIED) {
        /* Live from here on, as the call that created it in the gap
         * described it. */
        if (!r->rq && !(r->rq = ms_rq_create()))
            return ms_rd_nomem(r);
        carried.thread = t->thread;
        if (carried.posted)
            carried.post_ns = to_ns(r, carried.post_ns);
        return ms_rq_add(r->rq, &carried, 0) == 0 ? MS_READ_OK : ms_rd_nomem(r);
    }
    t->npend++;
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
    ms_rq_facts_of(&ni->info, ni->is_mpi, &ni->facts);
    r->info[idx] = ni;
    return ni;
}

/* The name index of a completion's name: event name `raw` with the fields
 * of fold. */
static ms_read_status derived_name(ms_reader *r, uint32_t raw, const ms_rq_fold *fold, uint32_t *out)
{
    if (ms_rq_names_find(&r->derived, raw, fold, out))
        return MS_READ_OK;
    const ms_rd_name_info *ni = name_info(r, raw);
    if (!ni)
        return ms_rd_nomem(r);
    if (!ni->is_mpi) {
        /* Not a name this reader can rewrite: the event keeps it. */
        *out = raw;
        return MS_READ_OK;
    }
    char buf[MS_MAX_NAME + 1];
    size_t len = ms_rq_name(buf, sizeof buf, &ni->info, fold);
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
    if (ms_rq_names_put(&r->derived, raw, fold, idx) != 0)
        return ms_rd_nomem(r);
    *out = idx;
    return MS_READ_OK;
}

/* A matched request's message, delivered. */
typedef struct apply_ctx {
    ms_reader *r;
    uint32_t thread;
} apply_ctx;

static int deliver(void *ctx, const ms_rq_message *m)
{
    apply_ctx *a = ctx;
    ms_read_message rm = {.thread = a->thread, .op = m->op, .flags = m->flags, .comm = m->comm, .peer = m->peer,
                          .tag = m->tag, .bytes = m->bytes, .root = m->root, .post_ns = m->post_ns};
    return a->r->cb && a->r->cb->message && a->r->cb->message(a->r->ctx, &rm) != 0;
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
    ms_rq_fold fold = ms_rq_fold_init();
    apply_ctx a = {.r = r, .thread = t->thread};
    int rc = ms_rq_apply(r->rq, t->thread, t->pend, t->npend, &ni->facts, ev->start_ns, &fold, deliver, &a);
    t->npend = 0;
    if (rc == -2)
        return ms_rd_stopped(r);
    if (rc < 0)
        return ms_rd_nomem(r);
    if (rc == 1) {
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
    ms_rq_names_free(&r->derived);
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

int ms_reader_request(const ms_reader *r, uint32_t thread, uint64_t handle, uint64_t where, ms_rq_facts *f)
{
    return r->rq ? ms_rq_peek(r->rq, thread, handle, where, f) : -1;
}
