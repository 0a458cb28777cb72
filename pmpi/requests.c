/*
 * The request table of summary mode: metadata of every live request, from
 * the call that created it to the call that completes it. Completion calls
 * report the creating op (`request=`), and the bytes, peer, tag and
 * communicator of what completed: for receives, what the status says
 * arrived. A partitioned receive (MS_REQ_RECV_POSTED) names its source and
 * tag and receives exactly what it posted: its starts and completions
 * report that. Trace mode records raw facts instead (request_facts.h), and
 * the merge matches them the same way (common/req_match.h).
 */
#include <stdlib.h>
#include <string.h>

#include "../preload/diag.h"
#include "../preload/scratch.h"
#include "pmpi_collector.h"
#include "request_groups.h"
#include "semantics.h"

#define REQUEST_BITS 16u  /* the table's first level; it grows with the requests live at once */

static ms_hmap requests;
_Static_assert((1u << REQUEST_BITS) > MS_HMAP_NEAR + 1u && MS_HMAP_NEAR < MS_HMAP_PROBE,
               "the slots near a home slot are distinct and within its window");

/* Requests that share one handle value (MPICH gives one to every send
 * that completed eagerly, Open MPI to every send to MPI_PROC_NULL): a
 * request whose home slot and the MS_HMAP_NEAR after it are taken goes to
 * its value's group (request_groups.h) when the table holds its value
 * already, so that no probe window fills with one value and lookups stay
 * short however many share it. Other keys go there too beyond the windows
 * of the first DUP_LEVELS + 1 levels. */
#define DUP_LEVELS 3u

typedef struct scratch {
    ms_pending *pend;
    size_t pend_cap;
    MPI_Request *saved;     /* the handles of a completion call, as before it */
    size_t saved_cap;
    MPI_Status *sts;
    size_t sts_cap;
} scratch;

void ms_requests_init(void)
{
    ms_msg_setup();
    if (ms_msg_on)
        return;
    if (!requests.slots && ms_hmap_init(&requests, REQUEST_BITS) != 0)
        ms_warn_once(MS_WARN_MEMORY, "no memory for the request table; completions report request=unknown");
}

static inline uint64_t where_of(const void *at)
{
    return (uint64_t)(uintptr_t)at;
}

/* Element i of an array of handles at `at`, `stride` bytes apart. */
static inline const void *element(const void *at, int i, size_t stride)
{
    return (const char *)at + (size_t)i * stride;
}

/* A request's entry as its creating call describes it. */
static inline __attribute__((always_inline)) void fill(ms_req_meta *m, const ms_call *c, const void *at, int recv,
                                                      int persistent, uint64_t t0)
{
    *m = (ms_req_meta){
        .op = c->op,
        .recv = (uint8_t)recv,
        .persistent = (uint8_t)persistent,
        .peer = c->peer,
        .tag = c->tag,
        .bytes = recv == MS_REQ_RECV ? -1 : c->bytes,
        .comm = c->comm,
        .where = where_of(at),
        .claim = 0,
        /* A persistent request is posted by each start. */
        .posted = (uint8_t)!persistent,
        .post_t = persistent ? 0 : t0,
    };
}

static __attribute__((noinline)) void new_probed(const ms_call *c, uint64_t key, const void *at, int recv,
                                                 int persistent, uint64_t t0, uint64_t tried);

static inline __attribute__((always_inline)) void new_at(const ms_call *c, MPI_Request req, const void *at,
                                                        int recv, int persistent, uint64_t t0)
{
    uint64_t key = ms_req_key(req);
    if (!key || MS_UNLIKELY(!requests.slots))
        return;
    /* Most often the key's home slot in the first level is free. */
    ms_hmap_slot *s = ms_hmap_claim_home(&requests, key);
    if (MS_LIKELY(s != NULL)) {
        fill((ms_req_meta *)s->value, c, at, recv, persistent, t0);
        ms_hmap_publish(s, key);
        return;
    }
    /* Else often one of the next few: the slots the general path would
     * try first, in the same order. */
    uint64_t k = 1;
    for (; k <= MS_HMAP_NEAR; k++) {
        s = ms_hmap_near(&requests, key, k);
        if (ms_hmap_try_claim(s)) {
            fill((ms_req_meta *)s->value, c, at, recv, persistent, t0);
            ms_hmap_publish(s, key);
            return;
        }
    }
    new_probed(c, key, at, recv, persistent, t0, k);
}

