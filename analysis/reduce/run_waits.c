/* The wait-state analysis of a run: see run_waits.h. */
#include "run_waits.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_clock.h"

const char *ms_run_wait_region(const ms_run *run, uint32_t region)
{
    if (region == MS_WX_COMPUTE || region >= run->nregions)
        return "(compute)";
    return run->regions[region].name;
}

uint32_t ms_run_wait_key_region(const ms_run *run, uint32_t key)
{
    if (key == MS_WX_COMPUTE || key >= run->nwait_keys || run->wait_keys[key].region >= run->nregions)
        return MS_WX_NONE;
    return run->wait_keys[key].region;
}

const char *ms_run_wait_key_location(const ms_run *run, uint32_t key)
{
    return ms_run_wait_key_region(run, key) == MS_WX_NONE ? NULL : run->wait_keys[key].location;
}

static int path_cmp(const void *a, const void *b)
{
    const ms_wx_path_region *x = a, *y = b;
    if (x->on_path_ns != y->on_path_ns)
        return x->on_path_ns > y->on_path_ns ? -1 : 1;
    return x->region < y->region ? -1 : x->region > y->region;
}

/* The path's results by key, grouped by region: path regions (the keyed
 * ones kept as path_sites) and path pieces (the rows were grouped by the
 * analysis). 0, or -1 when out of memory. */
static int group_path(const uint32_t *map, size_t nk, ms_waits *w)
{
    ms_wx_path_region *pr = malloc((w->npath_regions ? w->npath_regions : 1) * sizeof *pr);
    if (!pr)
        return -1;
    /* Path regions: summed per region (few: a pass per entry suffices
     * with a sort; the keys of one region are summed after sorting). */
    size_t m = 0;
    for (size_t i = 0; i < w->npath_regions; i++) {
        uint32_t k = w->path_regions[i].region;
        pr[m++] = (ms_wx_path_region){.region = k != MS_WX_COMPUTE && k < nk ? map[k] : MS_WX_COMPUTE,
                                      .on_path_ns = w->path_regions[i].on_path_ns};
    }
    qsort(pr, m, sizeof *pr, path_cmp);
    /* Same regions next to each other: sort by region first, sum, resort. */
    for (size_t i = 1; i < m; i++)
        for (size_t j = i; j > 0 && pr[j - 1].region > pr[j].region; j--) {
            ms_wx_path_region t = pr[j];
            pr[j] = pr[j - 1];
            pr[j - 1] = t;
        }
    size_t q = 0;
    for (size_t i = 0; i < m; i++) {
        if (q > 0 && pr[q - 1].region == pr[i].region)
            pr[q - 1].on_path_ns += pr[i].on_path_ns;
        else
            pr[q++] = pr[i];
    }
    qsort(pr, q, sizeof *pr, path_cmp);
    w->path_sites = w->path_regions;
    w->npath_sites = w->npath_regions;
    w->path_regions = pr;
    w->npath_regions = q;
    for (size_t i = 0; i < w->npath_segs; i++) {
        uint32_t k = w->path_segs[i].region;
        w->path_segs[i].region = k != MS_WX_COMPUTE && k < nk ? map[k] : MS_WX_COMPUTE;
    }
    return 0;
}

/* The key of (region g, location): its text in keys is the region's index
 * and the location; added to run->wait_keys when new. MS_WX_NONE when out
 * of memory. */
static uint32_t key_of(ms_run *run, ms_strtab *keys, uint32_t g, const char *location)
{
    size_t ln = location ? strlen(location) : 0;
    char *text = malloc(ln + 16);
    if (!text)
        return MS_WX_NONE;
    int n = snprintf(text, 16, "%" PRIu32 "%c", g, location ? '@' : '-');
    if (location)
        memcpy(text + n, location, ln);
    uint32_t idx;
    int is_new = 0;
    int rc = ms_strtab_intern(keys, text, (size_t)n + ln, &idx, &is_new);
    free(text);
    if (rc != 0)
        return MS_WX_NONE;
    if (!is_new)
        return idx;
    ms_wait_key *v = realloc(run->wait_keys, (run->nwait_keys + 1) * sizeof *v);
    if (v)
        run->wait_keys = v;
    char *loc = location ? strdup(location) : NULL;
    if (!v || (location && !loc)) {
        free(loc);
        return MS_WX_NONE;
    }
    v[run->nwait_keys++] = (ms_wait_key){.region = g, .location = loc};
    return idx;
}

static int64_t rank_clock(const void *ctx, int64_t t)
{
    return ms_rank_time(ctx, (uint64_t)t);
}

