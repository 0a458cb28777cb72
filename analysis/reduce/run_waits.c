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

/* The analysis's results by key, grouped by region: rows and path regions
 * (the keyed ones kept as site_rows and path_sites) and path pieces. 0, or
 * -1 when out of memory. */
static int group_by_region(const ms_run *run, const ms_wx_rank *ranks, size_t n, ms_waits *w)
{
    size_t nk = run->nwait_keys;
    uint32_t *map = malloc((nk ? nk : 1) * sizeof *map);
    if (!map)
        return -1;
    for (size_t k = 0; k < nk; k++)
        map[k] = run->wait_keys[k].region;
    ms_wx_row *rows;
    size_t nrows;
    ms_wx_path_region *pr = malloc((w->npath_regions ? w->npath_regions : 1) * sizeof *pr);
    if (!pr || ms_wx_rows(ranks, n, w->inst, w->ninst, map, nk, &rows, &nrows) != 0) {
        free(pr);
        free(map);
        return -1;
    }
    w->site_rows = w->rows;
    w->nsite_rows = w->nrows;
    w->rows = rows;
    w->nrows = nrows;
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
    free(map);
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

/* One rank's facts, in place: times to the common clock, names to the
 * run's keys (the region, found by name, at the name's call site). 0, or
 * -1 when out of memory. */
static int convert(ms_run *run, const ms_strtab *names, ms_strtab *keys, const ms_rank_info *in, ms_wait_facts *f)
{
    uint32_t *map = malloc((f->nnames ? f->nnames : 1) * sizeof *map);
    if (!map)
        return -1;
    for (size_t i = 0; i < f->nnames; i++) {
        uint32_t g;
        if (!ms_strtab_find(names, f->names[i], strlen(f->names[i]), &g)) {
            map[i] = MS_WX_NONE;
            continue;
        }
        if ((map[i] = key_of(run, keys, g, f->places ? f->places[i] : NULL)) == MS_WX_NONE) {
            free(map);
            return -1;
        }
    }
    for (size_t i = 0; i < f->nev; i++) {
        ms_wx_event *e = &f->ev[i];
        /* The start on the common clock, the duration as measured: as the
         * timeline and the trace place calls. */
        int64_t d = e->end > e->start ? e->end - e->start : 0;
        e->start = ms_rank_time(in, (uint64_t)e->start);
        e->end = ms_sat_add_i64(e->start, d);
        e->region = e->region < f->nnames ? map[e->region] : MS_WX_NONE;
    }
    for (size_t i = 0; i < f->nmsg; i++)
        f->msg[i].entry = ms_rank_time(in, (uint64_t)f->msg[i].entry);
    for (size_t i = 0; i < f->ncoll; i++)
        f->coll[i].entry = ms_rank_time(in, (uint64_t)f->coll[i].entry);
    free(map);
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
    ms_wx_rank *ranks = calloc(run->nranks ? run->nranks : 1, sizeof *ranks);
    int rc = ranks ? 0 : -1;
    size_t n = 0;
    /* Ranks ascending: run->ranks order, through file_to_rank. */
    for (size_t r = 0; rc == 0 && r < run->nranks; r++) {
        for (size_t i = 0; i < njobs; i++) {
            if (file_to_rank[i] != r || !jobs[i].waits)
                continue;
            const ms_rank_info *in = &run->ranks[r];
            ms_wait_facts *f = jobs[i].waits;
            if (convert(run, &names, &keys, in, f) != 0) {
                rc = -1;
                break;
            }
            int64_t lo = in->init_end_ns ? ms_rank_time(in, in->init_end_ns) : in->first_start;
            int64_t hi = in->finalized ? ms_rank_time(in, in->finalize_start_ns) : in->last_end;
            run->wait_ranks_old += !f->has_records;
            ranks[n++] = (ms_wx_rank){.rank = in->rank, .app_start = lo, .app_end = hi > lo ? hi : lo,
                                      .finalized = in->finalized, .app_ns = in->app_ns, .ev = f->ev, .nev = f->nev,
                                      .msg = f->msg, .nmsg = f->nmsg, .coll = f->coll, .ncoll = f->ncoll};
        }
    }
    if (rc == 0 && n > 0) {
        ms_waits *w = calloc(1, sizeof *w);
        if (!w || ms_waits_compute(ranks, n, w) != 0) {
            free(w);
            rc = -1;
        } else if (group_by_region(run, ranks, n, w) != 0) {
            ms_waits_free(w);
            free(w);
            rc = -1;
        } else {
            run->waits = w;
            run->wait_ranks = n;
        }
    }
    free(ranks);
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
