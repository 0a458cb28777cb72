/*
 * The run (run.h): a new one with only its directory, the freeing of a run
 * and of a rank's info, and the look-up of a rank.
 */
#include "run.h"

#include <stdlib.h>
#include <string.h>

#include "roofline.h"
#include "../waits/waits.h"
#include "site_rows.h"

ms_run *ms_run_new(const char *dir)
{
    ms_run *run = calloc(1, sizeof *run);
    if (!run)
        return NULL;
    run->dir = strdup(dir);
    if (!run->dir) {
        free(run);
        return NULL;
    }
    return run;
}

void ms_rank_info_free(ms_rank_info *in)
{
    free(in->file);
    free(in->host);
    free(in->mpi_library);
    free(in->argv0);
    free(in->run_dir);
    free(in->clock);
    free(in->run_id);
    ms_gpu_rank_free(&in->gpu);
    ms_io_files_free(&in->io_files);
    ms_comm_facts_free(&in->comms);
    ms_rank_ending_free(&in->ending);
}

void ms_run_free(ms_run *run)
{
    if (!run)
        return;
    for (size_t i = 0; i < run->nranks; i++)
        ms_rank_info_free(&run->ranks[i]);
    free(run->ranks);
    for (size_t i = 0; i < run->nregions; i++) {
        ms_region *g = &run->regions[i];
        for (size_t k = 0; k < g->nranks; k++)
            ms_stats_free(&g->ranks[k].stats);
        free(g->ranks);
        free(g->name);
    }
    free(run->regions);
    for (size_t i = 0; i < run->ncallsites; i++)
        ms_callsite_free(&run->callsites[i]);
    free(run->callsites);
    free(run->places);
    free(run->chans);
    free(run->matrix);
    ms_comms_free(&run->comms);
    ms_counters_free(&run->counters);
    ms_gpu_run_free(run->gpu);
    ms_roofline_free(run->roofline);
    ms_waits_free(run->waits);
    free(run->waits);
    ms_mpi_sites_free(run->sites);
    free(run->sites);
    for (size_t i = 0; i < run->nwait_keys; i++)
        free(run->wait_keys[i].location);
    free(run->wait_keys);
    for (size_t i = 0; i < run->nhosts; i++)
        free(run->hosts[i]);
    free(run->hosts);
    for (size_t i = 0; i < run->nwarnings; i++)
        free(run->warnings[i]);
    free(run->warnings);
    for (size_t i = 0; i < run->nerrors; i++)
        free(run->errors[i]);
    free(run->errors);
    free(run->dir);
    free(run);
}

static int info_cmp(const void *a, const void *b)
{
    const ms_rank_info *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

const ms_rank_info *ms_run_rank(const ms_run *run, int32_t rank)
{
    ms_rank_info key = {.rank = rank};
    return bsearch(&key, run->ranks, run->nranks, sizeof key, info_cmp);
}
