/*
 * Windows and matched messages (objects.c): the communicator each came
 * from, by handle, for the calls on them that name no communicator.
 */
#ifndef MPISCOPE_OBJECTS_H
#define MPISCOPE_OBJECTS_H

#include <mpi.h>
#include <stdint.h>

#include "../preload/tstate.h"

MS_HIDDEN void ms_objects_init(void);
MS_HIDDEN void ms_win_new(MPI_Win win, int64_t comm_id);
MS_HIDDEN int64_t ms_win_comm(MPI_Win win);
MS_HIDDEN void ms_win_forget(MPI_Win win);
MS_HIDDEN void ms_msg_new(MPI_Message msg, int64_t comm_id);
/* The comm id a matched message came from; forgets the message. */
MS_HIDDEN int64_t ms_msg_take(MPI_Message msg);

#endif
