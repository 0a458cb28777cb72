/* The worlds of one analysis: see worlds.h. */
#include "worlds.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ms_world *worlds;
static size_t nworlds;
static int32_t total;

void ms_worlds_set(ms_world *v, size_t n)
{
    ms_worlds_clear();
    worlds = v;
    nworlds = n;
    total = 0;
    for (size_t i = 0; i < n; i++)
        total += v[i].size;
}

void ms_worlds_clear(void)
{
    for (size_t i = 0; i < nworlds; i++) {
        free(worlds[i].dir);
        free(worlds[i].group);
    }
    free(worlds);
    worlds = NULL;
    nworlds = 0;
    total = 0;
}

size_t ms_worlds_count(void)
{
    return nworlds;
}

const ms_world *ms_world_at(size_t i)
{
    return i < nworlds ? &worlds[i] : NULL;
}

int32_t ms_worlds_ranks(void)
{
    return total;
}

const ms_world *ms_world_of_path(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    for (size_t i = 0; i < nworlds; i++) {
        size_t n = strlen(worlds[i].dir);
        while (n > 1 && worlds[i].dir[n - 1] == '/')
            n--;
        if (n == dlen && memcmp(worlds[i].dir, path, n) == 0)
            return &worlds[i];
    }
    return NULL;
}

const ms_world *ms_world_of_rank(int32_t rank)
{
    for (size_t i = 0; i < nworlds; i++)
        if (rank >= worlds[i].offset && rank - worlds[i].offset < worlds[i].size)
            return &worlds[i];
    return NULL;
}

unsigned ms_spawn_dir_k(const char *name)
{
    if (strncmp(name, "spawn-", 6) != 0 || name[6] < '1' || name[6] > '9')
        return 0;
    unsigned long v = 0;
    for (const char *c = name + 6; *c; c++) {
        if (*c < '0' || *c > '9' || v > 100000000UL)
            return 0;
        v = v * 10 + (unsigned long)(*c - '0');
    }
    return (unsigned)v;
}

static int by_k(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

size_t ms_spawn_dirs(const char *dir, unsigned **out)
{
    *out = NULL;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    unsigned *v = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        unsigned k = ms_spawn_dir_k(de->d_name);
        if (!k)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            unsigned *p = realloc(v, cap * sizeof *p);
            if (!p)
                break;
            v = p;
        }
        v[n++] = k;
    }
    closedir(d);
    if (n > 1)
        qsort(v, n, sizeof *v, by_k);
    *out = v;
    return n;
}

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

int64_t ms_world_comm(const ms_world *w, int64_t id)
{
    if (!w || w->index == 0 || id < 0 || id == 1)
        return id;
    if (id == w->own_comm && w->parent >= 0 && w->parent_comm >= 0)
        return ms_world_comm(&worlds[w->parent], w->parent_comm);
    /* Positive, never 0 or 1, as the library's ids (pmpi/comm_ids.c). */
    uint64_t h = mix64(mix64((uint64_t)id) ^ (0x776f726c64ull + w->index)) & (uint64_t)INT64_MAX;
    return h < 2 ? (int64_t)h + 2 : (int64_t)h;
}

static int grow(int32_t **out, size_t *cap, size_t n)
{
    if (n <= *cap)
        return 0;
    int32_t *v = realloc(*out, n * sizeof *v);
    if (!v)
        return -1;
    *out = v;
    *cap = n;
    return 0;
}

int64_t ms_world_members(const ms_world *w, uint64_t id, const int32_t *in, uint32_t n, int32_t **out,
                         size_t *cap)
{
    if (w && w->index > 0 && (int64_t)id == w->own_comm && w->parent >= 0 && w->group) {
        /* The spawned world's side: its remote group, the spawning one. */
        const ms_world *p = &worlds[w->parent];
        if (grow(out, cap, w->ngroup) != 0)
            return -1;
        for (uint32_t i = 0; i < w->ngroup; i++)
            (*out)[i] = p->offset + w->group[i];
        return w->ngroup;
    }
    if (w && n == 0) {
        /* The parents' side of a spawn: the spawned world. */
        for (size_t c = 0; c < nworlds; c++) {
            const ms_world *s = &worlds[c];
            if (s->parent == (int32_t)w->index && s->parent_comm == (int64_t)id) {
                if (grow(out, cap, (size_t)s->size) != 0)
                    return -1;
                for (int32_t i = 0; i < s->size; i++)
                    (*out)[i] = s->offset + i;
                return s->size;
            }
        }
    }
    if (grow(out, cap, n) != 0)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        (*out)[i] = in[i] + (w ? w->offset : 0);
    return n;
}

size_t ms_world_name(const ms_world *w, const char *name, size_t len, char *buf, size_t cap)
{
    static const char key[] = " comm=";
    if (!w || w->index == 0 || len < 4 || memcmp(name, "mpi:", 4) != 0)
        return 0;
    const char *at = NULL;
    for (size_t i = 0; i + sizeof key - 1 <= len; i++)
        if (memcmp(name + i, key, sizeof key - 1) == 0) {
            at = name + i + sizeof key - 1;
            break;
        }
    if (!at)
        return 0;
    const char *end = name + len, *e = at;
    int neg = e < end && *e == '-';
    e += neg;
    int64_t id = 0;
    while (e < end && *e >= '0' && *e <= '9' && id < INT64_MAX / 10)
        id = id * 10 + (*e++ - '0');
    if (e == at + neg)
        return 0;
    int64_t mapped = ms_world_comm(w, neg ? -id : id);
    int head = (int)(at - name);
    int n = snprintf(buf, cap, "%.*s%" PRId64 "%.*s", head, name, mapped, (int)(end - e), e);
    if (n < 0 || (size_t)n >= cap)
        return 0;
    return (size_t)n;
}

const char *ms_rank_name(int64_t rank, char *buf, size_t cap)
{
    const ms_world *w = nworlds && rank >= 0 && rank <= INT32_MAX ? ms_world_of_rank((int32_t)rank) : NULL;
    if (w)
        snprintf(buf, cap, "%" PRIu32 ":%" PRId64, w->index, rank - w->offset);
    else
        snprintf(buf, cap, "%" PRId64, rank);
    return buf;
}

ms_rank_str ms_rank_s(int64_t rank)
{
    ms_rank_str r;
    ms_rank_name(rank, r.s, sizeof r.s);
    return r;
}
