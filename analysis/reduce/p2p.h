/*
 * Point-to-point messages in region names (DESIGN section 4, docs/FORMAT.md
 * "Semantics per operation"), and the communicators that map a peer's rank
 * in its communicator to a world rank.
 *
 * Every call of an MPI region does the same thing, so what a region's calls
 * send and receive follows from its name alone:
 *
 *   MS_P2P_SEND      each call sends exactly one message to `peer` (rank in
 *                    `comm`) with `tag` and the region's bytes: send, bsend,
 *                    ssend, rsend, isend, ibsend, issend, irsend (at the
 *                    call that posts the send, not at its completion,
 *                    which carries request=isend...), sendrecv,
 *                    sendrecv_replace, isendrecv, isendrecv_replace (their
 *                    send half), and start of one persistent send request
 *                    (request=send_init, bsend_init, ssend_init, rsend_init,
 *                    and psend_init: a partitioned send is one message).
 *                    A destination MPI_PROC_NULL (peer -1) sends nothing.
 *   MS_P2P_RECV      each call receives exactly one message whose actual
 *                    source (`peer`) and tag are in the name: recv, mrecv,
 *                    and the single-request completions wait, test,
 *                    waitany, testany of a receive (request=irecv,
 *                    recv_init, imrecv, precv_init).
 *   MS_P2P_SEND_ANY  calls that may send messages the name does not
 *                    attribute: startall of persistent sends (the number of
 *                    requests is not in the name), start or startall of a
 *                    request the tool did not see created.
 *   MS_P2P_RECV_ANY  calls that may receive messages the name does not
 *                    attribute: completions of isendrecv requests, and
 *                    completions of several requests (waitall, waitsome,
 *                    testall, testsome) or of mixed or unknown requests
 *                    that may include receives. Their peer, tag and comm
 *                    are a pattern: -1 matches any.
 *
 * A blocking sendrecv is MS_P2P_SEND: its name holds the send half, and
 * its received half (in a trace, its message record) is not counted on
 * the receiving side; a key that sendrecv receives may get flows that
 * pair its sends with later receives.
 *
 * Collectives, one-sided calls and everything else are none of these. In a
 * trace with message records, the _ANY calls of start, startall and the
 * completions are counted from their records instead (p2p_facts.h).
 */
#ifndef MPISCOPE_P2P_H
#define MPISCOPE_P2P_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/region_parse.h"

typedef enum ms_p2p_dir {
    MS_P2P_NONE = -1,
    MS_P2P_SEND = 0,
    MS_P2P_RECV = 1,
    MS_P2P_SEND_ANY = 2,
    MS_P2P_RECV_ANY = 3,
} ms_p2p_dir;

/* What the calls of a region with parsed name ri do; for the _ANY kinds
 * *peer, *tag and *comm are set to the pattern (-1: any), else to the
 * name's fields. */
ms_p2p_dir ms_p2p_classify(const ms_region_info *ri, int64_t *peer, int64_t *tag, int64_t *comm);

/* Whether the region's op completes requests (wait, test and their any,
 * all and some forms). */
int ms_p2p_is_completion(const ms_region_info *ri);

/* The point-to-point calls of one rank's region: a channel. One per
 * (rank, dir, comm, peer, tag); regions that differ only in bytes or op
 * share a channel. */
typedef struct ms_p2p_chan {
    int32_t rank;          /* world rank of the calling process */
    int32_t dir;           /* ms_p2p_dir */
    int64_t comm;          /* communicator id; -1: any (patterns) */
    int64_t peer;          /* rank in comm, as in the name; -1: any */
    int64_t tag;           /* -1: any */
    int32_t world_peer;    /* the peer's world rank; -1: any, or not known
                              (no communicator record for comm) */
    uint64_t calls;
    uint64_t bytes;        /* summed over calls; unknown sizes (-1) add 0 */
} ms_p2p_chan;

/* Order: rank, dir, comm, peer, tag. */
int ms_p2p_chan_cmp(const void *a, const void *b);

/* Sort v and merge channels of equal key (calls and bytes are summed);
 * returns the new count. */
size_t ms_p2p_chans_normalize(ms_p2p_chan *v, size_t n);

/* The channel of rank `rank` with this key in a normalized array, or NULL. */
const ms_p2p_chan *ms_p2p_chan_find(const ms_p2p_chan *v, size_t n, int32_t rank, int32_t dir,
                                    int64_t comm, int64_t peer, int64_t tag);

/* ---- communicators of one rank's log ---- */

/* Limits per log: beyond them further communicators are not kept, and
 * peers on them stay unmapped (world_peer -1). */
#define MS_COMM_MAP_MAX_COMMS (1u << 16)
#define MS_COMM_MAP_MAX_MEMBERS (1u << 26)

typedef struct ms_comm_entry {
    uint64_t id;
    uint32_t n;
    int32_t *members;      /* world ranks in communicator rank order */
} ms_comm_entry;

typedef struct ms_comm_map {
    ms_comm_entry *v;      /* unsorted; ms_comm_map_add keeps ids unique */
    size_t n, cap;
    uint64_t members;      /* kept, all entries */
} ms_comm_map;

void ms_comm_map_init(ms_comm_map *m);
void ms_comm_map_free(ms_comm_map *m);

/* Record communicator `id` with its members (a later record of the same
 * id replaces the earlier one). Returns 0, or -1 when out of memory; a
 * record beyond the limits is dropped and returns 0. */
int ms_comm_map_add(ms_comm_map *m, uint64_t id, const int32_t *world_ranks, uint32_t n);

/* The world rank of rank `peer` of communicator `comm`, seen from world
 * rank `self`: comm 0 (MPI_COMM_WORLD) is the identity, comm 1
 * (MPI_COMM_SELF) maps 0 to self; others through their record. -1 when
 * peer or comm is negative or not known. */
int32_t ms_comm_map_world(const ms_comm_map *m, int64_t comm, int64_t peer, int32_t self);

/* Append the channel of one region of world rank `rank` (name, calls,
 * bytes per call as in the name) to *v when the region is point-to-point.
 * Returns 0, or -1 when out of memory. */
int ms_p2p_add_region(ms_p2p_chan **v, size_t *n, size_t *cap, int32_t rank, const char *name,
                      uint64_t calls, const ms_comm_map *comms);

#endif