/* The rest of new_at: a value that already has an entry goes to its group;
 * another key to a free slot past its home slot, else to its group. Every
 * request gets its own entry, even one whose handle value a live request
 * already has: completions tell them apart by address. */
static void new_probed(const ms_call *c, uint64_t key, const void *at, int recv, int persistent, uint64_t t0,
                       uint64_t tried)
{
    uint64_t cursor = 0;
    if (!ms_hmap_scan(&requests, key, &cursor)) {
        ms_hmap_slot *s = ms_hmap_claim_after(&requests, key, DUP_LEVELS, tried);
        if (s) {
            fill((ms_req_meta *)s->value, c, at, recv, persistent, t0);
            ms_hmap_publish(s, key);
            return;
        }
    }
    ms_req_meta m;
    fill(&m, c, at, recv, persistent, t0);
    if (ms_reqgroup_add(key, &m, sizeof m))
        return;
    ms_warn_once(MS_WARN_MEMORY, "no memory for more live requests; completions of the others report "
                 "request=unknown");
}

void ms_reqtab_new_at(ms_call *c, MPI_Request req, const void *at, int recv, int persistent, uint64_t t0)
{
    new_at(c, req, at, recv, persistent, t0);
}

/* The entry of request `req` whose handle is at `at`: the one returned to
 * that address, else the first with its handle value not yet taken by this
 * call (token). */
static ms_pending find_scan(ms_pending p, uint64_t where, uint64_t token);

static inline __attribute__((always_inline)) ms_pending find(MPI_Request req, const void *at, uint64_t token)
{
    ms_pending p = {.slot = NULL, .key = ms_req_key(req), .at = at};
    if (!p.key || MS_UNLIKELY(!requests.slots))
        return p;
    uint64_t where = where_of(at);
    /* Most often the entry is the first the scan would see: its home
     * slot in the first level, returned to this address. */
    ms_hmap_slot *x = ms_hmap_home(&requests, p.key);
    for (uint64_t k = 0; k <= MS_HMAP_NEAR; k++) {
        /* Else often one of the next few, as the scan would take it: the
         * first of the key returned to this address and not yet taken,
         * before an empty slot. */
        if (k > 0)
            x = ms_hmap_near(&requests, p.key, k);
        uint64_t xk = atomic_load_explicit(&x->key, memory_order_acquire);
        if (xk == MS_HMAP_EMPTY)
            break;
        if (xk != p.key)
            continue;
        ms_req_meta *m = (ms_req_meta *)x->value;
        if (MS_LIKELY(m->where == where && (!token || m->claim != token))) {
            if (token)
                m->claim = token;
            p.slot = x;
            return p;
        }
    }
    return find_scan(p, where, token);
}

/* The rest of find: every entry of the key, by address. */
static __attribute__((noinline)) ms_pending find_scan(ms_pending p, uint64_t where, uint64_t token)
{
    uint64_t cursor = 0;
    ms_hmap_slot *x;
    while ((x = ms_hmap_scan(&requests, p.key, &cursor)) != NULL) {
        ms_req_meta *m = (ms_req_meta *)x->value;
        if (token && m->claim == token)
            continue;
        if (m->where == where) {
            p.slot = x;
            break;
        }
        if (!p.slot)
            p.slot = x;
    }
    if ((!p.slot || ((ms_req_meta *)p.slot->value)->where != where) &&
        atomic_load_explicit(&ms_reqgroup_used, memory_order_relaxed)) {
        /* One of many requests of this handle value: the one returned to
         * this address, else (when the table has none) the oldest. */
        ms_hmap_slot *g = ms_reqgroup_find(p.key, where, token, !p.slot);
        if (g)
            p.slot = g;
    }
    if (p.slot && token)
        ((ms_req_meta *)p.slot->value)->claim = token;
    return p;
}

