/*
 * Another PMPI tool preloaded with mpiscope (stacking.c).
 *
 * mpiscope defines both MPI_X and PMPI_X for every function of calls.tbl
 * (generated, scripts/gen_wrappers.py), and records in whichever a call
 * reaches first; the other passes it on untouched, since the calling
 * thread is busy recording it (ms_enter). The MPI library's PMPI_X is
 * ms_pmpi_X (dlsym(RTLD_NEXT)): mpiscope's own calls (clock sync,
 * communicator ids, the agreement at init) go there, unseen by any tool
 * and unrecorded.
 *
 * Ahead of mpiscope: a tool that comes first in LD_PRELOAD takes the
 * program's MPI_X calls and passes them on to PMPI_X, which is mpiscope's:
 * mpiscope records them there and calls the MPI library's. The calls that
 * tool makes on its own in its MPI_Init, MPI_Init_thread and MPI_Finalize
 * (mpiP gathers its report there) are not the program's: a PMPI_X call
 * made while one of those functions of the tool is on the stack
 * (backtrace, only on this path) is passed on unrecorded.
 *
 * After mpiscope: each wrapper calls the function its pointer
 * ms_next_MPI_X names: the next MPI_X (dlsym(RTLD_NEXT)) where another
 * object than the MPI library has it, else ms_pmpi_X. That tool then sees
 * every call mpiscope sees, MPI_Init too; what it passes on to PMPI_X
 * reaches mpiscope's PMPI_X, which, the thread being busy, records it no
 * second time. The pointers are looked up at load and again at the first
 * MPI_Init (an MPI loaded after mpiscope, as mpi4py loads it).
 */
#ifndef MPISCOPE_STACKING_H
#define MPISCOPE_STACKING_H

#include <mpi.h>

#include "../preload/tstate.h"

/* At load: whether another tool is ahead of mpiscope, and its functions. */
MS_HIDDEN void ms_pmpi_check_stacking(void);

/* 1 when a tool is ahead of mpiscope and this PMPI_X call is one it makes
 * on its own, from its MPI_Init, MPI_Init_thread or MPI_Finalize. */
MS_HIDDEN int ms_pmpi_tool_own_call(void);

/* The definition of NAME after mpiscope's (the MPI library's PMPI_X),
 * else old. */
MS_HIDDEN void *ms_pmpi_real(const char *name, void *old);

/* The next tool's definition of NAME where another object than PMPI's
 * (the object defining PMPI, the function at pmpi) has one, else pmpi. */
MS_HIDDEN void *ms_pmpi_next(const char *name, void *pmpi);

/* The same for a Fortran entry point: NAMES lists its manglings, each
 * ended by a NUL ("mpi_send_\0mpi_send__\0"), and the first that another
 * object than PMPI's defines is taken. The generated Fortran entry points
 * (gen_fortran.py) call through such pointers, set at load. */
MS_HIDDEN void *ms_pmpi_next_of(const char *names, void *pmpi);

/* The pointers, ms_pmpi_X and ms_next_MPI_X (generated). */
#include "pmpi_next.h"

#endif
