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
    const char *spawned_by;   /* a spawned world's rank 0: its parents'
                                 link (pmpi/spawn.h); NULL or "": none */
} ms_start_info;

/* Create the log and the writer thread, then turn recording on. Returns 0,
 * or -1 after one warning (the application carries on, unrecorded). */
MS_HIDDEN int ms_runtime_start(const ms_start_info *info);

/* Turn recording off, drain every thread's buffer, write the end record and
 * close the log. finalize_start_ns is 0 when MPI_Finalize was not called. */
MS_HIDDEN void ms_runtime_stop(uint64_t finalize_start_ns);

/* The flush from a signal handler, ms_runtime_flush_from_signal, is the
 * writer's (writer.h). */

/* Write a clock-sync block (log_format.h) now. Returns 0, or -1 when
 * not recording or the write failed. */
MS_HIDDEN int ms_runtime_write_sync(const ms_sync_sample *s);

/* Whether this process may record at all (not disabled, not setuid, not a
 * forked child). */
MS_HIDDEN int ms_runtime_allowed(void);

/* At load: this process must not record (a collector could not be set up);
 * the caller has said why. */
MS_HIDDEN void ms_runtime_refuse(void);

#endif