/* A request's entry leaves the table. */
static void erase(ms_hmap_slot *slot)
{
    /* Most often the entry lies in the first level: no level to search. */
    uint64_t mask = ms_hmap_first_mask(&requests);
    if (MS_LIKELY(slot >= requests.slots && slot <= requests.slots + mask)) {
        ms_hmap_erase_in(requests.slots, mask, slot);
        return;
    }
    if (atomic_load_explicit(&ms_reqgroup_used, memory_order_relaxed) && !ms_hmap_holds(&requests, slot))
        ms_reqgroup_erase(slot);
    else
        ms_hmap_erase(&requests, slot);
}

ms_pending ms_reqtab_pending_at(MPI_Request req, const void *at)
{
    return find(req, at, 0);
}

/* What a receive's status says arrived (ms_from_status). */
static inline void from_status(const MPI_Status *st, int64_t *bytes, int64_t *peer, int64_t *tag)
{
    ms_call r = ms_call_init(MS_OP_NONE);
    ms_from_status(&r, st);
    *bytes = r.bytes;
    *peer = r.peer;
    *tag = r.tag;
}

/* Fold one request (started or completed) into the call's fields: the first
 * sets them, later ones keep what they share. A completed non-persistent
 * request leaves the table. */
static inline __attribute__((always_inline)) void fold(ms_call *c, int *n, const ms_pending *p, const MPI_Status *st,
                                                      int completing)
{
    uint16_t op = MS_OP_UNKNOWN;
    int64_t bytes = -1, comm = -1, peer = -1, tag = -1;
    if (p->slot) {
        ms_req_meta *m = (ms_req_meta *)p->slot->value;
        op = m->op;
        comm = m->comm;
        peer = m->peer;
        tag = m->tag;
        bytes = m->bytes;
        uint8_t recv = m->recv, posted = m->posted, persistent = m->persistent;
        int cancelled = 0;
        if (MS_UNLIKELY(m->cancelled) && st && completing) {
            PMPI_Test_cancelled(st, &cancelled);
            if (persistent)
                /* A restart is a new operation, cancelled only if asked again. */
                m->cancelled = 0;
        }
        if (cancelled) {
            /* Nothing moved, and the status's other fields are undefined
             * (MPI 4.0, 3.8.4): the posted peer and tag stand. */
            bytes = 0;
        } else if (recv == MS_REQ_RECV && st && op < MS_OP_TABLE_SIZE && ms_op_kinds[op] == MS_KIND_IO) {
            /* A file read: the status says the bytes; its source and tag
             * are not defined. */
            bytes = ms_status_bytes(st);
        } else if ((recv == MS_REQ_RECV || (recv == MS_REQ_RECV_POSTED && !posted)) && st) {
            /* A partitioned receive (MS_REQ_RECV_POSTED) receives what it
             * posted; inactive, it has the empty status, as any. */
            from_status(st, &bytes, &peer, &tag);
        }
        /* Everything is read: the entry may go. */
        if (completing && !persistent)
            erase(p->slot);
        else if (completing && posted)
            /* Inactive until started again. */
            m->posted = 0;
    }
    if ((*n)++ == 0) {
        c->req_op = op;
        c->bytes = bytes;
        c->peer = (int32_t)peer;
        c->tag = (int32_t)tag;
        c->comm = comm;
        return;
    }
    if (c->req_op != op)
        c->req_op = MS_OP_MIXED;
    if (bytes >= 0)
        c->bytes = c->bytes >= 0 ? c->bytes + bytes : bytes;
    if (c->peer != peer)
        c->peer = -1;
    if (c->tag != tag)
        c->tag = -1;
    if (c->comm != comm)
        c->comm = -1;
}

