/*
 * What the generated wrappers (build/gen/pmpi_wrappers.c) call to describe a
 * call: bytes from counts and datatypes, peers, tags, roots, communicator ids,
 * statuses, and the request table that carries a request's metadata from the
 * call that created it to the call that completes it. Compiled against each
 * MPI's own mpi.h.
 */
#ifndef MPISCOPE_SEMANTICS_H
#define MPISCOPE_SEMANTICS_H

#include <mpi.h>
#include <stdint.h>

#include "call_record.h"
#include "clock.h"
#include "handle_map.h"
#include "pmpi_ops.h"
#include "tstate.h"

#define MS_EXPORT __attribute__((visibility("default")))

/* ---- arguments ---- */

static inline int64_t ms_bytes(int64_t count, MPI_Datatype datatype)
{
    if (count == 0)
        return 0;
    if (datatype == MPI_DATATYPE_NULL)
        return -1;
    int size;
    if (PMPI_Type_size(datatype, &size) != MPI_SUCCESS || size == MPI_UNDEFINED)
        return -1;
    return count * size;
}

/* Ranks and tags: wildcards, MPI_PROC_NULL and the like are -1. */
static inline int32_t ms_rank_arg(int rank)
{
    return rank >= 0 ? rank : -1;
}

static inline int32_t ms_tag_arg(int tag)
{
    return tag >= 0 ? tag : -1;
}

static inline int32_t ms_root_arg(int root)
{
    return root >= 0 ? root : -1;
}

/* ---- communicators (comm_ids.c) ---- */

MS_HIDDEN int64_t ms_comm_lookup(MPI_Comm comm);
MS_HIDDEN void ms_comm_ids_init(void);

static inline int64_t ms_comm_id(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD)
        return 0;
    if (comm == MPI_COMM_SELF)
        return 1;
    return ms_comm_lookup(comm);
}

/* ---- statuses ---- */

/* Bytes a completed receive delivered, from its status (-1 if unknown). */
static inline int64_t ms_status_bytes(const MPI_Status *st)
{
    MPI_Count n;
    if (PMPI_Get_elements_x(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED)
        return -1;
    return (int64_t)n;
}

/* A receive's actual bytes, source and tag. */
static inline void ms_from_status(ms_call *c, const MPI_Status *st)
{
    if (st->MPI_SOURCE == MPI_PROC_NULL) {
        c->bytes = 0;
        c->peer = -1;
        c->tag = -1;
        return;
    }
    c->bytes = ms_status_bytes(st);
    c->peer = ms_rank_arg(st->MPI_SOURCE);
    c->tag = ms_tag_arg(st->MPI_TAG);
}

/* ---- requests (requests.c) ---- */

typedef struct ms_req_meta {
    uint16_t op;          /* creating op */
    uint8_t recv;         /* completion reports what the status says */
    uint8_t persistent;   /* survives completion */
    int32_t peer;
    int32_t tag;
    int32_t unused;
    int64_t bytes;
    int64_t comm;
} ms_req_meta;
_Static_assert(sizeof(ms_req_meta) <= MS_HMAP_VALUE, "request metadata fits a map slot");

/* A request as it was before a completion call. */
typedef struct ms_pending {
    ms_hmap_slot *slot;   /* its table entry, or NULL */
    uint64_t key;         /* 0: MPI_REQUEST_NULL */
} ms_pending;

MS_HIDDEN void ms_req_new(ms_call *c, MPI_Request req, int recv);
MS_HIDDEN ms_pending ms_req_pending(MPI_Request req);
MS_HIDDEN void ms_req_done(ms_call *c, const ms_pending *p, const MPI_Status *st, int rc);
MS_HIDDEN ms_pending *ms_req_pending_n(ms_thread *t, int n, const MPI_Request *reqs);
MS_HIDDEN void ms_req_done_n(ms_call *c, const ms_pending *p, int n, const MPI_Status *sts, int rc);
/* Statuses of the wrapper's own for n requests, or `fallback` (the caller's
 * MPI_STATUSES_IGNORE) when none can be had. */
MS_HIDDEN MPI_Status *ms_scratch_statuses(ms_thread *t, int n, MPI_Status *fallback);

MS_HIDDEN void ms_requests_init(void);

#endif
