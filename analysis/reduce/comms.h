/*
 * The run's communicators and the names the reports give them (DESIGN §6,
 * "Communicators"): one row per communicator over every rank's log
 * (comm_facts.h), and a label a person can read in place of its 64-bit id:
 * `world`, `self`, the name MPI_Comm_set_name gave it, or one derived from
 * how it was made: `split#2 of world (2 ranks)`, `dup#1 of world`,
 * `cart 2×2 of world`. Numbers count the communicators of one kind made
 * from one parent, in the order of their creation on the parent, then of
 * their lowest member's world rank: the same whichever rank's log is read
 * first. Logs older than format version 8 say nothing of how a
 * communicator was made: `comm#3 (2 ranks)`, numbered by their lowest
 * member's world rank, then id.
 */
#ifndef MPISCOPE_COMMS_H
#define MPISCOPE_COMMS_H

#include <stddef.h>
#include <stdint.h>

#include "comm_facts.h"

typedef struct ms_comm_row {
    ms_comm_fact f;                /* the lowest rank's fact; name: the lowest
                                      rank's that named it; where: the lowest
                                      rank's that has a site (owned) */
    uint32_t ranks;                /* ranks whose logs hold it */
    uint32_t number;               /* among its kind and parent, from 1 */
    uint32_t of_kind;              /* how many of its kind its parent made */
    uint32_t unused;
    char kind[48];                 /* ms_comm_kind */
} ms_comm_row;

/* Rows by id; world (0) and self (1) are always there. */
typedef struct ms_comms {
    ms_comm_row *v;
    size_t n;
} ms_comms;

/* The table of the ranks' facts (facts[r]: the rank of ascending rank r's;
 * world: the world's size). 0, or -1 when out of memory. */
int ms_comms_build(ms_comms *t, const ms_comm_facts *const *facts, size_t nranks, uint32_t world);
void ms_comms_free(ms_comms *c);
const ms_comm_row *ms_comms_find(const ms_comms *c, int64_t id);

/* The short word for the call that made a row ("split", "dup", "cart"):
 * its creating op's name without "comm_", the "i" of a non-blocking
 * form, "_with_info", "_adjacent" and "_create" (comm_idup_with_info ->
 * dup, cart_create -> cart, intercomm_create -> intercomm). */
const char *ms_comm_kind(const ms_comm_row *r);

/* Whether the run has communicators to list: more than world and self,
 * or one of them named. */
int ms_comms_listed(const ms_comms *c);

/* How a row was made, in words, into buf (cut to cap), returned:
 * "MPI_Init" (world, self), "split of world", "dup of split#1 of world
 * (2 ranks)" (the parent's label), "the spawning world" (the parent
 * intercommunicator of a spawned world), "-" (a log before version 8). */
const char *ms_comms_made_by(const ms_comms *c, const ms_comm_row *r, char *buf, size_t cap);

/* The communicator's label into buf (cut to cap), returned: see above; a
 * name's control characters are shown as '?', and a name of more than 64
 * bytes is cut with "...". An id without a row: "unrecorded", -1: "none".
 * The reports call it through ms_comm_label (ops.h). */
const char *ms_comms_label(const ms_comms *comms, int64_t comm, char *buf, size_t cap);

#endif