/* A completed request, folded into the call. */
static inline __attribute__((always_inline)) void add_completed(ms_call *c, int *n, const ms_pending *p,
                                                                const MPI_Status *st)
{
    fold(c, n, p, st, 1);
}

void ms_reqtab_started(ms_call *c, const ms_pending *p)
{
    int n = 0;
    if (p->key)
        fold(c, &n, p, NULL, 0);
}

/* A started request was posted at t0: kept in its entry (a partitioned
 * receive's completion asks whether it was active). */
void ms_reqtab_posted(ms_thread *t, const ms_pending *p, uint64_t t0)
{
    (void)t;
    if (!p->slot)
        return;
    ms_req_meta *e = (ms_req_meta *)p->slot->value;
    e->posted = 1;
    e->post_t = t0;
}

void ms_reqtab_cancel_at(ms_call *c, MPI_Request req, const void *at)
{
    ms_pending p = find(req, at, 0);
    int n = 0;
    if (!p.key)
        return;
    fold(c, &n, &p, NULL, 0);
    if (p.slot) {
        ms_req_meta m;
        memcpy(&m, p.slot->value, sizeof m);
        m.cancelled = 1;
        memcpy(p.slot->value, &m, sizeof m);
    }
}

/* Several entries may share one handle value: in a call on many requests,
 * each element takes its own, marked with a token unique to the call. */
static uint64_t call_token(const ms_thread *t)
{
    static __thread uint64_t calls __attribute__((tls_model("initial-exec")));
    return ((uint64_t)(t->index + 1) << 40) | (++calls & ((1ull << 40) - 1));
}

/* The thread's scratch arrays; they grow only when a call passes more
 * requests than any before it on this thread. */
static scratch *get_scratch(ms_thread *t)
{
    scratch *s = t->slot[ms_pmpi_slot_requests];
    if (!s)
        s = t->slot[ms_pmpi_slot_requests] = ms_scratch_new(sizeof *s);
    return s;
}

/* The entries of n requests (a start of them), each taken for this call;
 * NULL when the thread has no scratch memory for them. */
static ms_pending *pending_n(ms_thread *t, int n, const MPI_Request *reqs, const void *at, size_t stride)
{
    scratch *s = get_scratch(t);
    if (!s || n <= 0 || ms_scratch_reserve((void **)&s->pend, &s->pend_cap, (size_t)n, sizeof *s->pend) != 0)
        return NULL;
    uint64_t token = call_token(t);
    for (int i = 0; i < n; i++)
        s->pend[i] = find(reqs[i], element(at, i, stride), token);
    return s->pend;
}

ms_pending *ms_reqtab_started_n_at(ms_thread *t, ms_call *c, int count, const MPI_Request *reqs, const void *at,
                                size_t stride)
{
    ms_pending *p = pending_n(t, count, reqs, at, stride);
    int n = 0;
    for (int i = 0; i < count; i++) {
        ms_pending q = p ? p[i] : find(reqs[i], element(at, i, stride), 0);
        if (q.key)
            fold(c, &n, &q, NULL, 0);
    }
    return p;
}

void ms_reqtab_posted_n(ms_thread *t, const ms_pending *p, int count, uint64_t t0)
{
    if (!p)
        return;
    for (int i = 0; i < count; i++)
        ms_reqtab_posted(t, &p[i], t0);
}

void ms_reqtab_forget(ms_call *c, const ms_pending *p)
{
    int n = 0;
    if (!p->key)
        return;
    fold(c, &n, p, NULL, 0);
    if (p->slot)
        erase(p->slot);
}

