/*
 * Where a rank was as it ended (log blocks of kind MS_BLOCK_ENDING,
 * common/log_format.h): the MPI call each thread is inside
 * (ms_thread.in_call, set by every wrapper as the call begins), turned
 * into an ending record by
 *   - a signal handler (signals.c): the signal, and for a fault the
 *     faulting instruction from the signal context;
 *   - MPI_Abort (pmpi/lifecycle.c): its error code;
 *   - the writer thread (writer.c): a call that has lasted
 *     MS_ENDING_BLOCKED_MS is written with the records before it
 *     (BLOCKED), so that a rank killed by SIGKILL while it waits keeps where
 *     it waited; and, with MPISCOPE_HANG_S=N, a call that has lasted N s,
 *     or N s without a recorded call, is written once (STUCK).
 * Everything the handlers call here is async-signal-safe.
 */
#ifndef MPISCOPE_ENDING_H
#define MPISCOPE_ENDING_H

#include <stdint.h>

#include "../common/log_format.h"
#include "tstate.h"

/* How long a call lasts before the writer writes the log up to it. */
#define MS_ENDING_BLOCKED_MS 20u

/* An ending record of cause, as of now: the call thread t is inside (NULL
 * or in none: the first thread found inside a call). */
MS_HIDDEN void ms_ending_fill(ms_ending_record *e, uint32_t cause, ms_thread *t);

/* MPI_Abort's record (its error code, its op and call site), to be written
 * by the stop that follows (writer.c). */
MS_HIDDEN void ms_ending_set_abort(int code, uint32_t op, uint64_t pc);
/* The record set by ms_ending_set_abort, or NULL. */
MS_HIDDEN const ms_ending_record *ms_ending_pending(void);

/* A rank that dies of its own accord (a fault, MPI_Abort) waits, after its
 * log is closed, one flush interval and two MS_ENDING_BLOCKED_MS: the
 * launcher kills the other ranks with SIGKILL as soon as it learns of the
 * death (MPICH's at once), and by then their writers have written
 * everything recorded and where each waits. A process alone (a world of
 * one rank, and no intercommunicator to another job) has nobody to wait
 * for and goes on at once. Async-signal-safe. */
MS_HIDDEN void ms_ending_linger(void);
/* Whether the process is alone, as ms_ending_linger means it: set at start
 * (its world's size is 1), cleared by an intercommunicator. */
MS_HIDDEN void ms_ending_set_alone(int alone);

/* The writer thread, at each wake-up (mono_ns: CLOCK_MONOTONIC now): what
 * to write, found in *e. Returns 0 (nothing), MS_ENDING_BLOCKED (a call
 * has lasted MS_ENDING_BLOCKED_MS since the writer last wrote one) or
 * MS_ENDING_STUCK (MPISCOPE_HANG_S reached, once per call or idle time). */
MS_HIDDEN uint32_t ms_ending_watch(uint64_t mono_ns, ms_ending_record *e);

#endif
