/*
 * Matching point-to-point sends to their receives, for the message arrows
 * of the trace (report_trace.c).
 *
 * MPI's non-overtaking rule: two messages from one sender to one receiver
 * with the same tag on the same communicator are received in the order
 * they were sent. So the k-th message of a key (world src, world dst, tag,
 * comm) is the k-th receive of that key, counted on each side on its own:
 *
 *   sends     the MS_P2P_SEND calls of p2p.h, counted where the message is
 *             posted: the send call itself, isend (not its completion),
 *             sendrecv, start of one persistent send (partitioned too);
 *   receives  the MS_P2P_RECV calls: recv and mrecv (actual source and tag
 *             from the status), and for non-blocking receives the
 *             completion that delivered the message (wait, test, waitany,
 *             testany of an irecv, recv_init, precv_init or imrecv request): the
 *             receive is matched where the data arrived, in completion
 *             order. A program that completes two receives of one key in
 *             the other order than it posted them gets their two arrows
 *             crossed;
 *   records   in a trace with message records (p2p_facts.h), the sends a
 *             startall started and the receives a waitall, waitsome,
 *             testall, testsome or a completion of mixed or isendrecv
 *             requests delivered, one by one, in the order of the call's
 *             records.
 *
 * A key gets flows only when both counts are exact: none when the sender
 * made calls that may have sent messages of that key without saying so
 * (MS_P2P_SEND_ANY: startall without message records, requests of unknown
 * origin), or the receiver made calls that may have received some
 * (MS_P2P_RECV_ANY: multi-request completions and
 * mixed requests without message records), or either side used a
 * communicator whose record is missing. Then min(sends, receives) messages
 * of the key get flow ids base..base+n-1, in order, on both sides.
 *
 * Everything comes from the run's channels (run.h: run->chans), so
 * sends and receives are numbered while each rank's log is read on its
 * own, in any order of ranks: memory is O(keys), the distinct (src, dst,
 * tag, comm) of the run's point-to-point channels, and never grows with
 * the number of events or messages.
 */
#ifndef MPISCOPE_FLOWS_H
#define MPISCOPE_FLOWS_H

#include <stddef.h>
#include <stdint.h>

#include "run.h"

typedef struct ms_flow_key {
    int32_t src, dst;          /* world ranks */
    int64_t comm, tag;
    uint64_t sends, recvs;     /* attributable calls on each side */
    uint64_t n;                /* messages with a flow: 0 when not exact */
    uint64_t base;             /* flow ids base .. base + n - 1 */
    uint64_t sent, received;   /* counters while the trace is written */
} ms_flow_key;

typedef struct ms_flows {
    ms_flow_key *keys;         /* by src, dst, comm, tag */
    size_t nkeys;
    uint64_t nflows;           /* total */
} ms_flows;

/* Build the keys of a reduced run. Returns 0, or -1 when out of memory. */
int ms_flows_build(const ms_run *run, ms_flows *out);
void ms_flows_free(ms_flows *f);

/* The key (src, dst, tag, comm), or NULL. */
ms_flow_key *ms_flows_find(const ms_flows *f, int32_t src, int32_t dst, int64_t tag, int64_t comm);

/* Count one send (receive) of key k: 1 and its flow id in *id when this
 * message has a flow, else 0. */
int ms_flows_send(ms_flow_key *k, uint64_t *id);
int ms_flows_recv(ms_flow_key *k, uint64_t *id);

#endif
