/*
 * What the generated wrappers call on requests: the request records
 * (request_facts.h) a call that creates, starts, cancels, frees, names or
 * completes requests stages, and the scratch arrays of the calls on many
 * requests (requests.c).
 */
#ifndef MPISCOPE_REQUESTS_H
#define MPISCOPE_REQUESTS_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "call_record.h"
#include "request_facts.h"
#include "../preload/tstate.h"

/* A request's direction, as its creating call says it. */
enum {
    MS_REQ_SEND = 0,          /* a send, or a request of no direction */
    MS_REQ_RECV = 1,          /* a receive: its completion reports what the status says */
    MS_REQ_RECV_POSTED = 2,   /* a receive of exactly what it posted (partitioned): its
                               * bytes, peer and tag are known from its creation */
};

/* A request before a call on it (start, free, pready). */
typedef struct ms_pending {
    uint64_t key;         /* its handle's bits; 0: MPI_REQUEST_NULL */
    const void *at;       /* the caller's handle */
} ms_pending;

/* Each call below stages request records (request_facts.h) that the
 * call's event is written after; the merge (or summary mode's writer)
 * matches them. `req` points to the caller's handle (the _at variants of a
 * Fortran entry point: `at` is the address of the caller's Fortran
 * handle): its address tells apart requests that the MPI library gave one
 * handle value. recv: MS_REQ_SEND, MS_REQ_RECV or MS_REQ_RECV_POSTED. */
MS_HOT void ms_req_new_at(ms_thread *t, MPI_Request req, const void *at, int recv, int persistent)
{
    uint64_t key = ms_req_key(req);
    if (key)
        ms_req_fact(t, MS_REQ_NEW | (uint32_t)recv << MS_REQF_DIR_SHIFT | (persistent ? MS_REQF_PERSISTENT : 0u),
                    key, at);
}

MS_HOT void ms_req_new(ms_thread *t, const MPI_Request *req, int recv, int persistent)
{
    ms_req_new_at(t, *req, req, recv, persistent);
}

/* A record of kind `what` for handle `key` with a partition count (format
 * version 9): `parts` 1 or more; any other value leaves it out. */
MS_HOT void ms_req_fact_parts(ms_thread *t, uint32_t what, uint64_t key, const void *at, int64_t parts)
{
    int has = parts >= 1 && parts <= INT32_MAX;
    uint8_t *p = ms_req_fact(t, what | (has ? MS_REQF_PARTS : 0u), key, at);
    if (MS_LIKELY(p != NULL) && has) {
        ms_msg_stage *s = &ms_msg_tls;
        s->len = (size_t)(ms_rec_request_parts(p, parts) - s->buf);
    }
}

/* A partitioned request created (MPI_Psend_init, MPI_Precv_init): as
 * ms_req_new_at for a persistent request, with its partitions, so that a
 * pready's bytes are those of the partitions it names. */
MS_HOT void ms_req_new_parts_at(ms_thread *t, MPI_Request req, const void *at, int recv, int64_t parts)
{
    uint64_t key = ms_req_key(req);
    if (key)
        ms_req_fact_parts(t, MS_REQ_NEW | (uint32_t)recv << MS_REQF_DIR_SHIFT | MS_REQF_PERSISTENT, key, at, parts);
}

MS_HOT ms_pending ms_req_pending_at(MPI_Request req, const void *at)
{
    return (ms_pending){.key = ms_req_key(req), .at = at};
}

MS_HOT ms_pending ms_req_pending(const MPI_Request *req)
{
    return ms_req_pending_at(*req, req);
}

/* A request record of kind `what` for a request as it was before the call
 * (MS_REQ_START after a start that succeeded, MS_REQ_FREE after a free
 * that did, MS_REQ_REF for pready and parrived). */
MS_HOT void ms_req_named(ms_thread *t, uint32_t what, const ms_pending *p)
{
    if (p->key)
        ms_req_fact(t, what, p->key, p->at);
}

/* MPI_Pready, MPI_Pready_range, MPI_Pready_list: names the request and
 * the count of partitions it marks ready (`named`; a count out of range
 * is left out). */
MS_HOT void ms_req_named_parts(ms_thread *t, const ms_pending *p, int64_t named)
{
    if (p->key)
        ms_req_fact_parts(t, MS_REQ_REF, p->key, p->at, named);
}

