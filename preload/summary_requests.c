/* Request records in the writer thread: see summary_requests.h. */
#include "summary_requests.h"

#include <stdlib.h>
#include <string.h>

#include "records.h"

static const ms_sumrq_name no_name = {.info = NULL, .is_tool = 0,
                                      .facts = {.op = 0, .comm = -1, .peer = -1, .tag = -1, .bytes = -1}};

int ms_sumrq_init(ms_sumrq *g)
{
    g->rq = ms_rq_create();
    g->recent = calloc(MS_SUMRQ_RECENT, sizeof *g->recent);
    g->recent_mask = MS_SUMRQ_RECENT - 1;
    g->recent_used = 0;
    g->recent_limit = MS_SUMRQ_RECENT / 4 * 3;
    if (!g->rq || !g->recent) {
        ms_sumrq_release(g);
        return -1;
    }
    return 0;
}

void ms_sumrq_release(ms_sumrq *g)
{
    ms_rq_destroy(g->rq);
    free(g->recent);
    g->rq = NULL;
    g->recent = NULL;
}

/* The followed requests' slots at twice the size. */
static int recent_grow(ms_sumrq *g)
{
    size_t n = (g->recent_mask + 1) * 2;
    ms_sumrq_recent *a = calloc(n, sizeof *a), *old = g->recent;
    if (!a)
        return -1;
    size_t old_n = g->recent_mask + 1;
    g->recent = a;
    g->recent_mask = n - 1;
    g->recent_limit = n / 4 * 3;
    for (size_t i = 0; i < old_n; i++) {
        if (!old[i].handle)
            continue;
        size_t j = ms_sumrq_recent_home(g, old[i].handle, old[i].where);
        while (a[j].handle)
            j = (j + 1) & g->recent_mask;
        a[j] = old[i];
    }
    free(old);
    return 0;
}

ms_sumrq_recent *ms_sumrq_recent_put_grown(ms_sumrq *g, uint64_t handle, uint64_t where)
{
    if (recent_grow(g) != 0)
        return NULL;
    return ms_sumrq_recent_put(g, handle, where);
}

void ms_sumrq_free(ms_sumrq_thread *q)
{
    for (uint32_t i = 0; i < q->nnames; i++)
        free(q->names[i].info);
    free(q->names);
    free(q->pend);
    ms_rq_names_free(&q->derived);
    memset(q, 0, sizeof *q);
}

static ms_sumrq_name *name_at(ms_sumrq_thread *q, uint64_t id)
{
    if (id >= MS_SUMRQ_ID_BASE)
        return NULL;
    if (id >= q->nnames) {
        uint32_t n = q->nnames ? q->nnames : 64;
        while (n <= id)
            n *= 2;
        ms_sumrq_name *a = realloc(q->names, n * sizeof *a);
        if (!a)
            return NULL;
        for (uint32_t i = q->nnames; i < n; i++)
            a[i] = no_name;
        q->names = a;
        q->nnames = n;
    }
    return &q->names[id];
}

int ms_sumrq_define(ms_sumrq_thread *q, uint64_t id, const char *name, size_t len)
{
    int is_mpi = len >= 4 && memcmp(name, "mpi:", 4) == 0;
    int is_tool = len >= 9 && memcmp(name, "mpiscope:", 9) == 0;
    if (!is_mpi && !is_tool && id >= q->nnames)
        return 0;
    ms_sumrq_name *n = name_at(q, id);
    if (!n)
        return id >= MS_SUMRQ_ID_BASE ? 0 : -1;
    free(n->info);
    *n = no_name;
    n->is_tool = is_tool;
    if (is_mpi && len <= MS_MAX_NAME) {
        char buf[MS_MAX_NAME + 1];
        memcpy(buf, name, len);
        buf[len] = '\0';
        n->info = malloc(sizeof *n->info);
        if (!n->info)
            return -1;
        if (!ms_region_parse(buf, n->info)) {
            free(n->info);
            n->info = NULL;
        }
        ms_rq_facts_of(n->info, n->info != NULL, &n->facts);
    }
    return 0;
}


/* Room for twice as many kept records. 0, or -1 when out of memory. */
static int grow_pend(ms_sumrq_thread *q)
{
    size_t cap = q->pend_cap ? q->pend_cap * 2 : 16;
    ms_rq_record *a = realloc(q->pend, cap * sizeof *a);
    if (!a)
        return -1;
    q->pend = a;
    q->pend_cap = cap;
    return 0;
}

