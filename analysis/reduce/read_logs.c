/*
 * The first two stages of the reduction (reduce_partial.h): listing a
 * directory's logs in file order, and reading a subset of them with a pool
 * of threads. Each thread has its own reader, region table and call-site
 * rows and takes the next file in order; each file is reduced by
 * ms_reduce_file (rank_reduce.c). The progress line counts the files read.
 */
#include "reduce_internal.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../read/progress.h"
#include "../read/worlds.h"

#define MAX_JOBS 256u

/* ---- the directory ---- */

long long ms_log_name_rank(const char *name)
{
    size_t n = strlen(name);
    if (n < 10 || strncmp(name, "rank-", 5) != 0 || strcmp(name + n - 4, ".zst") != 0)
        return -1;
    long long v = 0;
    for (size_t i = 5; i < n - 4; i++) {
        if (name[i] < '0' || name[i] > '9')
            return -1;
        if (v < 1000000000000LL)
            v = v * 10 + (name[i] - '0');
    }
    return v;
}

static int job_cmp(const void *a, const void *b)
{
    const ms_file_job *x = a, *y = b;
    if (x->name_rank != y->name_rank)
        return x->name_rank < y->name_rank ? -1 : 1;
    return strcmp(x->base, y->base);
}

/* A file job for dir/name (the rest zeroed); 0, or -1 when out of memory. */
static int job_init(ms_file_job *j, const char *dir, const char *name)
{
    size_t dlen = strlen(dir);
    int slash = dlen > 0 && dir[dlen - 1] == '/';
    memset(j, 0, sizeof *j);
    if (asprintf(&j->path, "%s%s%s", dir, slash ? "" : "/", name) < 0) {
        j->path = NULL;
        return -1;
    }
    j->base = j->path + dlen + (slash ? 0 : 1);
    /* A spawned world's "spawn-K/rank-N.zst" (worlds.h): N in the one run. */
    const char *leaf = strrchr(name, '/');
    const ms_world *w = ms_world_of_path(j->path);
    j->name_rank = ms_log_name_rank(leaf ? leaf + 1 : name);
    if (j->name_rank >= 0 && w)
        j->name_rank += w->offset;
    return 0;
}

/* Append the logs of dir/sub (sub "" or "spawn-K/") to *jobs. */
static ms_reduce_status list_into(const char *dir, const char *sub, ms_file_job **jobs, size_t *n, size_t *cap,
                                  ms_strlist *errs)
{
    char *path = NULL;
    if (asprintf(&path, "%s%s%s", dir, sub[0] ? "/" : "", sub) < 0)
        return MS_REDUCE_NOMEM;
    DIR *d = opendir(path);
    free(path);
    if (!d) {
        int e = errno;
        if (sub[0])
            return MS_REDUCE_OK;  /* gone since the worlds were read: nothing of it */
        if (ms_strlist_addf(errs, "%s: %s", dir, e == ENOENT ? "no such directory" : strerror(e)) != 0)
            return MS_REDUCE_NOMEM;
        return MS_REDUCE_USAGE;
    }
    struct dirent *de;
    ms_reduce_status st = MS_REDUCE_OK;
    while ((de = readdir(d)) != NULL) {
        if (ms_log_name_rank(de->d_name) < 0)
            continue;
        if (*n == *cap) {
            size_t c = *cap ? *cap * 2 : 64;
            ms_file_job *j = realloc(*jobs, c * sizeof *j);
            if (!j) {
                st = MS_REDUCE_NOMEM;
                break;
            }
            *jobs = j;
            *cap = c;
        }
        char *name = NULL;
        if (asprintf(&name, "%s%s", sub, de->d_name) < 0 || job_init(&(*jobs)[*n], dir, name) != 0) {
            free(name);
            st = MS_REDUCE_NOMEM;
            break;
        }
        free(name);
        (*n)++;
    }
    closedir(d);
    return st;
}

static ms_reduce_status list_logs(const char *dir, ms_run *run, ms_file_job **out, size_t *nout)
{
    ms_strlist errs = {0};
    ms_file_job *jobs = NULL;
    size_t n = 0, cap = 0;
    ms_reduce_status st = list_into(dir, "", &jobs, &n, &cap, &errs);
    if (st == MS_REDUCE_USAGE) {
        run->errors = errs.v;
        run->nerrors = errs.n;
        return st;
    }
    /* mpiscope-merge --with-spawned: the spawned worlds' logs too. */
    for (size_t i = 0; st == MS_REDUCE_OK && i < ms_worlds_count(); i++) {
        char sub[32];
        if (!ms_world_at(i)->k)
            continue;
        snprintf(sub, sizeof sub, "spawn-%u/", ms_world_at(i)->k);
        st = list_into(dir, sub, &jobs, &n, &cap, &errs);
    }
    if (st == MS_REDUCE_OK && n == 0) {
        if (ms_strlist_addf(&errs, "%s: no rank-*.zst logs in this directory", dir) != 0)
            st = MS_REDUCE_NOMEM;
        else
            st = MS_REDUCE_USAGE;
        run->errors = errs.v;
        run->nerrors = errs.n;
    }
    if (st != MS_REDUCE_OK) {
        for (size_t i = 0; i < n; i++)
            free(jobs[i].path);
        free(jobs);
        return st;
    }
    qsort(jobs, n, sizeof *jobs, job_cmp);
    *out = jobs;
    *nout = n;
    return MS_REDUCE_OK;
}

