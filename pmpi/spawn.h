/*
 * Dynamic processes (MPI_Comm_spawn, MPI_Comm_spawn_multiple): a world that
 * was spawned logs as a world of its own in a subdirectory of the log
 * directory its parents use, <MPISCOPE_DIR>/spawn-K (docs/DESIGN.md section
 * 5). The spawn, connect and accept calls themselves are generated rows of
 * calls.tbl (230-233).
 */
#ifndef MPISCOPE_SPAWN_H
#define MPISCOPE_SPAWN_H

#include <mpi.h>
#include <stddef.h>

#include "../preload/tstate.h"

/* Rank 0 of world, before it tells its world the log directory dir (cap
 * bytes): in a spawned world (MPI_Comm_get_parent is not MPI_COMM_NULL)
 * with MPISCOPE_DIR set, dir becomes the first <dir>/spawn-K (K = 1, 2,
 * ...) that this call creates (mkdir: atomic, so that worlds spawned at
 * the same time get different ones). Nothing otherwise, nor with
 * MPISCOPE_DISABLE=1 or where world is not MPI_COMM_WORLD (sessions). */
__attribute__((visibility("hidden"))) void ms_spawn_world_dir(MPI_Comm world, char *dir, size_t cap);

/* 1 in a spawned world (world is MPI_COMM_WORLD, MPI_Comm_get_parent is
 * not MPI_COMM_NULL); 0 otherwise, and with MPISCOPE_DISABLE=1. */
__attribute__((visibility("hidden"))) int ms_spawned_world(MPI_Comm world);

/* Every rank of world once recording has started (t its thread): in a
 * spawned world, the parent intercommunicator gets its id (as one made
 * over MPI_COMM_WORLD by MPI_Intercomm_create), so that calls on it are
 * reported with it. */
__attribute__((visibility("hidden"))) void ms_spawn_started(ms_thread *t, MPI_Comm world);

#endif
