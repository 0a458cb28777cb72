/*
 * The last stage of the reduction (reduce_partial.h): every file's result
 * -> the run. Errors and per-file warnings in file order, the check that
 * the logs are of one run, the ranks (one file per rank), their clocks
 * aligned (run_clock.h), the regions merged from the readers' tables,
 * call sites, channels and matrix, counters, GPU activity, and the
 * run-wide facts and warnings.
 */
#include "reduce_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../read/worlds.h"
#include "run_clock.h"
#include "run_waits.h"
#include "sites.h"

static int part_cmp(const void *a, const void *b)
{
    const ms_region_rank *x = a, *y = b;
    return (x->rank_index > y->rank_index) - (x->rank_index < y->rank_index);
}

static int region_cmp(const void *a, const void *b)
{
    const ms_region *x = a, *y = b;
    if (x->total_ns != y->total_ns)
        return x->total_ns > y->total_ns ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct rank_key {
    int32_t rank;
    size_t file;
} rank_key;

static int rank_key_cmp(const void *a, const void *b)
{
    const rank_key *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return (x->file > y->file) - (x->file < y->file);
}

/* The ranks of the usable files; of two files with one rank the first in
 * file order is used. file_to_rank[i] becomes file i's index into
 * run->ranks, or UINT32_MAX. Takes over the files' rank infos. */
static int build_ranks(ms_run *run, ms_file_job *jobs, size_t njobs, uint32_t *file_to_rank,
                       ms_strlist *warnings)
{
    size_t n = 0;
    for (size_t i = 0; i < njobs; i++) {
        file_to_rank[i] = UINT32_MAX;
        n += jobs[i].usable != 0;
    }
    rank_key *keys = malloc((n ? n : 1) * sizeof *keys);
    run->ranks = calloc(n ? n : 1, sizeof *run->ranks);
    if (!keys || !run->ranks) {
        free(keys);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < njobs; i++)
        if (jobs[i].usable)
            keys[k++] = (rank_key){jobs[i].info.rank, i};
    qsort(keys, n, sizeof *keys, rank_key_cmp);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        ms_file_job *j = &jobs[keys[i].file];
        if (run->nranks > 0 && run->ranks[run->nranks - 1].rank == keys[i].rank) {
            const char *kept = run->ranks[run->nranks - 1].file;
            rc |= ms_strlist_addf(warnings, "%s: duplicate log of rank %" PRId32 " (also in %s); it is ignored",
                                  j->path, keys[i].rank, kept);
            continue;
        }
        file_to_rank[keys[i].file] = (uint32_t)run->nranks;
        ms_rank_info *in = &run->ranks[run->nranks++];
        *in = j->info;
        memset(&j->info, 0, sizeof j->info);
        in->file = strdup(j->path);
        in->status = j->res.status;
        if (!in->file)
            rc = -1;
    }
    free(keys);
    return rc;
}

/* Merge a worker's table into the run's, mapping file indices to ranks. */
static int merge_table(ms_region_table *dst, ms_region_table *src, const uint32_t *file_to_rank)
{
    int rc = 0;
    for (size_t r = 0; r < ms_strtab_count(&src->names); r++) {
        ms_region_acc *a = &src->regs[r];
        for (size_t k = 0; k < a->n; k++) {
            ms_region_rank part = a->parts[k];
            uint32_t ri = file_to_rank[part.rank_index];
            if (rc != 0 || ri == UINT32_MAX) {
                ms_stats_free(&part.stats);
                continue;
            }
            part.rank_index = ri;
            if (ms_region_table_add(dst, ms_strtab_str(&src->names, (uint32_t)r),
                          ms_strtab_len(&src->names, (uint32_t)r), &part) != 0) {
                ms_stats_free(&part.stats);
                rc = -1;
            }
        }
        free(a->parts);
        a->parts = NULL;
        a->n = a->cap = 0;
    }
    return rc;
}

