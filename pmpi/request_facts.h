/*
 * Requests as raw facts (trace mode; docs/FORMAT.md "Requests"): each call
 * that creates, completes, starts, cancels, frees or names a request stages
 * one request record per handle (messages.h), written right before its
 * event: the handle's bits, the address of the caller's handle (as a
 * difference to the thread's previous one), and for a completion what its
 * status says. Nothing is looked up, shared or hashed on the application's
 * path: the merge matches completions to the requests that created them,
 * and names the completion calls. Summary mode keeps its table (requests.c).
 */
#ifndef MPISCOPE_REQUEST_FACTS_H
#define MPISCOPE_REQUEST_FACTS_H

#include <mpi.h>
#include <stdint.h>

#include "messages.h"
#include "../preload/records.h"
#include "../preload/tstate.h"

/* A request handle's bits; 0 for MPI_REQUEST_NULL. */
MS_HOT uint64_t ms_req_key(MPI_Request r)
{
    if (r == MPI_REQUEST_NULL)
        return 0;
    uint64_t k = 0;
    memcpy(&k, &r, sizeof r < sizeof k ? sizeof r : sizeof k);
    return k;
}

/* Bytes a completed receive delivered, from its status (-1 if unknown).
 * MPICH and Open MPI keep the byte count in the status itself (the fields
 * their MPI_Get_count reads); other libraries are asked. A count that
 * reads negative (a send's status, which the library need not fill) is
 * not known: the log's byte counts are -1 or more. */
MS_HOT int64_t ms_status_bytes(const MPI_Status *st)
{
#if defined(MPICH_VERSION)
    int64_t n = (int64_t)(uint32_t)st->count_lo | ((int64_t)(st->count_hi_and_cancelled >> 1) << 32);
    return n >= 0 ? n : -1;
#elif defined(OPEN_MPI)
    int64_t n = (int64_t)st->_ucount;
    return n >= 0 ? n : -1;
#else
    MPI_Count n;
    if (PMPI_Get_elements_x(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED)
        return -1;
    return (int64_t)n;
#endif
}

/* Stage one request record of kind and flags `what` for handle `key` (not
 * 0) whose caller's copy lives at `at`; returns where its status fields go
 * (room for 3 varints), or NULL when it could not be staged. */
MS_HOT uint8_t *ms_req_fact(ms_thread *t, uint32_t what, uint64_t key, const void *at)
{
    ms_msg_stage *s = &ms_msg_tls;
    if (MS_UNLIKELY(s->cap - s->len < MS_REQUEST_REC_MAX) && ms_msg_grow(t, s) != 0)
        return NULL;
    uint64_t w = (uint64_t)(uintptr_t)at;
    uint8_t *p = ms_rec_request(s->buf + s->len, what, key, (int64_t)(w - s->where));
    s->where = w;
    s->len = (size_t)(p - s->buf);
    return p;
}

/* Whether a status says its request was cancelled, read from the status
 * itself where the library's ABI is known. */
MS_HOT int ms_status_cancelled(const MPI_Status *st)
{
#if defined(MPICH_VERSION)
    return st->count_hi_and_cancelled & 1;
#elif defined(OPEN_MPI)
    return st->_cancelled != 0;
#else
    int flag = 0;
    PMPI_Test_cancelled(st, &flag);
    return flag;
#endif
}

/* The fields of a completion's record: its kind and flags, and its status
 * fields in *peer, *tag, *bytes when st (the status the call gave) is not
 * NULL. The status's fields are recorded whatever the request was; the
 * merge reads them for receives only. */
MS_HOT uint32_t ms_req_done_fields(const MPI_Status *st, int64_t *peer, int64_t *tag, int64_t *bytes)
{
    if (!st)
        return MS_REQ_DONE;
    *peer = -1;
    *tag = -1;
    *bytes = 0;
    if (st->MPI_SOURCE != MPI_PROC_NULL) {
        *peer = st->MPI_SOURCE >= 0 ? st->MPI_SOURCE : -1;
        *tag = st->MPI_TAG >= 0 ? st->MPI_TAG : -1;
        *bytes = ms_status_bytes(st);
    }
    return MS_REQ_DONE | MS_REQF_STATUS | (ms_status_cancelled(st) ? MS_REQF_CANCELLED : 0u);
}

/* A completed request: its handle, and its status when the call gave one
 * (st NULL: none). */
MS_HOT void ms_req_fact_done(ms_thread *t, uint64_t key, const void *at, const MPI_Status *st)
{
    int64_t peer, tag, bytes;
    uint32_t what = ms_req_done_fields(st, &peer, &tag, &bytes);
    uint8_t *p = ms_req_fact(t, what, key, at);
    if (MS_LIKELY(p != NULL) && st) {
        ms_msg_stage *s = &ms_msg_tls;
        s->len = (size_t)(ms_rec_request_status(p, peer, tag, bytes) - s->buf);
    }
}

/* The multi-request completions (request_facts.c): as ms_req_done_n and
 * its kin (requests.h) describe them. */
MS_HIDDEN void ms_req_facts_done_n(ms_thread *t, int n, const MPI_Request *saved, const void *at, size_t stride,
                                   const MPI_Status *sts, int rc);
MS_HIDDEN void ms_req_facts_done_some(ms_thread *t, int n, const MPI_Request *saved, const void *at,
                                      size_t stride, int outcount, const int *indices, const MPI_Status *sts,
                                      int rc);
MS_HIDDEN void ms_req_facts_n(ms_thread *t, uint32_t what, int n, const MPI_Request *reqs, const void *at,
                              size_t stride);

#endif
