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
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "call_record.h"
#include "callsite.h"
#include "../preload/clock.h"
#include "handle_map.h"
#include "pmpi_ops.h"
#include "request_facts.h"
#include "../preload/tstate.h"

#define MS_EXPORT __attribute__((visibility("default")))

/* ---- arguments ---- */

/* Sizes of predefined (named) datatypes, which are never freed, cached per
 * thread; derived datatypes are asked every time, since a freed one's handle
 * may come back with another size. */
#define MS_TSIZE_SLOTS 16u
typedef struct ms_tsize_entry {
    uint64_t key;   /* the handle's bits; 0: empty */
    int64_t size;
} ms_tsize_entry;
extern MS_HIDDEN __thread ms_tsize_entry ms_tsize_cache[MS_TSIZE_SLOTS] __attribute__((tls_model("initial-exec")));
MS_HIDDEN int64_t ms_type_size_slow(MPI_Datatype datatype, uint64_t key);

MS_HOT uint64_t ms_handle_bits(const void *handle, size_t size)
{
    uint64_t k = 0;
    memcpy(&k, handle, size < sizeof k ? size : sizeof k);
    return k;
}

MS_HOT int64_t ms_type_size(MPI_Datatype datatype)
{
    uint64_t key = ms_handle_bits(&datatype, sizeof datatype);
    ms_tsize_entry *e = &ms_tsize_cache[(key * 0x9e3779b97f4a7c15ull) >> 60];
    if (MS_LIKELY(e->key == key && key))
        return e->size;
    return ms_type_size_slow(datatype, key);
}

MS_HOT int64_t ms_bytes(int64_t count, MPI_Datatype datatype)
{
    if (count == 0)
        return 0;
    int64_t size = ms_type_size(datatype);
    return size < 0 || count < 0 ? -1 : count * size;
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

enum ms_comm_origin { MS_COMM_SPLIT, MS_COMM_DUP, MS_COMM_GROUP, MS_COMM_INTER };

/* What the tool keeps per communicator, in its handle-map slot. */
typedef struct ms_comm_info {
    int64_t id;
    uint32_t seq;          /* communicators created from this one so far */
    uint32_t seq_group;    /* ... by MPI_Comm_create_group */
    int32_t rank;          /* own rank */
    int32_t size;          /* local group size */
    int32_t remote_size;   /* intercommunicators: remote group size; else 0 */
    int32_t unused;
} ms_comm_info;
_Static_assert(sizeof(ms_comm_info) <= MS_HMAP_VALUE, "communicator info fits a map slot");

/* At the run's start. world: the group of mpi://WORLD (of the tool's own
 * session) when sessions began the run, which need not have MPI_COMM_WORLD:
 * the members of new communicators are given as ranks of it. MPI_GROUP_NULL
 * once MPI_Init has returned (again later in a run that sessions began):
 * MPI_COMM_WORLD gets id 0 and MPI_COMM_SELF id 1. */
MS_HIDDEN void ms_comm_ids_init(MPI_Group world);
MS_HIDDEN int64_t ms_comm_lookup(MPI_Comm comm);
/* The communicator's info: cached, or queried (and then not cached). */
MS_HIDDEN ms_comm_info ms_comm_get(MPI_Comm comm);
/* newcomm made from parent by call c (NULL: by no call of the application,
 * as the parent intercommunicator of a spawned world): its id, and its
 * members and how it was made in the log. */
MS_HIDDEN void ms_comm_created(ms_thread *t, const ms_call *c, MPI_Comm parent, MPI_Comm newcomm,
                               enum ms_comm_origin how);
/* MPI_Comm_set_name: the name in the log (version 8). */
MS_HIDDEN void ms_comm_named(ms_thread *t, MPI_Comm comm, const char *name);
MS_HIDDEN void ms_comm_forget(MPI_Comm comm);
#if MPI_VERSION >= 4
/* newcomm made by MPI_Comm_create_from_group from group with stringtag:
 * its id from its members and the tag, and how many such communicators
 * those members made with that tag before. */
MS_HIDDEN void ms_comm_from_group(ms_thread *t, const ms_call *c, MPI_Group group, const char *stringtag,
                                  MPI_Comm newcomm);
#endif
/* Out-degree of a topology communicator (0 without a topology). */
MS_HIDDEN int ms_topo_outdegree(MPI_Comm comm);

MS_HOT int64_t ms_comm_id(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD)
        return 0;
    if (comm == MPI_COMM_SELF)
        return 1;
    return ms_comm_lookup(comm);
}

/* Peers of a collective: the remote group of an intercommunicator. */
static inline int ms_comm_peers(MPI_Comm comm)
{
    ms_comm_info ci = ms_comm_get(comm);
    return ci.remote_size > 0 ? ci.remote_size : ci.size;
}

/* Whether this rank is the root of a rooted collective. */
static inline int ms_is_root(int root, MPI_Comm comm)
{
    ms_comm_info ci = ms_comm_get(comm);
    return ci.remote_size > 0 ? root == MPI_ROOT : root == ci.rank;
}

/* Make loaded MPI libraries global before the first PMPI call (mpi_scope.c). */
MS_HIDDEN void ms_mpi_make_global(void);

