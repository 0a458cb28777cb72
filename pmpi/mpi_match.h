/*
 * The MPI the process really uses, against the one this library is built
 * for (mpi_match.c).
 *
 * libmpiscope-mpich.so preloaded into an Open MPI program (or
 * libmpiscope-openmpi.so into an MPICH one) would hand the MPI library
 * handles of the other MPI (MPICH's MPI_COMM_WORLD is an int, Open MPI's a
 * pointer) and crash the program, or make MPI fail it. At its MPI_Init,
 * after the MPI library's and before mpiscope uses any handle, the library
 * asks which MPI defines the PMPI functions it calls: a symbol only Open
 * MPI defines (ompi_mpi_comm_world), one only MPICH and its derivatives
 * define (MPIR_Err_create_code). On a mismatch, rank 0 (by its launcher's
 * environment) says once which library to use, and recording never
 * starts: every wrapper passes its call on as it came (ms_recording, a
 * jump with the caller's registers), so the program runs unprofiled, its
 * output and exit status unchanged.
 */
#ifndef MPISCOPE_MPI_MATCH_H
#define MPISCOPE_MPI_MATCH_H

#include "../preload/tstate.h"

/* 1 when the process uses the other MPI; says so once (rank 0) the first
 * time. Call it after the MPI library is loaded (at MPI_Init). */
MS_HIDDEN int ms_mpi_foreign(void);

/* Set by ms_mpi_foreign on a mismatch: the hand-written wrappers whose
 * parameters are handles pass their calls on first. */
MS_HIDDEN extern int ms_mpi_is_foreign;

#endif
