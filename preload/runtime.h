/*
 * The recording core's life cycle, independent of MPI: start once the rank
 * and the directory are known, stop at MPI_Finalize or at exit.
 */
#ifndef MPISCOPE_RUNTIME_H
#define MPISCOPE_RUNTIME_H

#include <stdint.h>

#include "tstate.h"

typedef struct ms_start_info {
    const char *dir;          /* agreed directory (created if missing) */
    int rank, size;
    uint64_t init_start_ns, init_end_ns;
    const char *mpi_library;  /* MPI library version string */
    uint64_t run_id;          /* the same on every rank of the run */
} ms_start_info;

/* Create the log and the writer thread, then turn recording on. Returns 0,
 * or -1 after one warning (the application carries on, unrecorded). */
MS_HIDDEN int ms_runtime_start(const ms_start_info *info);

/* Turn recording off, drain every thread's buffer, write the end record and
 * close the log. finalize_start_ns is 0 when MPI_Finalize was not called. */
MS_HIDDEN void ms_runtime_stop(uint64_t finalize_start_ns);

/* From a signal handler (async-signal-safe): write what every thread has
 * buffered, then, when close_log, the end record, and close the log.
 * Nothing is written afterwards. Waits a bounded time for a block another
 * thread is writing; does nothing in a forked child or in a handler that
 * interrupted the log's own writing. */
MS_HIDDEN void ms_runtime_flush_from_signal(int close_log);

/* Write a clock-sync block (log_format.h) now. Returns 0, or -1 when
 * not recording or the write failed. */
MS_HIDDEN int ms_runtime_write_sync(const ms_sync_sample *s);

/* Whether this process may record at all (not disabled, not setuid, not a
 * forked child). */
MS_HIDDEN int ms_runtime_allowed(void);

#endif
