/*
 * Matching request records (docs/FORMAT.md "Requests", version 6) to the
 * requests they name, as a rank's log is read: the merge's side of the
 * raw facts that the application's path records (pmpi/request_facts.h).
 *
 * A record names a request by its handle's bits and by the address of the
 * caller's handle. A completion, start, cancel, free or reference takes,
 * among the live requests of that handle value not yet taken by the same
 * call: the newest whose handle was returned to that address on the same
 * thread, else to that address, else the oldest created on the same
 * thread, else the oldest. (An older request of the same handle and
 * address is one the program can no longer name: it ended where the
 * reader did not see it, in a gap of the trace.) (Libraries give one handle
 * value to many requests that completed at creation; programs keep handles
 * in arrays, so the address tells them apart.) Each request the call
 * handles is folded into the call's fields, as the canonical region name
 * of a completion call reports them (DESIGN section 4), and described as a
 * message (the MS_CTL_MESSAGE record a version-5 log had for it).
 *
 * Memory: one entry per live request (created and not completed, or
 * persistent and not freed), however many there are. MPI-free.
 */
#ifndef MPISCOPE_REQ_MATCH_H
#define MPISCOPE_REQ_MATCH_H

#include <stddef.h>
#include <stdint.h>

/* A completion call's request op when its requests' ops differ, or when
 * one was not seen created. */
#define MS_RQ_OP_UNKNOWN 0xfffeu
#define MS_RQ_OP_MIXED 0xffffu

/* What a request is, from the call that created it. */
typedef struct ms_rq_facts {
    uint32_t op;          /* calls.tbl op id of the creating call; 0: not known */
    uint8_t dir;          /* 0 a send, 1 a receive, 2 a receive of what it posted */
    uint8_t persistent;
    uint8_t io;           /* an MPI-IO request: a receive's bytes only from its status */
    uint8_t pair;         /* an isendrecv: a send, then a receive */
    int64_t comm, peer, tag, bytes;
    int64_t root;         /* a persistent rooted collective's root (a rank
                             in comm); -1: none */
    int64_t parts;        /* a partitioned request's partitions (version
                             9); 0: not known */
} ms_rq_facts;

/* What a completion's status says (has: the call gave one). */
typedef struct ms_rq_status {
    int has, cancelled;
    int64_t peer, tag, bytes;
    int64_t named;        /* MS_REQ_REF of pready, pready_range,
                             pready_list: the partitions it named (version
                             9); 0: not said */
} ms_rq_status;

/* One request a call handled, as a message record describes it
 * (flags: MS_MESSAGE_*; post_ns meaningful with MS_MESSAGE_POSTED), with
 * the root of a persistent rooted collective (-1: none), which the region
 * name of the call that created it says. */
typedef struct ms_rq_message {
    uint32_t op, flags;
    int64_t comm, peer, tag, bytes, root;
    uint64_t post_ns;
} ms_rq_message;

/* A call's fields folded from its requests: n requests; req_op the op of
 * them all (or MS_RQ_OP_MIXED / MS_RQ_OP_UNKNOWN); bytes summed; peer, tag
 * and comm what they share, else -1. */
typedef struct ms_rq_fold {
    uint32_t n;
    uint32_t req_op;
    int64_t bytes, peer, tag, comm;
} ms_rq_fold;

typedef struct ms_rq_table ms_rq_table;

ms_rq_table *ms_rq_create(void);
void ms_rq_destroy(ms_rq_table *t);
/* Forget every request (a new log). */
void ms_rq_reset(ms_rq_table *t);
/* Live requests held now. */
size_t ms_rq_live(const ms_rq_table *t);

/* Whether a request of that handle value is live. */
int ms_rq_has(const ms_rq_table *t, uint64_t handle);

/* What the live request a record of that handle, thread and address
 * would take is (the same preference, nothing taken), in *f; 0, or -1
 * when no request of that handle is live. */
int ms_rq_peek(const ms_rq_table *t, uint32_t thread, uint64_t handle, uint64_t where, ms_rq_facts *f);

/* A new call: its records take requests for it alone from now on. */
void ms_rq_call(ms_rq_table *t);

/* A request created on thread `thread` by a call that started at post_ns.
 * 0, or -1 when out of memory (the request is then not known). */
int ms_rq_new(ms_rq_table *t, uint32_t thread, uint64_t handle, uint64_t where, const ms_rq_facts *f,
              uint64_t post_ns);

/* A live request as the table holds it. */
typedef struct ms_rq_req {
    uint32_t thread;      /* that created it */
    uint64_t handle, where;
    int posted;           /* post_ns holds when it was posted (a
                             persistent request: while started) */
    uint64_t post_ns;
    ms_rq_facts f;
} ms_rq_req;

/* A live request made as *r says, marked or not (a mark is the caller's:
 * ms_rq_each_unmarked). 0, or -1 when out of memory. */
int ms_rq_add(ms_rq_table *t, const ms_rq_req *r, int marked);

/* The live requests of thread `thread` not marked, in the order of
 * creation for each handle value: each handed to fn with its mark, which
 * fn may set. fn's non-zero return stops and is returned; else 0. */
int ms_rq_each_unmarked(ms_rq_table *t, uint32_t thread, int (*fn)(void *ctx, const ms_rq_req *r, uint8_t *mark),
                        void *ctx);

/* The kinds of ms_rq_take (MS_REQ_DONE ... MS_REQ_REF of log_format.h):
 * completed (st: its status), started at post_ns, cancelled, freed, or
 * named. Folds the request into *fold and, for completions and starts,
 * describes it in msg[0] (and msg[1], an isendrecv's receive) unless msg
 * is NULL; returns how many messages it described (0 to 2). */
int ms_rq_take(ms_rq_table *t, uint32_t kind, uint32_t thread, uint64_t handle, uint64_t where,
               const ms_rq_status *st, uint64_t post_ns, ms_rq_fold *fold, ms_rq_message msg[2]);

/* An empty fold. */
static inline ms_rq_fold ms_rq_fold_init(void)
{
    ms_rq_fold f = {.n = 0, .req_op = 0, .bytes = -1, .peer = -1, .tag = -1, .comm = -1};
    return f;
}

#endif
