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

size_t ms_spawned_worlds(const char *dir, ms_spawned_world **out)
{
    *out = NULL;
    unsigned *ks = NULL;
    size_t nk = ms_spawn_dirs(dir, &ks);
    ms_spawned_world *v = nk ? malloc(nk * sizeof *v) : NULL;
    size_t n = 0;
    for (size_t i = 0; v && i < nk; i++) {
        size_t len = strlen(dir) + 20;
        char *path = malloc(len);
        if (!path)
            break;
        snprintf(path, len, "%s/spawn-%u", dir, ks[i]);
        size_t logs = count_logs(path);
        free(path);
        if (logs)
            v[n++] = (ms_spawned_world){.k = ks[i], .logs = logs};
    }
    free(ks);
    if (!n) {
        free(v);
        return 0;
    }
    *out = v;
    return n;
}
