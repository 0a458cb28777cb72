/* The worlds of a log directory: see world_setup.h. */
#include "world_setup.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../read/log_reader.h"
#include "../read/worlds.h"
#include "reduce.h"

/* A spawning group read from a log: at most this many ranks (and never
 * more than its world has). */
#define LINK_MAX_RANKS (1u << 24)

/* What a world's lowest log says. */
typedef struct first_log {
    int32_t size;
    char run[17];
    char *spawned_by;      /* malloc'd; NULL: none */
    int64_t own_comm;      /* -1: not found */
} first_log;

static int on_header(void *ctx, const ms_log_meta *m)
{
    first_log *f = ctx;
    f->size = m->header.size;
    snprintf(f->run, sizeof f->run, "%s", m->run_id);
    if (m->spawned_by[0])
        f->spawned_by = strdup(m->spawned_by);
    /* Only a spawned world's rank 0 has more to say. */
    return !(m->header.rank == 0 && m->spawned_by[0]);
}

/* The spawned world's parent intercommunicator: made by no call, from no
 * parent (pmpi/spawn.c), at the start, before the first call. */
static int on_origin(void *ctx, const ms_read_comm_origin *o)
{
    first_log *f = ctx;
    if (o->op == 0 && o->parent < 0) {
        f->own_comm = (int64_t)o->id;
        return 1;
    }
    return 0;
}

static int on_event(void *ctx, const ms_read_event *ev)
{
    (void)ctx;
    (void)ev;
    return 1;
}

/* The lowest rank's log of a directory, malloc'd path; NULL when none. */
static char *lowest_log(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    long long best = -1;
    char name[64] = "";
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        long long r = ms_log_name_rank(de->d_name);
        if (r >= 0 && (best < 0 || r < best) && strlen(de->d_name) < sizeof name) {
            best = r;
            snprintf(name, sizeof name, "%s", de->d_name);
        }
    }
    closedir(d);
    char *path = NULL;
    if (best >= 0 && asprintf(&path, "%s/%s", dir, name) < 0)
        path = NULL;
    return path;
}

static int read_first(ms_reader *rd, const char *dir, first_log *f)
{
    memset(f, 0, sizeof *f);
    f->own_comm = -1;
    char *path = lowest_log(dir);
    if (!path)
        return 0;
    ms_read_callbacks cb = {.header = on_header, .comm_origin = on_origin, .event = on_event};
    ms_read_result res;
    ms_reader_read(rd, path, &cb, f, &res);
    free(path);
    return res.has_header;
}

/* "<run>:<id>:<ranges>" into w; 0, or -1 when malformed. */
static int parse_link(const char *s, ms_world *w, char *run, size_t cap)
{
    const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2 || (size_t)(c1 - s) >= cap)
        return -1;
    memcpy(run, s, (size_t)(c1 - s));
    run[c1 - s] = 0;
    char *end;
    long long id = strtoll(c1 + 1, &end, 10);
    if (end != c2 || id < 0)
        return -1;
    size_t n = 0, ncap = 0;
    int32_t *v = NULL;
    for (const char *p = c2 + 1; *p;) {
        long a = strtol(p, &end, 10), b = a;
        if (end == p || a < 0 || a > INT32_MAX)
            break;
        p = end;
        if (*p == '-') {
            b = strtol(p + 1, &end, 10);
            if (end == p + 1 || b < a || b > INT32_MAX || b - a > (1L << 24))
                break;
            p = end;
        }
        for (long r = a; r <= b; r++) {
            if (n >= LINK_MAX_RANKS)
                break;
            if (n == ncap) {
                ncap = ncap ? ncap * 2 : 16;
                int32_t *g = realloc(v, ncap * sizeof *g);
                if (!g) {
                    free(v);
                    return -1;
                }
                v = g;
            }
            v[n++] = (int32_t)r;
        }
        if (*p == ',')
            p++;
    }
    w->parent_comm = id;
    w->group = v;
    w->ngroup = (uint32_t)n;
    return 0;
}

int ms_worlds_read(const char *dir)
{
    unsigned *ks = NULL;
    size_t nk = ms_spawn_dirs(dir, &ks);
    ms_world *v = calloc(nk + 1, sizeof *v);
    char (*links)[17] = calloc(nk + 1, sizeof *links);
    ms_reader *rd = ms_reader_create();
    size_t n = 0;
    int rc = v && links && rd ? 0 : -1;
    size_t dlen = strlen(dir);
    int slash = dlen > 0 && dir[dlen - 1] == '/';
    for (size_t i = 0; rc == 0 && i <= nk; i++) {
        ms_world w = {.k = i ? ks[i - 1] : 0, .parent = -1, .parent_comm = -1, .own_comm = -1};
        if (i == 0)
            w.dir = strdup(dir);
        else if (asprintf(&w.dir, "%s%sspawn-%u", dir, slash ? "" : "/", w.k) < 0)
            w.dir = NULL;
        if (!w.dir) {
            rc = -1;
            break;
        }
        first_log f;
        if (!read_first(rd, w.dir, &f)) {
            free(w.dir);
            free(f.spawned_by);
            continue;
        }
        w.size = f.size;
        memcpy(w.run, f.run, sizeof w.run);
        w.own_comm = f.own_comm;
        if (i > 0 && f.spawned_by && parse_link(f.spawned_by, &w, links[n], sizeof links[n]) != 0)
            links[n][0] = 0;
        free(f.spawned_by);
        w.index = (uint32_t)n;
        w.offset = n ? v[n - 1].offset + v[n - 1].size : 0;
        v[n++] = w;
    }
    /* Each spawned world's parents: the world before it whose run its link
     * names (a world spawns those after it: no circle), when its spawning
     * group fits that world. */
    for (size_t i = 0; rc == 0 && i < n; i++) {
        for (size_t p = 0; links[i][0] && p < i && v[i].parent < 0; p++)
            if (strcmp(v[p].run, links[i]) == 0)
                v[i].parent = (int32_t)p;
        int fits = v[i].parent >= 0 && v[i].ngroup <= (uint32_t)v[v[i].parent].size;
        for (uint32_t g = 0; fits && g < v[i].ngroup; g++)
            fits = v[i].group[g] < v[v[i].parent].size;
        if (!fits) {
            v[i].parent = -1;
            v[i].parent_comm = -1;
        }
    }
    ms_reader_destroy(rd);
    free(links);
    free(ks);
    if (rc != 0 || n == 0) {
        for (size_t i = 0; v && i < n; i++) {
            free(v[i].dir);
            free(v[i].group);
        }
        free(v);
        return rc;
    }
    ms_worlds_set(v, n);
    return 0;
}