ms_reduce_status ms_partial_list(ms_partial *p, const char *dir, ms_run *run)
{
    return list_logs(dir, run, &p->files, &p->nfiles);
}

int ms_partial_files(ms_partial *p, const char *dir, const char *const *names, size_t n)
{
    p->files = calloc(n ? n : 1, sizeof *p->files);
    if (!p->files)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (job_init(&p->files[i], dir, names[i]) != 0)
            return -1;
        p->nfiles++;
    }
    return 0;
}

/* ---- the pool of readers ---- */

typedef struct shared_work {
    ms_file_job *jobs;
    const size_t *order;           /* the files to read */
    size_t njobs;                  /* in order */
    atomic_size_t next;
    atomic_size_t done;            /* files read, for the progress line */
    atomic_int nomem;
    ms_symbolizer *sym;            /* NULL: call sites are not symbolized */
} shared_work;

typedef struct worker {
    shared_work *work;
    ms_region_table tab;
    ms_callsite *sites;            /* call-site rows of the files read */
    size_t nsites, sites_cap;
    pthread_t thread;
    int started;
} worker;

static void *worker_main(void *arg)
{
    worker *w = arg;
    shared_work *sw = w->work;
    ms_reader *rd = ms_reader_create();
    if (!rd) {
        atomic_store(&sw->nomem, 1);
        return NULL;
    }
    for (;;) {
        if (atomic_load(&sw->nomem))
            break;
        size_t i = atomic_fetch_add(&sw->next, 1);
        if (i >= sw->njobs)
            break;
        if (ms_reduce_file(rd, &sw->jobs[sw->order[i]], sw->order[i], sw->sym, &w->tab, &w->sites, &w->nsites,
                           &w->sites_cap) != 0)
            atomic_store(&sw->nomem, 1);
        atomic_fetch_add(&sw->done, 1);
    }
    ms_reader_destroy(rd);
    return NULL;
}

static unsigned default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (unsigned)n;
}

/* Move a worker's table and call-site rows to p (w keeps none). */
static int take_worker(ms_partial *p, worker *w)
{
    ms_region_table *t = ms_partial_add_table(p);
    if (!t)
        return -1;
    *t = w->tab;
    ms_region_table_init(&w->tab);
    if (w->nsites == 0)
        return 0;
    if (p->nsites + w->nsites > p->sites_cap) {
        size_t cap = p->nsites + w->nsites;
        ms_callsite *v = realloc(p->sites, cap * sizeof *v);
        if (!v)
            return -1;
        p->sites = v;
        p->sites_cap = cap;
    }
    memcpy(p->sites + p->nsites, w->sites, w->nsites * sizeof *w->sites);
    p->nsites += w->nsites;
    w->nsites = 0;
    return 0;
}

int ms_partial_read(ms_partial *p, unsigned jobs, const unsigned char *mine)
{
    size_t *order = malloc((p->nfiles ? p->nfiles : 1) * sizeof *order);
    size_t nmine = 0;
    if (!order) {
        p->nomem = 1;
        return -1;
    }
    for (size_t i = 0; i < p->nfiles; i++)
        if (!mine || mine[i])
            order[nmine++] = i;
    if (jobs == 0)
        jobs = default_jobs();
    if (jobs > MAX_JOBS)
        jobs = MAX_JOBS;
    if (jobs > nmine)
        jobs = nmine ? (unsigned)nmine : 1u;
    shared_work sw = {.jobs = p->files, .order = order, .njobs = nmine, .sym = ms_sym_new()};
    atomic_init(&sw.next, 0);
    atomic_init(&sw.done, 0);
    atomic_init(&sw.nomem, 0);
    worker *w = calloc(jobs, sizeof *w);
    int failed = !w;
    if (!failed) {
        for (unsigned i = 0; i < jobs; i++) {
            w[i].work = &sw;
            ms_region_table_init(&w[i].tab);
        }
        ms_progress *progress = ms_progress_start("reading logs", &sw.done, nmine);
        /* The calling thread is worker 0. */
        for (unsigned i = 1; i < jobs; i++)
            w[i].started = pthread_create(&w[i].thread, NULL, worker_main, &w[i]) == 0;
        worker_main(&w[0]);
        for (unsigned i = 1; i < jobs; i++)
            if (w[i].started)
                pthread_join(w[i].thread, NULL);
        ms_progress_stop(progress);
        failed = atomic_load(&sw.nomem);
    }
    for (unsigned i = 0; w && i < jobs; i++) {
        if (!failed && take_worker(p, &w[i]) != 0)
            failed = 1;
        ms_region_table_free(&w[i].tab);
        for (size_t k = 0; k < w[i].nsites; k++)
            ms_callsite_free(&w[i].sites[k]);
        free(w[i].sites);
    }
    free(w);
    ms_sym_free(sw.sym);
    free(order);
    if (failed)
        p->nomem = 1;
    return failed ? -1 : 0;
}