/* The run's regions from the merged table (which is emptied). */
static int build_regions(ms_run *run, ms_region_table *tab)
{
    size_t n = ms_strtab_count(&tab->names);
    run->regions = calloc(n ? n : 1, sizeof *run->regions);
    const ms_stats **per_rank = NULL;
    size_t per_rank_cap = 0;
    if (!run->regions)
        return -1;
    int rc = 0;
    for (size_t r = 0; r < n; r++) {
        ms_region_acc *a = &tab->regs[r];
        ms_region *g = &run->regions[run->nregions++];
        g->name = strdup(ms_strtab_str(&tab->names, (uint32_t)r));
        g->ranks = a->parts;
        g->nranks = a->n;
        a->parts = NULL;
        a->n = a->cap = 0;
        if (!g->name) {
            rc = -1;
            continue;
        }
        g->is_mpi = ms_region_is_mpi(g->name, strlen(g->name));
        ms_region_parse(g->name, &g->info);
        qsort(g->ranks, g->nranks, sizeof *g->ranks, part_cmp);
        if (g->nranks > per_rank_cap) {
            const ms_stats **p = realloc(per_rank, g->nranks * sizeof *p);
            if (!p) {
                rc = -1;
                continue;
            }
            per_rank = p;
            per_rank_cap = g->nranks;
        }
        for (size_t k = 0; k < g->nranks; k++) {
            ms_clock_align_stats(&run->ranks[g->ranks[k].rank_index], &g->ranks[k].stats);
            per_rank[k] = &g->ranks[k].stats;
            g->total_ns += g->ranks[k].stats.total_ns;
            g->window_ns += g->ranks[k].window_ns;
            g->excl_ns += g->ranks[k].excl_ns;
        }
        if (ms_stats_combine(per_rank, g->nranks, &g->summary) != 0)
            rc = -1;
    }
    free(per_rank);
    if (rc == 0)
        qsort(run->regions, run->nregions, sizeof *run->regions, region_cmp);
    return rc;
}

static int add_range(char *buf, size_t cap, size_t *len, int32_t a, int32_t b)
{
    int w = a == b ? snprintf(buf + *len, cap - *len, "%s%" PRId32, *len ? ", " : "", a)
                   : snprintf(buf + *len, cap - *len, "%s%" PRId32 "-%" PRId32, *len ? ", " : "", a, b);
    if (w < 0 || (size_t)w >= cap - *len)
        return -1;
    *len += (size_t)w;
    return 0;
}

/* A header's world size is believed as far as the logs present bear it
 * out: up to the highest rank with a log, and a claim past that only up to
 * twice the ranks with a log (a run that lost half its logs or less) or
 * MS_WORLD_BELIEVED ranks, whichever is more. So a crafted claim never
 * makes a report write or allocate per claimed rank beyond that. */
#define MS_WORLD_BELIEVED 64
static int32_t believed_world(const ms_run *run, int32_t claimed)
{
    if (run->nranks == 0)
        return 0;
    int64_t highest = (int64_t)run->ranks[run->nranks - 1].rank + 1;
    int64_t twice = 2 * (int64_t)run->nranks;
    int64_t bound = highest > twice ? highest : twice;
    if (bound < MS_WORLD_BELIEVED)
        bound = MS_WORLD_BELIEVED;
    return (int64_t)claimed > bound ? (int32_t)bound : claimed;
}

/* Run-wide facts and warnings; missing ranks only when every log was
 * readable (an unreadable one would be reported as missing too). */
