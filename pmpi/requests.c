/*
 * The scratch memory of the calls on arrays of requests, per thread: the
 * handles as they were before a completion call (which frees them), and
 * statuses of the wrapper's own for a caller's MPI_STATUSES_IGNORE, so
 * that each completed request's status fields are recorded
 * (request_facts.h; declared in requests.h). They grow only when a call
 * passes more requests than any before it on the thread.
 */
#include <string.h>

#include "../preload/scratch.h"
#include "pmpi_collector.h"
#include "requests.h"

typedef struct scratch {
    MPI_Request *saved;     /* the handles of a completion call, as before it */
    size_t saved_cap;
    MPI_Status *sts;
    size_t sts_cap;
} scratch;

static scratch *get_scratch(ms_thread *t)
{
    scratch *s = t->slot[ms_pmpi_slot_requests];
    if (!s)
        s = t->slot[ms_pmpi_slot_requests] = ms_scratch_new(sizeof *s);
    return s;
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
