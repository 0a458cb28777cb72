/*
 * The PMPI collector (collector.h): the MPI wrappers of pmpi/. Recording
 * starts and stops with MPI_Init and MPI_Finalize (lifecycle.c), so its
 * hooks only ask the core for the per-thread slots of its files.
 */
#ifndef MPISCOPE_PMPI_COLLECTOR_H
#define MPISCOPE_PMPI_COLLECTOR_H

#include "../preload/tstate.h"

/* The MPI functions (and their Fortran entry points) the collector defines
 * for the application. */
#define MS_EXPORT __attribute__((visibility("default")))

/* Indices of ms_thread.slot, set at load: the call cache (call_record.h),
 * the request scratch arrays (requests.c), the Fortran conversion arrays
 * (fortran.c). */
extern MS_HIDDEN int ms_pmpi_slot_calls, ms_pmpi_slot_requests, ms_pmpi_slot_fortran;

#endif