static int summarize_run(ms_run *run, ms_strlist *warnings, int check_missing)
{
    int rc = 0;
    int32_t size = 0;
    int sizes_differ = 0;
    for (size_t i = 0; i < run->nranks; i++) {
        const ms_rank_info *in = &run->ranks[i];
        if (i > 0 && in->size != size)
            sizes_differ = 1;
        if (in->size > size)
            size = in->size;
    }
    run->world_claimed = size;
    run->world_size = believed_world(run, size);
    if (sizes_differ)
        rc |= ms_strlist_addf(warnings, "the logs disagree on the world size; the largest, %" PRId32 ", is used",
                              size);
    if (run->world_size != size)
        rc |= ms_strlist_addf(warnings, "%s: the headers claim a world of %" PRId32 " ranks, but only %zu logs are "
                              "present: the reports' world has %" PRId32 " ranks (twice the logs, at least 64, or up "
                              "to the highest rank with a log)", run->dir, size, run->nranks, run->world_size);

    /* Missing ranks, as ranges; the list is cut after a few. */
    char buf[256] = "";
    size_t len = 0, nmissing = 0;
    int cut = 0;
    size_t k = 0;
    for (int32_t r = 0; r < size;) {
        while (k < run->nranks && run->ranks[k].rank < r)
            k++;
        if (k < run->nranks && run->ranks[k].rank == r) {
            r++;
            continue;
        }
        int32_t next = k < run->nranks ? run->ranks[k].rank : size;
        nmissing += (size_t)(next - r);
        if (!cut && add_range(buf, sizeof buf - 8, &len, r, next - 1) != 0) {
            cut = 1;
            memcpy(buf + len, ", ...", 6);
            len += 5;
        }
        r = next;
    }
    if (nmissing && check_missing)
        rc |= ms_strlist_addf(warnings, "%s: %zu of %" PRId32 " ranks have no log (missing ranks: %s); "
                              "the report covers the other ranks only", run->dir, nmissing, size, buf);

    /* Distinct hosts. */
    const char **names = malloc((run->nranks ? run->nranks : 1) * sizeof *names);
    run->hosts = calloc(run->nranks ? run->nranks : 1, sizeof *run->hosts);
    if (!names || !run->hosts) {
        free(names);
        return -1;
    }
    for (size_t i = 0; i < run->nranks; i++)
        names[i] = run->ranks[i].host;
    qsort(names, run->nranks, sizeof *names, str_cmp);
    for (size_t i = 0; i < run->nranks; i++) {
        if (i > 0 && strcmp(names[i - 1], names[i]) == 0)
            continue;
        run->hosts[run->nhosts] = strdup(names[i]);
        if (!run->hosts[run->nhosts]) {
            rc = -1;
            break;
        }
        run->nhosts++;
    }
    free(names);

    double pmin = 0, pmax = 0, psum = 0;
    for (size_t i = 0; i < run->nranks; i++) {
        const ms_rank_info *in = &run->ranks[i];
        if (in->wall_ns > run->wall_ns)
            run->wall_ns = in->wall_ns;
        run->app_ns += in->app_ns;
        run->mpi_ns += in->mpi_ns;
        run->events += in->events;
        run->summary_ranks += in->mode == MS_MODE_SUMMARY;
        if (i == 0 || in->mpi_pct < pmin)
            pmin = in->mpi_pct;
        if (i == 0 || in->mpi_pct > pmax)
            pmax = in->mpi_pct;
        psum += in->mpi_pct;
        if (in->has_events && (!run->has_events || in->first_start < run->origin)) {
            run->origin = in->first_start;
            run->has_events = 1;
        }
    }
    run->mpi_pct = run->app_ns ? 100.0 * (double)run->mpi_ns / (double)run->app_ns : 0.0;
    run->mpi_pct_min = pmin;
    run->mpi_pct_max = pmax;
    run->mpi_pct_mean = run->nranks ? psum / (double)run->nranks : 0.0;
    return rc;
}

/* Logs that name their run (run=... in the header) must all name the same
 * one: the logs of two runs in one directory cannot be merged. Logs without
 * a run identity (older writers) are not checked. One error per file of a
 * run other than the first file's. Worlds read as one run (--with-spawned,
 * read/worlds.h) are checked each on its own. */
