/*
 * Making the MPI library's symbols reachable (mpi_scope.c).
 */
#ifndef MPISCOPE_MPI_SCOPE_H
#define MPISCOPE_MPI_SCOPE_H

#include "../preload/tstate.h"

/* Make loaded MPI libraries global before the first PMPI call. */
MS_HIDDEN void ms_mpi_make_global(void);

#endif