/* MPI_Startall that succeeded: every started request. */
MS_HOT void ms_req_started_n(ms_thread *t, int n, const MPI_Request *reqs, const void *at, size_t stride)
{
    ms_req_facts_n(t, MS_REQ_START, n, reqs, at, stride);
}

/* MPI_Cancel: marks the request; its completion then counts it cancelled
 * when its status says so. */
MS_HOT void ms_req_cancel_at(ms_thread *t, MPI_Request req, const void *at)
{
    uint64_t key = ms_req_key(req);
    if (key)
        ms_req_fact(t, MS_REQ_CANCEL, key, at);
}

MS_HOT void ms_req_cancel(ms_thread *t, const MPI_Request *req)
{
    ms_req_cancel_at(t, *req, req);
}

/* Completions. The handles are the call's as they were before it (a
 * completion frees them), and `at` the caller's (element i of an array
 * `stride` bytes after element i - 1; a Fortran entry point's,
 * pmpi/fortran.h: the caller's Fortran handles). st/sts: the statuses the
 * call was given (the wrapper's own for MPI_STATUS(ES)_IGNORE), read after
 * it. */
MS_HOT void ms_req_done_at(ms_thread *t, MPI_Request req, const void *at, const MPI_Status *st, int rc)
{
    uint64_t key = ms_req_key(req);
    if (key)
        ms_req_fact_done(t, key, at, rc == MPI_SUCCESS ? st : NULL);
}

/* The n handles of reqs, saved in the thread's scratch memory before the
 * call; NULL when none can be had (the call then reports request=unknown). */
MS_HIDDEN const MPI_Request *ms_req_save_n(ms_thread *t, int n, const MPI_Request *reqs);

MS_HOT void ms_req_done_n(ms_thread *t, ms_call *c, int n, const MPI_Request *saved, const void *at, size_t stride,
                          const MPI_Status *sts, int rc)
{
    if (MS_LIKELY(saved != NULL))
        ms_req_facts_done_n(t, n, saved, at, stride, sts, rc);
    else if (n > 0)
        c->req_op = MS_OP_UNKNOWN;
}

MS_HOT void ms_req_done_any(ms_thread *t, ms_call *c, int n, const MPI_Request *saved, const void *at,
                            size_t stride, int index, const MPI_Status *st, int rc)
{
    if (index == MPI_UNDEFINED || index < 0 || index >= n)
        return;
    if (MS_UNLIKELY(!saved)) {
        c->req_op = MS_OP_UNKNOWN;
        return;
    }
    uint64_t key = ms_req_key(saved[index]);
    if (key)
        ms_req_fact_done(t, key, (const char *)at + (size_t)index * stride, rc == MPI_SUCCESS ? st : NULL);
}

MS_HOT void ms_req_done_some(ms_thread *t, ms_call *c, int n, const MPI_Request *saved, const void *at,
                             size_t stride, int outcount, const int *indices, const MPI_Status *sts, int rc)
{
    if (outcount == MPI_UNDEFINED || outcount <= 0)
        return;
    if (MS_UNLIKELY(!saved)) {
        c->req_op = MS_OP_UNKNOWN;
        return;
    }
    ms_req_facts_done_some(t, n, saved, at, stride, outcount, indices, sts, rc);
}

/* ms_call_begin for a completion call (the Wait and Test family) given n
 * requests: the first MS_ENDING_REQS handles' bits are copied too, and
 * where the caller's handles are (`at`, `stride` bytes apart), so that an
 * ending block names the requests it waits on (preload/ending.h). Set
 * before in_since, which publishes them. */
MS_HOT void ms_call_begin_reqs(ms_thread *t, const ms_call *c, uint64_t t0, void *ra, int n, const MPI_Request *reqs,
                               const void *at, size_t stride)
{
    uint32_t k = n > 0 ? (uint32_t)n : 0u;
    uint32_t held = k < MS_ENDING_REQS ? k : MS_ENDING_REQS;
    for (uint32_t i = 0; i < held; i++)
        t->in_call.reqs[i] = ms_req_key(reqs[i]);
    t->in_call.req_stride = (uint32_t)stride;
    t->in_call.req_at = (uint64_t)(uintptr_t)at;
    ms_call_publish(t, c, t0, ra, c->peer, c->tag, k);
}

/* Statuses of the wrapper's own for n requests, or `fallback` (the caller's
 * MPI_STATUSES_IGNORE) when none can be had. */
MS_HIDDEN MPI_Status *ms_scratch_statuses(ms_thread *t, int n, MPI_Status *fallback);

#endif
