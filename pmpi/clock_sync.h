/*
 * Measuring each rank's clock against rank 0's at MPI_Init and at
 * MPI_Finalize (sync blocks, docs/FORMAT.md; the merge's use of them:
 * analysis/reduce/clock_align.h). See clock_sync.c.
 */
#ifndef MPISCOPE_CLOCK_SYNC_H
#define MPISCOPE_CLOCK_SYNC_H

#include <mpi.h>

#include "../common/log_format.h"
#include "../preload/tstate.h"

/* The longest any rank waits at MPI_Finalize for the exchange (ms): a rank
 * that is late by more, has died or called MPI_Abort leaves the others
 * without a measurement. A rank that was served then waits for rank 0's
 * release, within as long again (rank 0's own bound began before it). */
#define MS_SYNC_FINALIZE_MS 1000
/* The same at MPI_Init, where every rank has just taken part in the
 * directory broadcast. */
#define MS_SYNC_INIT_MS 10000
/* Round trips per measurement. */
#define MS_SYNC_EXCHANGES 16

/* Collective over world (MPI_COMM_WORLD, or where sessions began the run
 * the tool's communicator over mpi://WORLD), right after the directory
 * broadcast, on every rank when the broadcast said so (also with
 * MPISCOPE_DISABLE=1): duplicate world for the tool and measure. Returns 1
 * and fills *out on a rank other than 0 that measured; else 0. */
MS_HIDDEN int ms_sync_init(MPI_Comm world, int rank, int size, ms_sync_sample *out);

/* At MPI_Finalize, before PMPI_Finalize (or before the run's last
 * MPI_Session_finalize), on every rank that took part at init: measure
 * again (bounded by MS_SYNC_FINALIZE_MS) and write the measurement to the
 * log when recording. Once: later calls do nothing. */
MS_HIDDEN void ms_sync_finalize(void);

#endif
