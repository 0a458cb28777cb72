/*
 * Worlds that a run spawned (MPI_Comm_spawn): each logged as a world of its
 * own in DIR/spawn-K/ (docs/DESIGN.md section 5), which a merge of DIR does
 * not read but names (text report header, --json key "spawned_worlds"), so
 * that the user merges it on its own: mpiscope-merge DIR/spawn-K.
 */
#ifndef MPISCOPE_REPORT_SPAWN_H
#define MPISCOPE_REPORT_SPAWN_H

#include <stddef.h>

typedef struct ms_spawned_world {
    unsigned k;      /* spawn-K */
    size_t logs;     /* rank-*.zst files in it */
} ms_spawned_world;

/* The spawn-K subdirectories of dir that hold logs, by K; *out malloc'd
 * (NULL when none). Returns how many, or 0 when none or out of memory. */
size_t ms_spawned_worlds(const char *dir, ms_spawned_world **out);

#endif
