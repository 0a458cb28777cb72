/*
 * User regions (include/mpiscope.h and MPI_Pcontrol): a per-thread stack of
 * open regions; each region is recorded as one ordinary event of a region
 * with the name as given, written at its end.
 */
#ifndef MPISCOPE_USER_REGIONS_H
#define MPISCOPE_USER_REGIONS_H

#include <stdint.h>

#include "tstate.h"

/* Begin and end a region of the calling thread (NULL names are ignored). */
MS_HIDDEN void ms_user_begin(const char *name);
MS_HIDDEN void ms_user_end(const char *name);

/* At the start of MPI_Finalize (t entered by the caller, at tool time
 * now): record the calling thread's open regions as ending now. */
MS_HIDDEN void ms_user_close_all(ms_thread *t, uint64_t now);

#endif