int ms_sumrq_keep(ms_sumrq_thread *q, const ms_rq_record *rec)
{
    if (q->npend == q->pend_cap && grow_pend(q) != 0)
        return -1;
    q->pend[q->npend++] = *rec;
    return 0;
}

int ms_sumrq_record(ms_sumrq *g, ms_sumrq_thread *q, const uint8_t **pp, const uint8_t *end, int following)
{
    int follow = following && !g->folded;
    if (end - *pp >= (ptrdiff_t)MS_REQUEST_REC_MAX) {
        /* The record whole before the end: read without a bound check,
         * followed, or kept in its place. */
        if (follow) {
            const uint8_t *p = ms_sumrq_follow_record(g, q, *pp);
            if (!p)
                return -1;
            *pp = p;
            return 0;
        }
        if (q->npend == q->pend_cap && grow_pend(q) != 0)
            return -1;
        *pp = ms_rq_read_in(*pp, &q->where, &q->pend[q->npend]);
        q->npend++;
        return 0;
    }
    /* At the end of a buffer: read with a bound check. */
    ms_rq_record rec;
    if (ms_rq_parse(pp, end, &q->where, &rec, NULL) != MS_RQ_OK)
        return -1;
    if (follow && (rec.what & MS_REQ_KIND_MASK) != MS_REQ_NEW) {
        /* As ms_sumrq_follow_record, at the end of a buffer. */
        ms_sumrq_forget(g, rec.what & MS_REQ_KIND_MASK, rec.handle, rec.where);
        return 0;
    }
    return ms_sumrq_keep(q, &rec);
}

/* A completion's request, created while the records were written and
 * live since: made live in the table from what was kept of it. */
static int revive(ms_sumrq *g, const ms_rq_record *r)
{
    if ((r->what & MS_REQ_KIND_MASK) == MS_REQ_NEW)
        return 0;
    ms_sumrq_recent *e = ms_sumrq_recent_find(g, r->handle, r->where);
    if (!e)
        return 0;
    /* Marked: the trace has it (ms_sumrq_carry passes it over). */
    ms_rq_req req = {.thread = e->thread, .handle = r->handle, .where = e->where, .posted = !e->facts.persistent,
                     .post_ns = e->facts.persistent ? 0 : e->post, .f = e->facts};
    ms_sumrq_recent_drop(g, e);
    return ms_rq_add(g->rq, &req, 1);
}

int ms_sumrq_follow(ms_sumrq *g, ms_sumrq_thread *q, uint32_t thread, uint64_t id, uint64_t post)
{
    g->followed = 1;
    const ms_sumrq_name *n = id < q->nnames ? &q->names[id] : &no_name;
    if (n->is_tool)
        return 0;
    int table = 0;
    for (size_t i = 0; i < q->npend; i++) {
        const ms_rq_record *r = &q->pend[i];
        uint32_t kind = r->what & MS_REQ_KIND_MASK;
        if (kind != MS_REQ_NEW) {
            /* After a fold (the slow path keeps these): the requests that
             * end here are forgotten, and the table's taken below. */
            ms_sumrq_forget(g, kind, r->handle, r->where);
            table = 1;
            continue;
        }
        ms_sumrq_recent *e = ms_sumrq_recent_put(g, r->handle, r->where);
        if (!e) {
            q->npend = 0;
            return -1;
        }
        e->post = post;
        e->thread = thread;
        e->facts = n->facts;
        e->facts.dir = (uint8_t)((r->what & MS_REQF_DIR) >> MS_REQF_DIR_SHIFT);
        e->facts.persistent = (r->what & MS_REQF_PERSISTENT) != 0;
        e->facts.parts = r->parts;
        if (e->facts.dir == 1)
            e->facts.bytes = -1;
    }
    if (table) {
        /* The table holds requests of a fold: those completed, started or
         * freed here leave it or change, as they would have. */
        ms_rq_call(g->rq);
        ms_rq_fold fold = ms_rq_fold_init();
        for (size_t i = 0; i < q->npend; i++) {
            const ms_rq_record *r = &q->pend[i];
            uint32_t kind = r->what & MS_REQ_KIND_MASK;
            if (kind == MS_REQ_NEW || !ms_rq_has(g->rq, r->handle))
                continue;
            ms_rq_status st = {.named = r->parts, .has = (r->what & MS_REQF_STATUS) != 0,
                               .cancelled = (r->what & MS_REQF_CANCELLED) != 0, .peer = r->peer, .tag = r->tag,
                               .bytes = r->bytes};
            ms_rq_take(g->rq, kind, thread, r->handle, r->where, &st, post, &fold, NULL);
        }
    }
    q->npend = 0;
    return 0;
}

