/* A spawned world's log directory and parent intercommunicator: see spawn.h. */
#define _DEFAULT_SOURCE
#include "spawn.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../preload/config.h"
#include "../preload/diag.h"
#include "comm_ids.h"
#include "spawn_dir.h"
#include "stacking.h"

/* The tag of the directory the parents' root sends a spawned world's rank
 * 0 over their intercommunicator. */
#define SPAWN_TAG 28019
/* How long a spawned world's rank 0 waits for it (a parent world that does
 * not record sends none). */
#define SPAWN_WAIT_MS 5000

/* The directory whose spawn-K this process's spawned worlds log into: the
 * run's own, or, in a spawned world, its parents' (flat). Sent from here:
 * it stays while the send completes. */
static char spawn_base[sizeof ms_cfg.dir];

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

/* The parents' directory, from their root (1), or 0 when none came within
 * SPAWN_WAIT_MS. */
static int from_parents(MPI_Comm parent, char *base, size_t cap)
{
    struct timespec nap = {0, 1000000};
    for (int waited = 0; waited < SPAWN_WAIT_MS; waited++) {
        int flag = 0, n = 0;
        MPI_Status st;
        if (ms_pmpi_Iprobe(MPI_ANY_SOURCE, SPAWN_TAG, parent, &flag, &st) != MPI_SUCCESS)
            return 0;
        if (flag) {
            PMPI_Get_count(&st, MPI_CHAR, &n);
            if (n <= 0 || (size_t)n > cap) {
                /* Not ours to read (a message of the application's). */
                return 0;
            }
            ms_pmpi_Recv(base, n, MPI_CHAR, st.MPI_SOURCE, SPAWN_TAG, parent, MPI_STATUS_IGNORE);
            base[n - 1] = 0;
            return base[0] != 0;
        }
        nanosleep(&nap, NULL);
    }
    return 0;
}

void ms_spawn_world_dir(MPI_Comm world, char *dir, size_t cap)
{
    MPI_Comm parent = MPI_COMM_NULL;
    if (world != MPI_COMM_WORLD || PMPI_Comm_get_parent(&parent) != MPI_SUCCESS || parent == MPI_COMM_NULL)
        return;
    /* Taken also with MPISCOPE_DISABLE=1: the parents' message is never
     * left to the application. */
    char base[sizeof ms_cfg.dir];
    int told = from_parents(parent, base, sizeof base);
    if (ms_cfg.disable)
        return;
    if (!told) {
        /* Parents that do not record: under MPISCOPE_DIR, its spawn-K;
         * without it, a default directory of the world's own. */
        if (!ms_cfg.dir[0])
            return;
        snprintf(base, sizeof base, "%s", dir);
    }
    if (mkdir(base, 0777) != 0 && errno != EEXIST) {
        snprintf(dir, cap, "%s", base);
        return;  /* the runtime says it cannot create it */
    }
    int rc = ms_spawn_dir_make(base, 1, MS_SPAWN_DIR_MAX, dir, cap);
    if (rc == ENAMETOOLONG)
        ms_warn_once(MS_WARN_DIR, "the log directory \"%s\" is too long for a spawned world's spawn-K; "
                     "nothing is recorded", base);
    else if (rc == EEXIST)
        ms_warn_once(MS_WARN_DIR, "the log directory \"%s\" has every spawn-K up to spawn-%u; "
                     "the spawned world records nothing", base, MS_SPAWN_DIR_MAX);
    /* Another error: dir is the path, and the runtime says why it cannot
     * create it. */
}

void ms_spawn_set_dir(MPI_Comm world, const char *dir)
{
    snprintf(spawn_base, sizeof spawn_base, "%s", dir);
    if (!ms_spawned_world(world))
        return;
    /* <base>/spawn-K: its parents' base. */
    char *slash = strrchr(spawn_base, '/');
    unsigned k;
    char end;
    if (slash && sscanf(slash + 1, "spawn-%u%c", &k, &end) == 1)
        *slash = 0;
}

void ms_spawn_tell(int root, MPI_Comm comm, MPI_Comm intercomm)
{
    int rank = -1, n = (int)strlen(spawn_base) + 1;
    if (intercomm == MPI_COMM_NULL || !spawn_base[0] || PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        rank != root)
        return;
    /* Small, and never waited for: the spawned world's rank 0 takes it at
     * its MPI_Init, which the spawn has completed. */
    MPI_Request r;
    if (ms_pmpi_Isend(spawn_base, n, MPI_CHAR, 0, SPAWN_TAG, intercomm, &r) == MPI_SUCCESS)
        ms_pmpi_Request_free(&r);
}

void ms_spawn_started(ms_thread *t, MPI_Comm world)
{
    MPI_Comm parent = parent_of(world);
    if (parent != MPI_COMM_NULL)
        ms_comm_created(t, NULL, MPI_COMM_WORLD, parent, MS_COMM_INTER);
}
