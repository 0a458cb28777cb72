/*
 * Dynamic processes (MPI_Comm_spawn, MPI_Comm_spawn_multiple): a world that
 * was spawned logs as a world of its own in a subdirectory of the log
 * directory its parents use, <MPISCOPE_DIR>/spawn-K (docs/DESIGN.md section
 * 5), which its parents' root tells it. The spawn, connect and accept
 * calls themselves are generated rows of calls.tbl (230-233).
 */
#ifndef MPISCOPE_SPAWN_H
#define MPISCOPE_SPAWN_H

#include <mpi.h>
#include <stddef.h>

#include "../preload/tstate.h"

/* Rank 0 of world, before it tells its world the log directory dir (cap
 * bytes): in a spawned world (MPI_Comm_get_parent is not MPI_COMM_NULL),
 * dir becomes the first <base>/spawn-K (K = 1, 2, ... MS_SPAWN_DIR_MAX)
 * that this call creates (mkdir: atomic, so that worlds spawned at the
 * same time get different ones), base being the directory the parents'
 * root sent (ms_spawn_tell), else, from parents that do not record, dir
 * under MPISCOPE_DIR (without it dir stays: a default directory of the
 * world's own). When every spawn-K exists, or the path is too long, one
 * warning and dir empty: the world records nothing. Nothing in other
 * worlds, nor where world is not MPI_COMM_WORLD (sessions); with
 * MPISCOPE_DISABLE=1 the parents' message is taken, nothing else. */
__attribute__((visibility("hidden"))) void ms_spawn_world_dir(MPI_Comm world, char *dir, size_t cap);

/* Every rank of world, with the run's log directory and run id: the
 * directory its spawns' worlds log into a spawn-K of (its own; in a
 * spawned world, its parents'), and the run they name as their parents'. */
__attribute__((visibility("hidden"))) void ms_spawn_set_dir(MPI_Comm world, const char *dir, const char *run);

/* In a spawned world's rank 0, after ms_spawn_world_dir: the link its
 * parents' root sent (the header key spawned_by=), "<run>:<id>:<ranks>": the
 * parents' run id, the id of the spawn's intercommunicator in their logs,
 * and the world ranks of the spawning group (its remote group here) as
 * ranges ("0-3,7"); "" when none came. Its log header holds it as
 * spawned_by=. */
__attribute__((visibility("hidden"))) const char *ms_spawn_link(void);

/* After an MPI_Comm_spawn(_multiple) over comm that made intercomm: the
 * root sends the spawned world's rank 0 the directory of ms_spawn_set_dir
 * and the link (ms_spawn_link) in one message (tag 28019 on intercomm,
 * never waited for; its buffer is kept until ms_spawn_release). */
__attribute__((visibility("hidden"))) void ms_spawn_tell(int root, MPI_Comm comm, MPI_Comm intercomm);

/* After MPI_Finalize, which completed the sends of ms_spawn_tell: their
 * buffers are freed. */
__attribute__((visibility("hidden"))) void ms_spawn_release(void);

/* 1 in a spawned world (world is MPI_COMM_WORLD, MPI_Comm_get_parent is
 * not MPI_COMM_NULL); 0 otherwise, and with MPISCOPE_DISABLE=1. */
__attribute__((visibility("hidden"))) int ms_spawned_world(MPI_Comm world);

/* Every rank of world once recording has started (t its thread): in a
 * spawned world, the parent intercommunicator gets its id (as one made
 * over MPI_COMM_WORLD by MPI_Intercomm_create), so that calls on it are
 * reported with it. */
__attribute__((visibility("hidden"))) void ms_spawn_started(ms_thread *t, MPI_Comm world);

#endif