int ms_sumrq_apply(ms_sumrq *g, ms_sumrq_thread *q, uint32_t thread, uint64_t id, uint64_t post,
                   uint32_t *derived, char *name, size_t cap, size_t *len)
{
    const ms_sumrq_name *n = id < q->nnames ? &q->names[id] : &no_name;
    if (n->is_tool)
        return 0;
    for (size_t i = 0; g->followed && i < q->npend; i++)
        if (revive(g, &q->pend[i]) != 0)
            return -1;
    g->folded = 1;
    if (q->npend == 1 && (q->pend[0].what & MS_REQ_KIND_MASK) == MS_REQ_NEW) {
        /* Most often: a call that creates one request (ms_rq_apply's first
         * case, without the call's fold). */
        ms_rq_call(g->rq);
        q->npend = 0;
        return ms_rq_apply_new(g->rq, thread, &q->pend[0], &n->facts, post) != 0 ? -1 : 0;
    }
    ms_rq_fold fold = ms_rq_fold_init();
    int rc = ms_rq_apply(g->rq, thread, q->pend, q->npend, &n->facts, post, &fold, NULL, NULL);
    q->npend = 0;
    if (rc <= 0 || !n->info)
        return rc < 0 ? -1 : 0;
    if (ms_rq_names_find(&q->derived, id, &fold, derived)) {
        *len = 0;
        return 1;
    }
    *len = ms_rq_name(name, cap, n->info, &fold);
    if (*len >= cap)
        *len = cap - 1;
    if (*len > MS_MAX_NAME)
        *len = MS_MAX_NAME;
    *derived = q->nderived;
    if (ms_rq_names_put(&q->derived, id, &fold, *derived) != 0)
        return -1;
    q->nderived++;
    return 1;
}

/* Carried request records gathered for one block: written together, and
 * marked in the table once written. */
#define CARRY_BATCH 64u

typedef struct carry_batch {
    uint8_t buf[CARRY_BATCH * MS_REQUEST_CARRIED_MAX + MS_REQUEST_REC_MAX];
    uint8_t *marks[CARRY_BATCH];
    size_t len;
    unsigned n;
    uint32_t thread;
    int (*emit)(void *ctx, uint32_t thread, const uint8_t *p, size_t n);
    void *ctx;
} carry_batch;

static int carry_flush(carry_batch *c)
{
    if (c->n == 0)
        return 0;
    int rc = c->emit(c->ctx, c->thread, c->buf, c->len);
    if (rc != 0)
        return rc;
    for (unsigned i = 0; i < c->n; i++)
        *c->marks[i] = 1;
    c->n = 0;
    c->len = 0;
    return 0;
}

static int carry_one(void *ctx, const ms_rq_req *r, uint8_t *mark)
{
    carry_batch *c = ctx;
    int rc;
    if (c->n == CARRY_BATCH && (rc = carry_flush(c)) != 0)
        return rc;
    uint8_t *end = ms_rec_request_carried(c->buf + c->len, r);
    c->len = (size_t)(end - c->buf);
    c->marks[c->n++] = mark;
    return 0;
}

int ms_sumrq_carry(ms_sumrq *g, const ms_sumrq_thread *q, uint32_t thread,
                   int (*emit)(void *ctx, uint32_t thread, const uint8_t *p, size_t n), void *ctx)
{
    carry_batch c = {.len = 0, .n = 0, .thread = thread, .emit = emit, .ctx = ctx};
    int rc = g->folded ? ms_rq_each_unmarked(g->rq, thread, carry_one, &c) : 0;
    if (rc != 0)
        return rc;
    /* The records folded moved the thread's address base: the trace's
     * next request record is relative to where they left it. */
    c.len = (size_t)(ms_rec_request_base(c.buf + c.len, q->where) - c.buf);
    if ((rc = c.emit(c.ctx, c.thread, c.buf, c.len)) != 0)
        return rc;
    for (unsigned i = 0; i < c.n; i++)
        *c.marks[i] = 1;
    return 0;
}
