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

void ms_req_facts_done_n(ms_thread *t, int n, const MPI_Request *saved, const void *at, size_t stride,
                         const MPI_Status *sts, int rc)
{
    for (int i = 0; i < n; i++) {
        uint64_t key = ms_req_key(saved[i]);
        if (!key)
            continue;
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