static int check_one_run(const ms_file_job *jobs, size_t njobs, ms_strlist *errors)
{
    const ms_file_job *first = NULL;
    int rc = 0;
    for (size_t i = 0; i < njobs; i++) {
        const ms_file_job *j = &jobs[i];
        if (!j->usable || !j->info.run_id || !j->info.run_id[0])
            continue;
        if (!first || ms_world_of_path(j->path) != ms_world_of_path(first->path)) {
            first = j;
            continue;
        }
        if (strcmp(j->info.run_id, first->info.run_id) != 0)
            rc |= ms_strlist_addf(errors, "%s: a log of another run (its header at byte offset 0 says run=%s, "
                                  "%s says run=%s); merge the logs of one run at a time", j->path,
                                  j->info.run_id, first->path, first->info.run_id);
    }
    return rc;
}

/* One warning per object whose call sites could not be symbolized because
 * the file changed or went away since the run. */
static int site_warnings(const ms_run *run, ms_strlist *warnings)
{
    int rc = 0;
    for (size_t i = 0; i < run->nplaces; i++) {
        const ms_callsite *c = run->places[i].row;
        if (!c->object_changed && !c->object_missing)
            continue;
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++) {
            const ms_callsite *d = run->places[k].row;
            seen = (d->object_changed || d->object_missing) && strcmp(d->object, c->object) == 0;
        }
        if (seen)
            continue;
        rc |= ms_strlist_addf(warnings, "%s: call sites in %s are shown as object+offset: %s", run->dir, c->object,
                              c->object_changed ? "the file changed since the run (its build-id differs)"
                                                : "the file is missing or unreadable");
    }
    return rc;
}

/* Move the call-site rows to the run (p keeps none). */
static int take_sites(ms_run *run, ms_partial *p)
{
    if (p->nsites == 0)
        return 0;
    ms_callsite *v = realloc(run->callsites, (run->ncallsites + p->nsites) * sizeof *v);
    if (!v)
        return -1;
    memcpy(v + run->ncallsites, p->sites, p->nsites * sizeof *v);
    run->callsites = v;
    run->ncallsites += p->nsites;
    p->nsites = 0;
    return 0;
}

/* The point-to-point channels of the files kept as ranks, and the traffic
 * matrix built from them. */
static int take_chans(ms_run *run, ms_file_job *jobs, size_t njobs, const uint32_t *file_to_rank)
{
    size_t n = 0;
    for (size_t i = 0; i < njobs; i++)
        if (file_to_rank[i] != UINT32_MAX)
            n += jobs[i].nchans;
    if (n == 0)
        return 0;
    run->chans = malloc(n * sizeof *run->chans);
    if (!run->chans)
        return -1;
    for (size_t i = 0; i < njobs; i++) {
        if (file_to_rank[i] == UINT32_MAX || jobs[i].nchans == 0)
            continue;
        memcpy(run->chans + run->nchans, jobs[i].chans, jobs[i].nchans * sizeof *run->chans);
        run->nchans += jobs[i].nchans;
    }
    run->nchans = ms_p2p_chans_normalize(run->chans, run->nchans);
    return ms_matrix_build(run->chans, run->nchans, &run->matrix, &run->nmatrix);
}

/* The counter samples of the files kept as ranks. */
static int take_counters(ms_run *run, ms_file_job *jobs, size_t njobs, const uint32_t *file_to_rank)
{
    for (size_t i = 0; i < njobs; i++)
        if (file_to_rank[i] != UINT32_MAX && jobs[i].counters &&
            ms_counters_add(&run->counters, jobs[i].counters, run->ranks[file_to_rank[i]].rank) != 0)
            return -1;
    ms_counters_sort(&run->counters);
    return 0;
}

