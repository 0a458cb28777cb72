/*
 * Files of MPI-IO (files.c): an id per file opened or deleted, its file
 * record (communicator and path) in the log, and the calls' comm and file
 * from a handle.
 */
#ifndef MPISCOPE_FILES_H
#define MPISCOPE_FILES_H

#include <mpi.h>
#include <stdint.h>

#include "call_record.h"
#include "../preload/tstate.h"

MS_HIDDEN void ms_files_init(void);
/* A file opened on comm_id with path `name`: a new file id, its file record
 * written on thread t; the id (-1 when the handle cannot be kept). */
MS_HIDDEN int32_t ms_file_new(ms_thread *t, MPI_File fh, int64_t comm_id, const char *name);
/* The call's comm and file from the handle (-1 for a handle not known). */
MS_HIDDEN void ms_file_of(ms_call *c, MPI_File fh);
MS_HIDDEN void ms_file_forget(MPI_File fh);
/* A new file id for a path without a handle (MPI_File_delete), its file
 * record written (comm none). */
MS_HIDDEN int32_t ms_file_named(ms_thread *t, const char *name);

#endif
