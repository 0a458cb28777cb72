/* Request records of the calls on many requests: see request_facts.h. */
#include "request_facts.h"

static inline const void *element(const void *at, int i, size_t stride)
{
    return (const char *)at + (size_t)i * stride;
}

void ms_req_facts_n(ms_thread *t, uint32_t what, int n, const MPI_Request *reqs, const void *at, size_t stride)
{
    for (int i = 0; i < n; i++) {
        uint64_t key = ms_req_key(reqs[i]);
        if (key)
            ms_req_fact(t, what, key, element(at, i, stride));
    }
}

/* The status a multi-request completion gave request i (NULL: none), or
 * `skip` when request i is not known to have completed. */
static const MPI_Status *status_of(const MPI_Status *sts, int i, int rc, const MPI_Status *skip)
{
    if (sts == MPI_STATUSES_IGNORE)
        return NULL;
    if (rc == MPI_SUCCESS)
        return &sts[i];
    if (rc == MPI_ERR_IN_STATUS) {
        if (sts[i].MPI_ERROR == MPI_ERR_PENDING)
            return skip;
        if (sts[i].MPI_ERROR == MPI_SUCCESS)
            return &sts[i];
    }
    return NULL;
}

/* Requests that a waitall or testall stages at once, in room reserved
 * once; more go one by one (ms_req_fact may write them in parts). */
#define BATCH 64

void ms_req_facts_done_n(ms_thread *t, int n, const MPI_Request *saved, const void *at, size_t stride,
                         const MPI_Status *sts, int rc)
{
    static const MPI_Status skip_mark;
    const MPI_Status *skip = &skip_mark;
    ms_msg_stage *s = &ms_msg_tls;
    if (n <= BATCH && s->cap - s->len >= (size_t)n * MS_REQUEST_REC_MAX) {
        /* The usual case: encoded through locals, stored back once. */
        uint8_t *p = s->buf + s->len;
        uint64_t last = s->where;
        for (int i = 0; i < n; i++) {
            uint64_t key = ms_req_key(saved[i]);
            const MPI_Status *st = status_of(sts, i, rc, skip);
            if (!key || st == skip)
                continue;
            int64_t peer, tag, bytes;
            uint32_t what = ms_req_done_fields(st, &peer, &tag, &bytes);
            uint64_t w = (uint64_t)(uintptr_t)element(at, i, stride);
            p = ms_rec_request(p, what, key, (int64_t)(w - last));
            last = w;
            if (st)
                p = ms_rec_request_status(p, peer, tag, bytes);
        }
        s->len = (size_t)(p - s->buf);
        s->where = last;
        return;
    }
    for (int i = 0; i < n; i++) {
        uint64_t key = ms_req_key(saved[i]);
        const MPI_Status *st = status_of(sts, i, rc, skip);
        if (key && st != skip)
            ms_req_fact_done(t, key, element(at, i, stride), st);
    }
}

void ms_req_facts_done_some(ms_thread *t, int n, const MPI_Request *saved, const void *at, size_t stride,
                            int outcount, const int *indices, const MPI_Status *sts, int rc)
{
    if (outcount == MPI_UNDEFINED || outcount <= 0)
        return;
    for (int k = 0; k < outcount; k++) {
        int i = indices[k];
        if (i < 0 || i >= n)
            continue;
        uint64_t key = ms_req_key(saved[i]);
        if (!key)
            continue;
        const MPI_Status *st = NULL;
        if (sts != MPI_STATUSES_IGNORE) {
            if (rc == MPI_SUCCESS)
                st = &sts[k];
            else if (rc == MPI_ERR_IN_STATUS && sts[k].MPI_ERROR == MPI_SUCCESS)
                st = &sts[k];
        }
        ms_req_fact_done(t, key, element(at, i, stride), st);
    }
}
