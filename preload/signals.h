/*
 * Terminating and crash signals: write what is recorded before the process
 * dies, then let the signal do what it would have done without the tool.
 *
 * SIGTERM, SIGINT, SIGHUP, SIGXCPU, SIGUSR1 and SIGUSR2 are handled only when their
 * disposition is the default at start (the application has not claimed
 * them): the handler writes every buffer and the end record, closes the
 * log, restores the previous disposition and raises the signal again.
 * SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT are handled unless ignored: the
 * handler writes the complete buffers (no end record: the log reads as cut
 * short), restores
 * the previous handler (the MPI library's, say) and lets the signal recur.
 * Either handler writes an ending block (ending.h) before it closes: the
 * signal, the MPI call the rank was inside, and for a fault the faulting
 * instruction from the signal context (for abort(), its caller).
 * A handler the application installs later replaces ours; one that chains to
 * the handler it replaced runs ours too.
 */
#ifndef MPISCOPE_SIGNALS_H
#define MPISCOPE_SIGNALS_H

#include <signal.h>

#include "tstate.h"

/* Install the handlers (once the log is open). */
MS_HIDDEN void ms_signals_install(void);

/* Put back the previous dispositions where ours are still in place. */
MS_HIDDEN void ms_signals_restore(void);

/* Block the terminating signals in the calling thread; *old gets the mask
 * to restore. */
MS_HIDDEN void ms_signals_block(sigset_t *old);

#endif
