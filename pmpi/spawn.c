/* A spawned world's log directory and parent intercommunicator: see spawn.h. */
#define _DEFAULT_SOURCE
#include "spawn.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
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
/* The largest message of the parents' root: the directory, and the link
 * (the header key spawned_by=: the spawning group as ranges of world ranks). */
#define SPAWN_MSG_MAX (1u << 20)

/* The directory whose spawn-K this process's spawned worlds log into: the
 * run's own, or, in a spawned world, its parents' (flat). Sent from here:
 * it stays while the send completes. */
static char spawn_base[sizeof ms_cfg.dir];
/* This world's run id (16 hex digits), which its spawned worlds name. */
static char spawn_run[17];
/* In a spawned world's rank 0: what its parents' root sent after the
 * directory, "<run>:<intercommunicator id>:<world ranks>" (spawn.h); NULL
 * when none came. */
static char *spawn_link;
/* The root's messages, kept until MPI_Finalize has completed their sends
 * (their requests are freed at once: nothing waits for a spawned world
 * that never takes its message). */
typedef struct sent_msg {
    struct sent_msg *next;
    char text[];
} sent_msg;
static sent_msg *sent;
static pthread_mutex_t sent_lock = PTHREAD_MUTEX_INITIALIZER;

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
 * SPAWN_WAIT_MS; the link after it, when there is one, into spawn_link. */
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
            char *msg = n > 0 && (unsigned)n <= SPAWN_MSG_MAX ? malloc((size_t)n + 1) : NULL;
            if (!msg) {
                /* Not ours to read (a message of the application's). */
                return 0;
            }
            ms_pmpi_Recv(msg, n, MPI_CHAR, st.MPI_SOURCE, SPAWN_TAG, parent, MPI_STATUS_IGNORE);
            msg[n] = 0;
            size_t dlen = strlen(msg);
            if (dlen >= cap) {
                free(msg);
                return 0;
            }
            memcpy(base, msg, dlen + 1);
            if (dlen + 1 < (size_t)n && msg[dlen + 1])
                spawn_link = strdup(msg + dlen + 1);
            free(msg);
            return base[0] != 0;
        }
        nanosleep(&nap, NULL);
    }
    return 0;
}

const char *ms_spawn_link(void)
{
    return spawn_link ? spawn_link : "";
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

void ms_spawn_set_dir(MPI_Comm world, const char *dir, const char *run)
{
    snprintf(spawn_base, sizeof spawn_base, "%s", dir);
    snprintf(spawn_run, sizeof spawn_run, "%s", run);
    if (!ms_spawned_world(world))
        return;
    /* <base>/spawn-K: its parents' base. */
    char *slash = strrchr(spawn_base, '/');
    unsigned k;
    char end;
    if (slash && sscanf(slash + 1, "spawn-%u%c", &k, &end) == 1)
        *slash = 0;
}

/* Ranks as ranges ("0-3,7") appended to buf at *len (cap bytes); 0, or
 * -1 when they do not fit. */
static int put_ranges(char *buf, size_t cap, size_t *len, const int *v, int n)
{
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && v[j + 1] == v[j] + 1)
            j++;
        int w = j > i ? snprintf(buf + *len, cap - *len, "%s%d-%d", i ? "," : "", v[i], v[j])
                      : snprintf(buf + *len, cap - *len, "%s%d", i ? "," : "", v[i]);
        if (w < 0 || (size_t)w >= cap - *len)
            return -1;
        *len += (size_t)w;
        i = j + 1;
    }
    return 0;
}

void ms_spawn_tell(int root, MPI_Comm comm, MPI_Comm intercomm)
{
    int rank = -1;
    if (intercomm == MPI_COMM_NULL || !spawn_base[0] || PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        rank != root)
        return;
    /* The directory, then the link: this world's run, the
     * intercommunicator's id here and the spawning group's world ranks
     * (what the spawned world's parent intercommunicator reaches). */
    int n = 0;
    int *members = ms_comm_members(comm, &n);
    size_t cap = strlen(spawn_base) + 64 + (size_t)n * 12, len = strlen(spawn_base) + 1;
    sent_msg *m = malloc(sizeof *m + cap);
    if (!m) {
        free(members);
        return;
    }
    char *buf = m->text;
    memcpy(buf, spawn_base, len);
    int w = snprintf(buf + len, cap - len, "%s:%" PRId64 ":", spawn_run, ms_comm_lookup(intercomm));
    if (members && spawn_run[0] && w > 0 && (size_t)w < cap - len) {
        size_t at = len + (size_t)w;
        if (put_ranges(buf, cap, &at, members, n) == 0 && at + 1 <= SPAWN_MSG_MAX)
            len = at + 1;
    }
    free(members);
    /* Small, and never waited for: the spawned world's rank 0 takes it at
     * its MPI_Init, which the spawn has completed. */
    MPI_Request r;
    if (ms_pmpi_Isend(buf, (int)len, MPI_CHAR, 0, SPAWN_TAG, intercomm, &r) != MPI_SUCCESS) {
        free(m);
        return;
    }
    ms_pmpi_Request_free(&r);
    pthread_mutex_lock(&sent_lock);
    m->next = sent;
    sent = m;
    pthread_mutex_unlock(&sent_lock);
}

void ms_spawn_release(void)
{
    pthread_mutex_lock(&sent_lock);
    while (sent) {
        sent_msg *m = sent;
        sent = m->next;
        free(m);
    }
    pthread_mutex_unlock(&sent_lock);
}

void ms_spawn_started(ms_thread *t, MPI_Comm world)
{
    MPI_Comm parent = parent_of(world);
    if (parent != MPI_COMM_NULL)
        ms_comm_created(t, NULL, MPI_COMM_WORLD, parent, MS_COMM_INTER);
}
