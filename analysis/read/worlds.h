/*
 * The worlds of one analysis (mpiscope-merge --with-spawned; docs/DESIGN.md
 * section 6, "Spawned worlds"): the world the launcher started (DIR) and
 * the worlds it spawned (DIR/spawn-K), read as one run. Each world's ranks
 * get one range of a single index space, the first world's first, then
 * each spawn-K's in K order; the reader (log_dispatch.c) delivers every
 * log of a world as if the run were one world:
 *
 *   - the header's rank is the world's offset plus its own, its size the
 *     worlds' total; sync peers move by the offset;
 *   - a communicator id of a spawned world (region names' comm=, message,
 *     file, ending, communicator and origin and name records) is mixed
 *     with the world's number, so that no two worlds' ids meet (self, 1,
 *     stays: it maps rank 0 to the rank itself); its MPI_COMM_WORLD (0)
 *     becomes such an id, whose members and name ("world 1") the reader
 *     gives before the log's own records;
 *   - members of communicators move by the offset;
 *   - the two sides of a spawn's intercommunicator get one id, the
 *     parents': the spawned world's parent intercommunicator (the
 *     communicator its logs say was made by no call, from no parent) is
 *     the one its rank 0's header names (its key spawned_by=, docs/FORMAT.md),
 *     its members the spawning group; the parents' record of it, which has
 *     no members (another world's), gets the spawned world's ranks.
 *
 * The table is set once (world_setup.h reads the logs' headers), before
 * any read, and is read-only after: readers of every thread consult it.
 * Without it every log reads as itself.
 */
#ifndef MPISCOPE_WORLDS_H
#define MPISCOPE_WORLDS_H

#include <stddef.h>
#include <stdint.h>

typedef struct ms_world {
    char *dir;                 /* its logs' directory, as the merge names them */
    unsigned k;                /* spawn-K; 0: DIR itself */
    uint32_t index;            /* its number: 0, 1, ... (ranks "index:rank") */
    int32_t offset, size;      /* its ranks in the one index space */
    char run[17];              /* run id of its logs' headers; "" */
    int32_t parent;            /* the world that spawned it; -1: not known */
    int64_t parent_comm;       /* the spawn's intercommunicator in the
                                  parent's logs; -1: not known */
    int64_t own_comm;          /* its parent intercommunicator in its own
                                  logs; -1: not known */
    int32_t *group;            /* the spawning group, parent's world ranks */
    uint32_t ngroup;
} ms_world;

/* Take over v (n worlds, index order, offsets and sizes set); the table
 * frees them at ms_worlds_clear. */
void ms_worlds_set(ms_world *v, size_t n);
void ms_worlds_clear(void);
/* Worlds of the table (0: none, every log reads as itself). */
size_t ms_worlds_count(void);
const ms_world *ms_world_at(size_t i);
/* The worlds' ranks together. */
int32_t ms_worlds_ranks(void);
/* The world of the log at path (its directory, as listed), or NULL. */
const ms_world *ms_world_of_path(const char *path);
/* The world of a rank of the one index space, or NULL. */
const ms_world *ms_world_of_rank(int32_t rank);

/* K of a directory name spawn-K (K > 0, no leading zero), else 0. */
unsigned ms_spawn_dir_k(const char *name);

/* The K of dir's spawn-K folders, ascending, into *out (malloc'd; NULL
 * when none); their count. */
size_t ms_spawn_dirs(const char *dir, unsigned **out);

/* A communicator id of world w's logs in the one run. */
int64_t ms_world_comm(const ms_world *w, int64_t id);
/* The members of communicator `id` (raw, as w's log has it) of n world
 * ranks `in`, in the one run: into *out (grown as needed, *cap entries),
 * their count returned; -1 when out of memory. */
int64_t ms_world_members(const ms_world *w, uint64_t id, const int32_t *in, uint32_t n, int32_t **out,
                         size_t *cap);
/* A region name of w's logs with its comm= in the one run, into buf (cap
 * bytes): its length, or 0 when the name stays as it is. */
size_t ms_world_name(const ms_world *w, const char *name, size_t len, char *buf, size_t cap);

/* A rank of the one index space as the reports print it: "1:0" (world
 * index, rank in it) when the table has worlds, else the plain number.
 * Into buf (cap bytes), returned. */
const char *ms_rank_name(int64_t rank, char *buf, size_t cap);
/* The same by value, for a printf argument: ms_rank_s(r).s. */
typedef struct ms_rank_str {
    char s[24];
} ms_rank_str;
ms_rank_str ms_rank_s(int64_t rank);

#endif
