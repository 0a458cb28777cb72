/* Spawned worlds of a log directory: see report_spawn.h. */
#include "report_spawn.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../read/worlds.h"
#include "../reduce/reduce.h"

static size_t count_logs(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        n += ms_log_name_rank(de->d_name) >= 0;
    closedir(d);
    return n;
}

static int by_k(const void *a, const void *b)
{
    unsigned x = ((const ms_spawned_world *)a)->k, y = ((const ms_spawned_world *)b)->k;
    return (x > y) - (x < y);
}

size_t ms_spawned_worlds(const char *dir, ms_spawned_world **out)
{
    *out = NULL;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    ms_spawned_world *v = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        unsigned k = ms_spawn_dir_k(de->d_name);
        if (!k)
            continue;
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        char *path = malloc(len);
        if (!path)
            break;
        snprintf(path, len, "%s/%s", dir, de->d_name);
        size_t logs = count_logs(path);
        free(path);
        if (!logs)
            continue;
        if (n == cap) {
            size_t c = cap ? cap * 2 : 8;
            ms_spawned_world *p = realloc(v, c * sizeof *p);
            if (!p)
                break;
            v = p;
            cap = c;
        }
        v[n++] = (ms_spawned_world){.k = k, .logs = logs};
    }
    closedir(d);
    if (!n) {
        free(v);
        return 0;
    }
    qsort(v, n, sizeof *v, by_k);
    *out = v;
    return n;
}
