/*
 * Why ranks wait: message matching, wait-state patterns and the critical
 * path (DESIGN section 6, "Wait states"), on plain facts of every rank.
 *
 * The reduction gives each rank's facts on the run's common clock (its
 * clocks aligned first): the events the analyses look at, every message
 * end it sent or received, and every collective it entered. This module
 * knows nothing of logs or region names; it matches and measures.
 *
 * Matching. A message is (comm, source, destination, tag). Sends of one
 * such channel are taken in the order their calls started, receives in
 * the order they were posted (wildcards already resolved by the recorded
 * status); MPI's non-overtaking rule makes the k-th send the k-th
 * receive's partner. Collectives are matched per communicator id by call
 * order: the k-th collective of a communicator on every rank that has it.
 * What is left over on either side (a log cut short, a rank without log)
 * is counted, not guessed.
 *
 * Patterns (Scalasca's definitions; times clipped to the waiting call):
 *   late_sender      a blocking receive, or a wait-family completion of
 *                    receives, from its entry until the (latest) matched
 *                    send's entry; test-family calls are not charged
 *   late_receiver    a synchronous send (ssend, issend, ssend_init; and a
 *                    standard blocking send that the library held until the
 *                    receive was posted: it returned after that post), from
 *                    its entry until the matched receive was posted
 *   wait_at_barrier  barrier: from the entry until the last rank's entry
 *   wait_at_nxn      all-to-all collectives: the same
 *   late_broadcast   bcast, scatter(v): a non-root from its entry until the
 *                    root's entry
 *   early_reduce     reduce, gather(v): the root from its entry until the
 *                    first other rank's entry
 * A receive that ends before its matched send started is a clock-condition
 * violation: counted, and its wait clamped to the call.
 *
 * Regions are whatever the caller's indices name; the merge gives a
 * region at a call site (run_waits.h), so that rows and the path tell call
 * sites apart, and groups them by region with ms_wx_rows.
 *
 * Critical path: from the last rank to enter MPI_Finalize, backward; at a
 * wait state it follows the rank that caused it (the late sender, the root,
 * the last rank in), elsewhere it stays on the rank. Only the first thread
 * of each rank is walked.
 */
#ifndef MPISCOPE_WAITS_H
#define MPISCOPE_WAITS_H

#include <stddef.h>

#include "wait_types.h"

/* Match and measure; ranks ascending by rank, each once. *out is zeroed
 * first. 0, or -1 when out of memory (*out then holds nothing). */
int ms_waits_compute(const ms_wx_rank *ranks, size_t nranks, ms_waits *out);

/* The rows of the waiting calls inst (ms_waits_compute's, of the same
 * ranks) by (pattern, rank, map[region]): regions grouped as map says
 * (nmap entries; NULL: as they are). *out is malloc'ed, sorted as
 * ms_waits.rows. 0, or -1 when out of memory (*out NULL). */
int ms_wx_rows(const ms_wx_rank *ranks, size_t nranks, const ms_wx_instance *inst, size_t ninst,
               const uint32_t *map, size_t nmap, ms_wx_row **out, size_t *nout);

#endif
