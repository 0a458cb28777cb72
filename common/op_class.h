/*
 * What every MPI call means to the merge: the class column of
 * pmpi/calls.tbl (its header says what each class and trait is), generated
 * into the build's gen/op_class.c by scripts/gen_op_class.py. The merge
 * and the request records ask this table; none of them lists op names of
 * its own (scripts/house.py checks it).
 *
 * Ops are known by name ("isend", as in region names, DESIGN §4) or by id
 * (MS_OP_* of calls.tbl, as in message records). MPI-free.
 */
#ifndef MPISCOPE_OP_CLASS_H
#define MPISCOPE_OP_CLASS_H

#include <stdint.h>

/* The classes, in calls.tbl's words (send: MS_OPC_SEND). */
enum ms_op_class {
    MS_OPC_NONE = 0,          /* not an op of the table ("mixed", "unknown") */
    MS_OPC_OTHER,
    MS_OPC_SEND,
    MS_OPC_RECV,
    MS_OPC_SENDRECV,
    MS_OPC_PROBE,
    MS_OPC_START_ONE,
    MS_OPC_START_ALL,
    MS_OPC_REQUEST,
    MS_OPC_COMPLETE_ONE,
    MS_OPC_COMPLETE_ANY,
    MS_OPC_COMPLETE_ALL,
    MS_OPC_COMPLETE_SOME,
    MS_OPC_BARRIER,
    MS_OPC_NXN,
    MS_OPC_BCAST,
    MS_OPC_REDUCE,
    MS_OPC_SCAN,
    MS_OPC_NEIGHBOR,
    MS_OPC_CREATE,
    MS_OPC_FREE,
    MS_OPC_RMA,
    MS_OPC_RMA_SYNC,
    MS_OPC_IO,
};

/* The traits, a set of bits. */
enum ms_op_trait {
    MS_OPT_POST = 1u << 0,         /* non-blocking: creates a request */
    MS_OPT_INIT = 1u << 1,         /* persistent: creates a request to start */
    MS_OPT_TEST = 1u << 2,         /* does not block */
    MS_OPT_STANDARD = 1u << 3,     /* a send's mode */
    MS_OPT_SYNCHRONOUS = 1u << 4,
    MS_OPT_BUFFERED = 1u << 5,
    MS_OPT_READY = 1u << 6,
    MS_OPT_READ = 1u << 7,         /* I/O that moves bytes from the file */
    MS_OPT_WRITE = 1u << 8,        /* ... to the file */
    MS_OPT_ALLOC = 1u << 9,        /* a window's memory allocated or freed */
};

typedef struct ms_op_meaning {
    uint8_t cls;                   /* enum ms_op_class */
    uint16_t traits;               /* enum ms_op_trait bits */
} ms_op_meaning;

/* The meaning of op id `id`; {MS_OPC_NONE, 0} for an id the table does
 * not give. */
ms_op_meaning ms_op_meaning_of_id(uint32_t id);

/* The meaning of the op named `op` ("isend"); {MS_OPC_NONE, 0} for a name
 * the table does not give. A binary search: ask once per region, not per
 * event. */
ms_op_meaning ms_op_meaning_of(const char *op);

/* Blocking: neither posts nor initializes a request. */
static inline int ms_op_blocking(ms_op_meaning m)
{
    return !(m.traits & (MS_OPT_POST | MS_OPT_INIT));
}

/* Completes requests: the wait and test families. */
static inline int ms_op_completes(ms_op_meaning m)
{
    return m.cls >= MS_OPC_COMPLETE_ONE && m.cls <= MS_OPC_COMPLETE_SOME;
}

/* Completes at most one request per call (wait, test, waitany, testany). */
static inline int ms_op_completes_one(ms_op_meaning m)
{
    return m.cls == MS_OPC_COMPLETE_ONE || m.cls == MS_OPC_COMPLETE_ANY;
}

/* A collective that synchronizes data among its ranks: barrier, n x n,
 * broadcast, reduce, scan, neighbour (not creation or freeing). */
static inline int ms_op_data_collective(ms_op_meaning m)
{
    return m.cls >= MS_OPC_BARRIER && m.cls <= MS_OPC_NEIGHBOR;
}

/* Sends one message at each call (blocking or posted) or start
 * (persistent): send and sendrecv. */
static inline int ms_op_sends(ms_op_meaning m)
{
    return m.cls == MS_OPC_SEND || m.cls == MS_OPC_SENDRECV;
}

/* Receives one message: recv and sendrecv. */
static inline int ms_op_receives(ms_op_meaning m)
{
    return m.cls == MS_OPC_RECV || m.cls == MS_OPC_SENDRECV;
}

#endif