/* ---- windows and matched messages (objects.c) ---- */

MS_HIDDEN void ms_objects_init(void);
MS_HIDDEN void ms_win_new(MPI_Win win, int64_t comm_id);
MS_HIDDEN int64_t ms_win_comm(MPI_Win win);
MS_HIDDEN void ms_win_forget(MPI_Win win);
MS_HIDDEN void ms_msg_new(MPI_Message msg, int64_t comm_id);
/* The comm id a matched message came from; forgets the message. */
MS_HIDDEN int64_t ms_msg_take(MPI_Message msg);

/* ---- files of MPI-IO (files.c) ---- */

MS_HIDDEN void ms_files_init(void);
/* A file opened on comm_id with path `name`: a new file id, its file record
 * written on thread t; the id (-1 when the handle cannot be kept). */
MS_HIDDEN int32_t ms_file_new(ms_thread *t, MPI_File fh, int64_t comm_id, const char *name);
/* The call's comm and file from the handle (-1 for a handle not known). */
MS_HIDDEN void ms_file_of(ms_call *c, MPI_File fh);
MS_HIDDEN void ms_file_forget(MPI_File fh);
/* A new file id for a path without a handle (MPI_File_delete), its file
 * record written (comm none). */
MS_HIDDEN int32_t ms_file_named(ms_thread *t, const char *name);

/* ---- bytes of collectives (DESIGN §4, docs/FORMAT.md) ---- */

static inline int64_t ms_bytes_scaled(int64_t count, MPI_Datatype t, MPI_Comm comm)
{
    int64_t b = ms_bytes(count, t);
    return b < 0 ? -1 : b * ms_comm_peers(comm);
}

/* Partitioned point-to-point: `parts` partitions of `count` elements. */
static inline int64_t ms_bytes_parts(int64_t parts, int64_t count, MPI_Datatype t)
{
    return parts < 0 || count < 0 ? -1 : ms_bytes(parts * count, t);
}

static inline int64_t ms_bytes_nbr(int64_t count, MPI_Datatype t, MPI_Comm comm)
{
    int64_t b = ms_bytes(count, t);
    return b < 0 ? -1 : b * ms_topo_outdegree(comm);
}

/* Count arrays are int, or MPI_Count in the large-count (_c) variants. */
static inline int64_t ms_count_at(const void *cs, int wide, int i)
{
#if MPI_VERSION >= 4
    if (wide)
        return (int64_t)((const MPI_Count *)cs)[i];
#else
    (void)wide;
#endif
    return (int64_t)((const int *)cs)[i];
}

static inline int64_t ms_counts_sum(const void *cs, int wide, int n, MPI_Datatype t)
{
    if (!cs || n < 0)
        return -1;
    int64_t total = 0;
    for (int i = 0; i < n; i++)
        total += ms_count_at(cs, wide, i);
    return ms_bytes(total, t);
}

static inline int64_t ms_sumw(const void *cs, int wide, int n, const MPI_Datatype *ts)
{
    if (!cs || !ts || n < 0)
        return -1;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        int64_t b = ms_bytes(ms_count_at(cs, wide, i), ts[i]);
        if (b < 0)
            return -1;
        total += b;
    }
    return total;
}

static inline int64_t ms_bytes_sum(const void *cs, int wide, MPI_Datatype t, MPI_Comm comm)
{
    return ms_counts_sum(cs, wide, ms_comm_peers(comm), t);
}

static inline int64_t ms_bytes_sumw(const void *cs, int wide, const MPI_Datatype *ts, MPI_Comm comm)
{
    return ms_sumw(cs, wide, ms_comm_peers(comm), ts);
}

static inline int64_t ms_bytes_nbrsum(const void *cs, int wide, MPI_Datatype t, MPI_Comm comm)
{
    return ms_counts_sum(cs, wide, ms_topo_outdegree(comm), t);
}

static inline int64_t ms_bytes_nbrsumw(const void *cs, int wide, const MPI_Datatype *ts, MPI_Comm comm)
{
    return ms_sumw(cs, wide, ms_topo_outdegree(comm), ts);
}

static inline int64_t ms_bytes_atrank(const void *cs, int wide, MPI_Datatype t, MPI_Comm comm)
{
    ms_comm_info ci = ms_comm_get(comm);
    return cs && ci.rank >= 0 ? ms_bytes(ms_count_at(cs, wide, ci.rank), t) : -1;
}

/* ---- statuses ---- */

/* A receive's actual bytes, source and tag. */
MS_HOT void ms_from_status(ms_call *c, const MPI_Status *st)
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

/* ---- requests (request_facts.h, request_facts.c) ---- */

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

/* The received half of a sendrecv (status st, the call started at t0): its
 * message record, staged (received.c). */
MS_HIDDEN void ms_msg_received(ms_thread *t, const ms_call *c, const MPI_Status *st, uint64_t t0);
/* Statuses of the wrapper's own for n requests, or `fallback` (the caller's
 * MPI_STATUSES_IGNORE) when none can be had. */
MS_HIDDEN MPI_Status *ms_scratch_statuses(ms_thread *t, int n, MPI_Status *fallback);

#endif
