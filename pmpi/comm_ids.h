/*
 * Communicators (comm_ids.c): the id of each in the log, what the tool
 * keeps of it (rank, size, remote size) in its handle-map slot, the
 * records of how it was made; and the bytes of collectives, which scale
 * with its peers (DESIGN section 4, docs/FORMAT.md).
 */
#ifndef MPISCOPE_COMM_IDS_H
#define MPISCOPE_COMM_IDS_H

#include <mpi.h>
#include <stdint.h>

#include "args.h"
#include "call_record.h"
#include "handle_map.h"
#include "../preload/tstate.h"

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
/* The world ranks of comm's (local) group in its rank order, *n of them
 * (malloc'd), or NULL. */
MS_HIDDEN int *ms_comm_members(MPI_Comm comm, int *n);
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

/* ---- bytes of collectives (DESIGN §4, docs/FORMAT.md) ---- */

static inline int64_t ms_bytes_scaled(int64_t count, MPI_Datatype t, MPI_Comm comm)
{
    int64_t b = ms_bytes(count, t);
    return b < 0 ? -1 : b * ms_comm_peers(comm);
}

static inline int64_t ms_bytes_nbr(int64_t count, MPI_Datatype t, MPI_Comm comm)
{
    int64_t b = ms_bytes(count, t);
    return b < 0 ? -1 : b * ms_topo_outdegree(comm);
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

#endif
