/*
 * What a call's arguments and statuses say, for the generated wrappers
 * (build/gen/pmpi_wrappers.c): bytes from counts and datatypes, ranks,
 * tags and roots, a receive's status; the sizes of datatypes and the
 * received half of a sendrecv out of line (args.c). Compiled against each
 * MPI's own mpi.h.
 */
#ifndef MPISCOPE_ARGS_H
#define MPISCOPE_ARGS_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "call_record.h"
#include "request_facts.h"
#include "../preload/tstate.h"

/* ---- datatypes and counts ---- */

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

/* Partitioned point-to-point: `parts` partitions of `count` elements. */
static inline int64_t ms_bytes_parts(int64_t parts, int64_t count, MPI_Datatype t)
{
    return parts < 0 || count < 0 ? -1 : ms_bytes(parts * count, t);
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

/* ---- ranks, tags, roots ---- */

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

/* The received half of a sendrecv (status st, the call started at t0): its
 * message record, staged (args.c). */
MS_HIDDEN void ms_msg_received(ms_thread *t, const ms_call *c, const MPI_Status *st, uint64_t t0);

#endif