void ms_reqtab_done_at(ms_thread *t, ms_call *c, MPI_Request req, const void *at, const MPI_Status *st, int rc)
{
    (void)t;
    int n = 0;
    ms_pending p = find(req, at, 0);
    if (p.key)
        add_completed(c, &n, &p, rc == MPI_SUCCESS ? st : NULL);
}

MPI_Status *ms_scratch_statuses(ms_thread *t, int n, MPI_Status *fallback)
{
    scratch *s = get_scratch(t);
    if (!s || n <= 0 || ms_scratch_reserve((void **)&s->sts, &s->sts_cap, (size_t)n, sizeof *s->sts) != 0)
        return fallback;
    return s->sts;
}

const MPI_Request *ms_req_save_n(ms_thread *t, int n, const MPI_Request *reqs)
{
    scratch *s = get_scratch(t);
    if (!s || n <= 0 || ms_scratch_reserve((void **)&s->saved, &s->saved_cap, (size_t)n, sizeof *s->saved) != 0)
        return NULL;
    memcpy(s->saved, reqs, (size_t)n * sizeof *reqs);
    return s->saved;
}

/* The entry of element i of a call's saved handles, taken for the call. */
static ms_pending element_pending(const MPI_Request *saved, const void *at, size_t stride, int i, uint64_t token)
{
    return find(saved[i], element(at, i, stride), token);
}

void ms_reqtab_done_n(ms_thread *t, ms_call *c, int n, const MPI_Request *saved, const void *at, size_t stride,
                   const MPI_Status *sts, int rc)
{
    if (!saved) {
        if (n > 0)
            c->req_op = MS_OP_UNKNOWN;
        return;
    }
    int done = 0;
    uint64_t token = call_token(t);
    for (int i = 0; i < n; i++) {
        const MPI_Status *st = NULL;
        if (sts != MPI_STATUSES_IGNORE) {
            if (rc == MPI_SUCCESS)
                st = &sts[i];
            else if (rc == MPI_ERR_IN_STATUS) {
                if (sts[i].MPI_ERROR == MPI_ERR_PENDING)
                    continue;
                if (sts[i].MPI_ERROR == MPI_SUCCESS)
                    st = &sts[i];
            }
        }
        ms_pending p = element_pending(saved, at, stride, i, token);
        if (p.key)
            add_completed(c, &done, &p, st);
    }
}

void ms_reqtab_done_any(ms_thread *t, ms_call *c, int n, const MPI_Request *saved, const void *at, size_t stride,
                     int index, const MPI_Status *st, int rc)
{
    (void)t;
    int done = 0;
    if (index == MPI_UNDEFINED || index < 0 || index >= n)
        return;
    if (!saved) {
        c->req_op = MS_OP_UNKNOWN;
        return;
    }
    ms_pending p = element_pending(saved, at, stride, index, 0);
    if (p.key)
        add_completed(c, &done, &p, rc == MPI_SUCCESS ? st : NULL);
}

void ms_reqtab_done_some(ms_thread *t, ms_call *c, int n, const MPI_Request *saved, const void *at, size_t stride,
                      int outcount, const int *indices, const MPI_Status *sts, int rc)
{
    if (outcount == MPI_UNDEFINED || outcount <= 0)
        return;
    if (!saved) {
        c->req_op = MS_OP_UNKNOWN;
        return;
    }
    int done = 0;
    uint64_t token = call_token(t);
    for (int k = 0; k < outcount; k++) {
        int i = indices[k];
        if (i < 0 || i >= n)
            continue;
        const MPI_Status *st = NULL;
        if (sts != MPI_STATUSES_IGNORE) {
            if (rc == MPI_SUCCESS)
                st = &sts[k];
            else if (rc == MPI_ERR_IN_STATUS && sts[k].MPI_ERROR == MPI_SUCCESS)
                st = &sts[k];
        }
        ms_pending p = element_pending(saved, at, stride, i, token);
        if (p.key)
            add_completed(c, &done, &p, st);
    }
}
