/*
 * The merge's memory guard (--mem-limit): see merge_cli.h. The estimate is
 * analysis/reduce/waits_estimate.h's, the events and the default limit
 * analysis/reduce/mem_guard.h's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../reduce/mem_guard.h"
#include "../reduce/reduce_partial.h"
#include "merge_cli.h"

int ms_merge_guard(ms_merge_opts *o, const char *const *paths, size_t n)
{
    o->waits_skipped[0] = 0;
    if (o->no_waits)
        return 0;
    uint64_t limit = o->mem_limit_set ? o->mem_limit : ms_mem_default_limit();
    if (!limit)
        return 0;
    char why[200];
    if (!ms_mem_guard_exceeds(ms_mem_log_events(paths, n), n, limit, why, sizeof why))
        return 0;
    ms_reduce_set_waits(0);
    snprintf(o->waits_skipped, sizeof o->waits_skipped, "%s", why);
    fprintf(stderr,
            "%s: warning: %s: the wait states and the critical path are left out (the reports say so); "
            "to have them, give a higher --mem-limit; --no-waits leaves "
            "them out without this warning\n",
            ms_merge_prog, why);
    return 1;
}

int ms_merge_guard_dir(ms_merge_opts *o)
{
    if (o->no_waits)
        return 0;
    ms_partial p;
    ms_partial_init(&p);
    ms_run *run = ms_run_new(o->dir);
    int skipped = 0;
    if (run && ms_partial_list(&p, o->dir, run) == MS_REDUCE_OK) {
        const char **paths = malloc((p.nfiles ? p.nfiles : 1) * sizeof *paths);
        if (paths) {
            for (size_t i = 0; i < p.nfiles; i++)
                paths[i] = p.files[i].path;
            skipped = ms_merge_guard(o, paths, p.nfiles);
            free(paths);
        }
    }
    ms_partial_free(&p);
    ms_run_free(run);
    return skipped;
}
