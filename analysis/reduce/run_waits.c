/* The wait-state analysis of a run: see run_waits.h. */
#include "run_waits.h"

#include <stdlib.h>
#include <string.h>

#include "run_clock.h"

const char *ms_run_wait_region(const ms_run *run, uint32_t region)
{
    if (region == MS_WX_COMPUTE || region >= run->nregions)
        return "(compute)";
    return run->regions[region].name;
}

/* One rank's facts, in place: times to the common clock, regions to run
 * indices (names lookup). 0, or -1 when out of memory. */
static int convert(const ms_strtab *names, const ms_rank_info *in, ms_wait_facts *f)
{
    uint32_t *map = malloc((f->nnames ? f->nnames : 1) * sizeof *map);
    if (!map)
        return -1;
    for (size_t i = 0; i < f->nnames; i++)
        if (!ms_strtab_find(names, f->names[i], strlen(f->names[i]), &map[i]))
            map[i] = MS_WX_NONE;
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
    ms_strtab names;
    ms_strtab_init(&names);
    for (size_t i = 0; i < run->nregions; i++) {
        uint32_t idx;
        if (ms_strtab_intern(&names, run->regions[i].name, strlen(run->regions[i].name), &idx, NULL) != 0) {
            ms_strtab_free(&names);
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
            if (convert(&names, in, f) != 0) {
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
        } else {
            run->waits = w;
            run->wait_ranks = n;
        }
    }
    free(ranks);
    ms_strtab_free(&names);
    /* The facts are spent. */
    for (size_t i = 0; i < njobs; i++) {
        ms_wait_facts_free(jobs[i].waits);
        free(jobs[i].waits);
        jobs[i].waits = NULL;
    }
    return rc;
}