/* The run's communicators from its ranks' (comms.h). */
static int build_comms(ms_run *run)
{
    const ms_comm_facts **facts = malloc((run->nranks ? run->nranks : 1) * sizeof *facts);
    int32_t world = 0;
    for (size_t i = 0; facts && i < run->nranks; i++) {
        facts[i] = &run->ranks[i].comms;
        world = run->ranks[i].size > world ? run->ranks[i].size : world;
    }
    int rc = facts ? ms_comms_build(&run->comms, facts, run->nranks, (uint32_t)world) : -1;
    free(facts);
    return rc;
}

ms_reduce_status ms_partial_assemble(ms_partial *p, ms_run *run)
{
    ms_file_job *files = p->files;
    size_t nfiles = p->nfiles;
    uint32_t *file_to_rank = malloc((nfiles ? nfiles : 1) * sizeof *file_to_rank);
    ms_strlist warnings = {0}, errors = {0};
    ms_region_table all;
    ms_region_table_init(&all);
    int failed = p->nomem || !file_to_rank;
    for (size_t i = 0; i < nfiles; i++)
        failed |= !files[i].read;

    /* Errors and per-file warnings, in file order. */
    for (size_t i = 0; !failed && i < nfiles; i++) {
        ms_file_job *j = &files[i];
        ms_read_status rs = j->res.status;
        if (rs != MS_READ_OK && rs != MS_READ_TRUNCATED)
            failed |= ms_strlist_addf(&errors, "%s", j->res.message) != 0;
        failed |= ms_strlist_move(&warnings, &j->warnings) != 0;
    }
    if (!failed)
        failed = check_one_run(files, nfiles, &errors) != 0;
    if (!failed)
        failed = build_ranks(run, files, nfiles, file_to_rank, &warnings) != 0;
    if (!failed)
        ms_clock_align_run(run);
    if (!failed)
        failed = build_comms(run) != 0;
    for (size_t i = 0; i < p->ntabs; i++) {
        if (!failed && merge_table(&all, &p->tabs[i], file_to_rank) != 0)
            failed = 1;
        ms_region_table_free(&p->tabs[i]);
    }
    p->ntabs = 0;
    if (!failed && take_sites(run, p) != 0)
        failed = 1;
    ms_callsites_sort(run->callsites, run->ncallsites);
    if (!failed && ms_site_places(run->callsites, run->ncallsites, &run->places, &run->nplaces) != 0)
        failed = 1;
    if (!failed)
        failed = site_warnings(run, &warnings) != 0;
    if (!failed)
        failed = take_chans(run, files, nfiles, file_to_rank) != 0;
    if (!failed)
        failed = take_counters(run, files, nfiles, file_to_rank) != 0;
    for (size_t i = 0; !failed && i < run->nranks; i++)
        failed = ms_gpu_run_add(&run->gpu, &run->ranks[i].gpu) != 0;
    ms_gpu_run_sort(run->gpu);
    for (size_t i = 0; !failed && run->gpu && i < run->nranks; i++)
        if (run->ranks[i].gpu.dropped)
            failed = ms_strlist_addf(&warnings, "rank %" PRId32 ": %" PRIu64 " GPU activity records were dropped; "
                                     "GPU counts and times of that rank are short of them",
                                     run->ranks[i].rank, run->ranks[i].gpu.dropped) != 0;
    if (!failed)
        failed = build_regions(run, &all) != 0;
    ms_region_table_free(&all);
    if (!failed)
        failed = ms_run_waits(run, files, nfiles, file_to_rank) != 0;
    if (!failed)
        failed = summarize_run(run, &warnings, errors.n == 0) != 0;
    if (!failed && (!(run->sites = calloc(1, sizeof *run->sites)) || ms_mpi_sites_build(run, run->sites) != 0))
        failed = 1;
    free(file_to_rank);

    run->warnings = warnings.v;
    run->nwarnings = warnings.n;
    run->errors = errors.v;
    run->nerrors = errors.n;
    if (failed)
        return MS_REDUCE_NOMEM;
    return run->nerrors ? MS_REDUCE_BAD_INPUT : MS_REDUCE_OK;
}
