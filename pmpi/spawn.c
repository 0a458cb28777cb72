/* A spawned world's log directory and parent intercommunicator: see spawn.h. */
#include "spawn.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../preload/config.h"
#include "../preload/diag.h"
#include "comm_ids.h"

/* The parent intercommunicator, or MPI_COMM_NULL outside a spawned world. */
static MPI_Comm parent_of(MPI_Comm world)
{
    MPI_Comm parent = MPI_COMM_NULL;
    if (world != MPI_COMM_WORLD || ms_cfg.disable)
        return MPI_COMM_NULL;
    if (PMPI_Comm_get_parent(&parent) != MPI_SUCCESS)
        return MPI_COMM_NULL;
    return parent;
}

int ms_spawned_world(MPI_Comm world)
{
    return parent_of(world) != MPI_COMM_NULL;
}

void ms_spawn_world_dir(MPI_Comm world, char *dir, size_t cap)
{
    /* Without MPISCOPE_DIR the parents' directory is not known here: the
     * world keeps a default directory of its own. */
    if (!ms_cfg.dir[0] || parent_of(world) == MPI_COMM_NULL)
        return;
    char base[sizeof ms_cfg.dir];
    snprintf(base, sizeof base, "%s", dir);
    if (mkdir(base, 0777) != 0 && errno != EEXIST)
        return;  /* the runtime says it cannot create it */
    for (unsigned k = 1; k < 1000000; k++) {
        int len = snprintf(dir, cap, "%s/spawn-%u", base, k);
        if (len < 0 || (size_t)len >= cap) {
            snprintf(dir, cap, "%s", base);
            ms_warn_once(MS_WARN_DIR, "the log directory \"%s\" is too long for a spawned world's spawn-K; "
                         "nothing is recorded", base);
            dir[0] = 0;
            return;
        }
        if (mkdir(dir, 0777) == 0)
            return;
        if (errno != EEXIST)
            return;  /* the runtime says why it cannot create it */
    }
}

void ms_spawn_started(ms_thread *t, MPI_Comm world)
{
    MPI_Comm parent = parent_of(world);
    if (parent != MPI_COMM_NULL)
        ms_comm_created(t, NULL, MPI_COMM_WORLD, parent, MS_COMM_INTER);
}
