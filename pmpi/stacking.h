/*
 * Another PMPI tool preloaded with mpiscope (stacking.c).
 *
 * Ahead of mpiscope: a tool that comes first in LD_PRELOAD takes the
 * program's MPI_* calls and passes them on to PMPI_*, so none of them
 * reaches mpiscope's wrappers: mpiscope would record nothing, silently. At
 * load, it looks up which object defines the MPI_Init the program calls;
 * when that is neither mpiscope nor the MPI library, rank 0 says so once,
 * and how to order LD_PRELOAD.
 *
 * After mpiscope: each wrapper calls the function its pointer
 * ms_next_MPI_X names (generated with the wrappers, from calls.tbl): PMPI_X
 * until load, when ms_pmpi_find_next (a constructor there) points it at
 * the next MPI_X (dlsym(RTLD_NEXT)) where another object than the one
 * defining PMPI_X has it. That tool then sees every call mpiscope sees, MPI_Init too. The
 * profiler's own calls (clock sync, communicator ids...) go to PMPI_X
 * directly, unseen by the other tool.
 */
#ifndef MPISCOPE_STACKING_H
#define MPISCOPE_STACKING_H

#include <mpi.h>

#include "../preload/tstate.h"

MS_HIDDEN void ms_pmpi_check_stacking(void);

/* The next tool's definition of NAME where another object than PMPI's
 * (the object defining PMPI, the function at pmpi) has one, else pmpi. */
MS_HIDDEN void *ms_pmpi_next(const char *name, void *pmpi);

/* The same for a Fortran entry point: NAMES lists its manglings, each
 * ended by a NUL ("mpi_send_\0mpi_send__\0"), and the first that another
 * object than PMPI's defines is taken. The generated Fortran entry points
 * (gen_fortran.py) call through such pointers, set at load. */
MS_HIDDEN void *ms_pmpi_next_of(const char *names, void *pmpi);

/* The custom rows' pointers (generated; pmpi/lifecycle.c calls them). */
MS_HIDDEN extern int (*ms_next_MPI_Init)(int *, char ***);
MS_HIDDEN extern int (*ms_next_MPI_Init_thread)(int *, char ***, int, int *);
MS_HIDDEN extern int (*ms_next_MPI_Finalize)(void);
MS_HIDDEN extern int (*ms_next_MPI_Abort)(MPI_Comm, int);

#endif
