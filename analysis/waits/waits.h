/*
 * Why ranks wait: message matching, wait-state patterns and the critical
 * path (DESIGN section 6, "Wait states"), on plain facts of every rank.
 *
 * The reduction gives each rank's facts (wait_spill.h: on disk, sorted)
 * and how to move them to the run's common clock: the events the
 * analyses look at, every message end it sent or received, and every
 * collective it entered. This module knows nothing of logs or region
 * names; it matches and measures.
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
 *                    send's entry; a poll run (test family, probes:
 *                    analysis/reduce/wait_facts.h) from its first poll
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
 * Streaming (replay.c). Every rank's ends are merged in entry order;
 * a channel holds its ends not yet matched (beyond 1,024 on disk), a
 * collective its calls until every member came; the candidate waits go
 * to disk and come back by rank and event, the best of each event its
 * waiting call. Memory follows what is in flight, not the run's length:
 * DESIGN section 6 states the bound.
 *
 * Regions are whatever the caller's indices name; the merge gives a
 * region at a call site (run_waits.h), so that rows and the path tell call
 * sites apart, and groups them by region (ms_wx_opts.group).
 *
 * Critical path: from the last rank to enter MPI_Finalize, backward; at a
 * wait state it follows the rank that caused it (the late sender, the root,
 * the last rank in), elsewhere it stays on the rank. Only the first thread
 * of each rank is walked.
 */
#ifndef MPISCOPE_WAITS_H
#define MPISCOPE_WAITS_H

#include <stddef.h>

#include "wait_input.h"
#include "wait_types.h"

/* Match and measure; inputs ascending by rank, each once. *out is zeroed
 * first. 0, or -1 when out of memory or on a temporary file's error
 * (*out then holds nothing). */
int ms_waits_run(const ms_wx_input *in, size_t n, const ms_wx_opts *opts, ms_waits *out);

/* The same on facts in memory (ms_wx_rank: events in start order per
 * thread, messages and collectives in any order), spilled first; rows by
 * region, marks of every rank. */
int ms_waits_compute(const ms_wx_rank *ranks, size_t nranks, ms_waits *out);

/* Free what w holds (NULL: nothing); w is then empty. */
void ms_waits_free(ms_waits *w);

/* Waiting calls [at, at + n) of w (by rank, then event) into out. 0, or -1
 * (past the end, a read error). */
int ms_waits_inst_read(const ms_waits *w, size_t at, size_t n, ms_wx_instance *out);

#endif