/* One rank's names to the run's keys (the region, found by name, at the
 * name's call site): *map, f->nnames entries. 0, or -1 when out of
 * memory. */
static int key_map(ms_run *run, const ms_strtab *names, ms_strtab *keys, const ms_wait_facts *f, uint32_t **map)
{
    if (!(*map = malloc((f->nnames ? f->nnames : 1) * sizeof **map)))
        return -1;
    for (size_t i = 0; i < f->nnames; i++) {
        uint32_t g;
        if (!ms_strtab_find(names, f->names[i], strlen(f->names[i]), &g)) {
            (*map)[i] = MS_WX_NONE;
            continue;
        }
        if (((*map)[i] = key_of(run, keys, g, f->places ? f->places[i] : NULL)) == MS_WX_NONE)
            return -1;
    }
    return 0;
}

int ms_run_waits(ms_run *run, ms_file_job *jobs, size_t njobs, const uint32_t *file_to_rank)
{
    ms_strtab names, keys;
    ms_strtab_init(&names);
    ms_strtab_init(&keys);
    for (size_t i = 0; i < run->nregions; i++) {
        uint32_t idx;
        if (ms_strtab_intern(&names, run->regions[i].name, strlen(run->regions[i].name), &idx, NULL) != 0) {
            ms_strtab_free(&names);
            ms_strtab_free(&keys);
            return -1;
        }
    }
    ms_wx_input *in = calloc(run->nranks ? run->nranks : 1, sizeof *in);
    uint32_t **maps = calloc(run->nranks ? run->nranks : 1, sizeof *maps);
    int rc = in && maps ? 0 : -1;
    size_t n = 0;
    /* Ranks ascending: run->ranks order, through file_to_rank. */
    for (size_t r = 0; rc == 0 && r < run->nranks; r++) {
        for (size_t i = 0; i < njobs; i++) {
            if (file_to_rank[i] != r || !jobs[i].waits)
                continue;
            const ms_rank_info *ri = &run->ranks[r];
            ms_wait_facts *f = jobs[i].waits;
            if (key_map(run, &names, &keys, f, &maps[n]) != 0) {
                free(maps[n]);
                rc = -1;
                break;
            }
            int64_t lo = ri->init_end_ns ? ms_rank_time(ri, ri->init_end_ns) : ri->first_start;
            int64_t hi = ri->finalized ? ms_rank_time(ri, ri->finalize_start_ns) : ri->last_end;
            run->wait_ranks_old += !f->has_records;
            in[n] = (ms_wx_input){.rank = ri->rank, .app_start = lo, .app_end = hi > lo ? hi : lo,
                                  .finalized = ri->finalized, .app_ns = ri->app_ns, .spill = &f->spill,
                                  .clock = rank_clock, .clock_ctx = ri, .map = maps[n], .nmap = f->nnames};
            n++;
        }
    }
    size_t nk = run->nwait_keys;
    uint32_t *group = rc == 0 ? malloc((nk ? nk : 1) * sizeof *group) : NULL;
    if (!group)
        rc = -1;
    for (size_t k = 0; rc == 0 && k < nk; k++)
        group[k] = run->wait_keys[k].region;
    if (rc == 0 && n > 0) {
        /* The waiting calls the HTML timeline marks: of the ranks it shows. */
        size_t shown = run->summary_ranks ? 0 : run->nranks < MS_RUN_TIMELINE_RANKS ? run->nranks
                                                                                    : MS_RUN_TIMELINE_RANKS;
        ms_wx_opts o = {.nregions = (uint32_t)nk, .group = group, .ngroup = nk,
                        .mark_rank = shown ? run->ranks[shown - 1].rank : -1};
        ms_waits *w = calloc(1, sizeof *w);
        if (!w || ms_waits_run(in, n, &o, w) != 0) {
            free(w);
            rc = -1;
        } else if (group_path(group, nk, w) != 0) {
            ms_waits_free(w);
            free(w);
            rc = -1;
        } else {
            run->waits = w;
            run->wait_ranks = n;
        }
    }
    free(group);
    for (size_t i = 0; maps && i < n; i++)
        free(maps[i]);
    free(maps);
    free(in);
    ms_strtab_free(&names);
    ms_strtab_free(&keys);
    /* The facts are spent. */
    for (size_t i = 0; i < njobs; i++) {
        ms_wait_facts_free(jobs[i].waits);
        free(jobs[i].waits);
        jobs[i].waits = NULL;
    }
    return rc;
}
