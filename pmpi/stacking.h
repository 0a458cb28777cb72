/*
 * Another PMPI tool preloaded ahead of mpiscope (stacking.c). A tool that
 * comes first in LD_PRELOAD takes the program's MPI_* calls and passes them
 * on to PMPI_*, so none of them reaches mpiscope's wrappers: mpiscope would
 * record nothing, silently. At load, it looks up which object defines the
 * MPI_Init the program calls; when that is neither mpiscope nor the MPI
 * library, rank 0 says so once, and how to order LD_PRELOAD.
 */
#ifndef MPISCOPE_STACKING_H
#define MPISCOPE_STACKING_H

#include "../preload/tstate.h"

MS_HIDDEN void ms_pmpi_check_stacking(void);

#endif
