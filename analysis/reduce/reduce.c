/* Reduction of a run's logs: see reduce.h. */
#include "reduce.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/nesting.h"
#include "../read/progress.h"
#include "reduce_partial.h"
#include "roofline.h"
#include "../read/strtab.h"

#define MAX_JOBS 256u

/* ---- string lists ---- */

typedef ms_strlist strlist;

__attribute__((format(printf, 2, 3)))
static int strlist_addf(strlist *l, const char *fmt, ...)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int rc = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (rc < 0)
        return -1;
    l->v[l->n++] = s;
    return 0;
}

static void strlist_free(strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static int strlist_move(strlist *dst, strlist *src)
{
    for (size_t i = 0; i < src->n; i++) {
        if (strlist_addf(dst, "%s", src->v[i]) != 0)
            return -1;
    }
    strlist_free(src);
    return 0;
}

/* ---- per-file work ---- */

/* A file's result (reduce_partial.h). */
typedef ms_file_job file_job;

typedef struct file_slot {
    ms_stats stats;
    uint64_t window_ns;
    uint64_t excl_ns;              /* exclusive time (nesting.h) */
    int is_gpu;                    /* "cuda:": device time, never nested */
    int is_mpi;
} file_slot;

typedef struct file_ctx {
    file_job *job;
    file_slot *slots;
    size_t nslots, cap;
    uint64_t win_lo, win_hi;
    int has_events;
    uint64_t first_start, last_end;
    int has_end;
    ms_end_record end;
    ms_site_acc sites;
    ms_comm_map comms;             /* its communicator records (p2p.h) */
    ms_nest nest;                  /* exclusive times (nesting.h) */
    ms_gpu_acc *gpu;               /* GPU activity (gpu.h) */
    int trace_summary;             /* a trace log holds summaries: a full disk */
    uint64_t summary_first;        /* the earliest call they count */
    int nomem;
} file_ctx;

/* A region in a worker's (or the final) table: its parts per file. */
typedef ms_region_acc region_acc;
typedef ms_region_table table;

typedef struct shared_work {
    file_job *jobs;
    const size_t *order;           /* the files to read */
    size_t njobs;                  /* in order */
    atomic_size_t next;
    atomic_size_t done;            /* files read, for the progress line */
    atomic_int nomem;
    ms_symbolizer *sym;            /* NULL: call sites are not symbolized */
} shared_work;

typedef struct worker {
    shared_work *work;
    table tab;
    ms_callsite *sites;            /* call-site rows of the files read */
    size_t nsites, sites_cap;
    pthread_t thread;
    int started;
} worker;

void ms_region_table_init(table *t)
{
    ms_strtab_init(&t->names);
    t->regs = NULL;
    t->cap = 0;
}

void ms_region_table_free(table *t)
{
    for (size_t i = 0; i < ms_strtab_count(&t->names); i++) {
        for (size_t k = 0; k < t->regs[i].n; k++)
            ms_stats_free(&t->regs[i].parts[k].stats);
        free(t->regs[i].parts);
    }
    free(t->regs);
    ms_strtab_free(&t->names);
}

/* Append a part (taking over its stats) to region `name`. */
int ms_region_table_add(table *t, const char *name, size_t len, const ms_region_rank *part)
{
    uint32_t idx;
    int is_new;
    if (ms_strtab_intern(&t->names, name, len, &idx, &is_new) != 0)
        return -1;
    if (idx >= t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        while (cap <= idx)
            cap *= 2;
        region_acc *r = realloc(t->regs, cap * sizeof *r);
        if (!r)
            return -1;
        memset(r + t->cap, 0, (cap - t->cap) * sizeof *r);
        t->regs = r;
        t->cap = cap;
    }
    region_acc *a = &t->regs[idx];
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 4;
        ms_region_rank *p = realloc(a->parts, cap * sizeof *p);
        if (!p)
            return -1;
        a->parts = p;
        a->cap = cap;
    }
    a->parts[a->n++] = *part;
    return 0;
}

static char *dup_str(const char *s)
{
    return strdup(s ? s : "");
}

static int on_header(void *ctx, const ms_log_meta *m)
{
    file_ctx *f = ctx;
    ms_rank_info *in = &f->job->info;
    const ms_file_header *h = &m->header;
    in->rank = h->rank;
    in->size = h->size;
    in->pid = h->pid;
    in->mode = h->mode;
    in->init_start_ns = h->init_start_ns;
    in->init_end_ns = h->init_end_ns;
    /* realtime - clock: both are within int64 (the reader checks clock). */
    in->clock_offset_ns = ms_sat_add_i64(h->realtime_ref_ns, -(int64_t)h->clock_ref_ns);
    in->host = dup_str(m->host);
    in->mpi_library = dup_str(m->mpi_library);
    in->argv0 = dup_str(m->argv0);
    in->run_dir = dup_str(m->run_dir);
    in->clock = dup_str(m->clock);
    in->run_id = dup_str(m->run_id);
    if (!in->host || !in->mpi_library || !in->argv0 || !in->run_dir || !in->clock || !in->run_id) {
        f->nomem = 1;
        return -1;
    }
    f->win_lo = h->init_end_ns;
    f->win_hi = (m->has_end_hint && m->end_hint.finalize_start_ns) ? m->end_hint.finalize_start_ns
                                                                    : UINT64_MAX;
    return 0;
}

static int on_region(void *ctx, uint32_t region, const char *name, size_t len)
{
    file_ctx *f = ctx;
    if (region >= f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 64;
        while (cap <= region)
            cap *= 2;
        file_slot *s = realloc(f->slots, cap * sizeof *s);
        if (!s) {
            f->nomem = 1;
            return -1;
        }
        f->slots = s;
        f->cap = cap;
    }
    /* The reader numbers new names densely: region == f->nslots. */
    while (f->nslots <= region) {
        file_slot *s = &f->slots[f->nslots++];
        ms_stats_init(&s->stats);
        s->window_ns = 0;
        s->is_mpi = 0;
        s->excl_ns = 0;
        s->is_gpu = 0;
    }
    f->slots[region].is_mpi = ms_region_is_mpi(name, len);
    f->slots[region].is_gpu = len >= 5 && memcmp(name, "cuda:", 5) == 0;
    if (ms_gpu_acc_region(f->gpu, region, name, len) != 0) {
        f->nomem = 1;
        return -1;
    }
    return 0;
}

static int on_event(void *ctx, const ms_event *ev)
{
    file_ctx *f = ctx;
    file_slot *s = &f->slots[ev->region];
    uint64_t d = ev->end_ns - ev->start_ns;
    /* The reader keeps times within int64. */
    if (ms_stats_add(&s->stats, (int64_t)ev->start_ns, d) != 0) {
        f->nomem = 1;
        return -1;
    }
    if (s->is_mpi && ev->start_ns >= f->win_lo && ev->end_ns <= f->win_hi)
        s->window_ns += d;
    uint64_t excl = d;
    if (!s->is_gpu && ms_nest_event(&f->nest, ev->thread, ev->start_ns, ev->end_ns, &excl) != 0) {
        f->nomem = 1;
        return -1;
    }
    s->excl_ns += excl;
    if (ev->site != MS_SITE_NONE && ms_site_acc_add(&f->sites, ev->region, ev->site, d) != 0) {
        f->nomem = 1;
        return -1;
    }
    if (s->is_gpu && ms_gpu_acc_event(f->gpu, ev) != 0) {
        f->nomem = 1;
        return -1;
    }
    if (!f->has_events || ev->start_ns < f->first_start)
        f->first_start = ev->start_ns;
    if (!f->has_events || ev->end_ns > f->last_end)
        f->last_end = ev->end_ns;
    f->has_events = 1;
    return 0;
}

/* Summary mode: a region id's aggregate counts as all its calls. */
static int on_summary(void *ctx, const ms_summary_rec *r)
{
    file_ctx *f = ctx;
    file_slot *s = &f->slots[r->region];
    ms_stats part;
    ms_stats_init(&part);
    if (ms_stats_from_agg(&part, &r->agg) != 0 || ms_stats_merge(&s->stats, &part) != 0 ||
        (r->site != MS_SITE_NONE && ms_site_acc_add_calls(&f->sites, r->region, r->site, r->agg.calls,
                                                          r->agg.total_ns) != 0)) {
        ms_stats_free(&part);
        f->nomem = 1;
        return -1;
    }
    ms_stats_free(&part);
    s->window_ns += r->window_ns;
    s->excl_ns += r->excl_ns;
    uint64_t first = (uint64_t)r->agg.first_start, last = (uint64_t)r->agg.last_end;
    if (f->job->info.mode == MS_MODE_TRACE && r->agg.calls &&
        (!f->trace_summary || first < f->summary_first)) {
        f->trace_summary = 1;
        f->summary_first = first;
    }
    if (!f->has_events || first < f->first_start)
        f->first_start = first;
    if (!f->has_events || last > f->last_end)
        f->last_end = last;
    f->has_events = 1;
    return 0;
}

static int on_end(void *ctx, const ms_end_record *e)
{
    file_ctx *f = ctx;
    f->has_end = 1;
    f->end = *e;
    return 0;
}

static int on_comm(void *ctx, uint32_t thread, uint64_t comm_id, const int32_t *world_ranks, uint32_t n)
{
    (void)thread;
    file_ctx *f = ctx;
    if (ms_comm_map_add(&f->comms, comm_id, world_ranks, n) != 0) {
        f->nomem = 1;
        return -1;
    }
    return 0;
}

static int on_counter_set(void *ctx, uint32_t set, const ms_counter_set *def)
{
    file_ctx *f = ctx;
    if ((!f->job->counters && !(f->job->counters = ms_counter_acc_new())) ||
        ms_counter_acc_set(f->job->counters, set, def) != 0) {
        f->nomem = 1;
        return -1;
    }
    return 0;
}

static int on_counter_sample(void *ctx, const ms_counter_sample *s)
{
    file_ctx *f = ctx;
    if (!f->job->counters || ms_counter_acc_sample(f->job->counters, s) != 0) {
        f->nomem = 1;
        return -1;
    }
    return 0;
}

static int on_gpu(void *ctx, const ms_gpu_record *g)
{
    file_ctx *f = ctx;
    if (ms_gpu_acc_record(f->gpu, g) != 0) {
        f->nomem = 1;
        return -1;
    }
    return 0;
}

static int on_sync(void *ctx, const ms_sync_sample *s)
{
    file_ctx *f = ctx;
    ms_clock_obs_set(&f->job->info.align, s, f->job->info.clock_offset_ns);
    return 0;
}

static const ms_read_callbacks reduce_callbacks = {
    .gpu = on_gpu,
    .header = on_header,
    .region = on_region,
    .event = on_event,
    .comm = on_comm,
    .end = on_end,
    .counter_set = on_counter_set,
    .counter_sample = on_counter_sample,
    .summary = on_summary,
    .sync = on_sync,
};

static void free_slots(file_ctx *f)
{
    ms_gpu_acc_free(f->gpu);
    f->gpu = NULL;
    ms_site_acc_free(&f->sites);
    ms_comm_map_free(&f->comms);
    ms_nest_free(&f->nest);
    for (size_t i = 0; i < f->nslots; i++)
        ms_stats_free(&f->slots[i].stats);
    free(f->slots);
    f->slots = NULL;
    f->nslots = f->cap = 0;
}

/* Per-rank times, once the file is read. */
static void finish_rank(file_ctx *f)
{
    ms_rank_info *in = &f->job->info;
    in->threads = f->job->res.threads;
    in->events = f->job->res.events + f->job->res.summarized;
    in->has_end = f->has_end;
    if (f->has_end) {
        in->finalize_start_ns = f->end.finalize_start_ns;
        in->finalized = f->end.finalize_start_ns != 0;
        in->dropped = f->end.dropped;
    }
    uint64_t lo = in->init_end_ns;
    if (lo == 0 && f->has_events)
        lo = f->first_start;
    uint64_t hi = lo;
    if (in->finalized)
        hi = in->finalize_start_ns;
    else if (f->has_events)
        hi = f->last_end;
    in->app_ns = hi > lo ? hi - lo : 0;
    uint64_t start = in->init_start_ns ? in->init_start_ns : lo;
    in->wall_ns = hi > start ? hi - start : 0;
    in->mpi_ns = 0;
    for (size_t i = 0; i < f->nslots; i++)
        if (f->slots[i].is_mpi)
            in->mpi_ns += f->slots[i].window_ns;
    in->mpi_pct = in->app_ns ? 100.0 * (double)in->mpi_ns / (double)in->app_ns : 0.0;
    in->has_events = f->has_events;
    if (f->has_events) {
        in->first_start = ms_sat_add_i64((int64_t)f->first_start, in->clock_offset_ns);
        in->last_end = ms_sat_add_i64((int64_t)f->last_end, in->clock_offset_ns);
    }
}

static int file_warnings(file_ctx *f)
{
    file_job *j = f->job;
    ms_rank_info *in = &j->info;
    int rc = 0;
    if (j->res.status == MS_READ_TRUNCATED)
        rc |= strlist_addf(&j->warnings, "%s; its readable part is used: %" PRIu64 " events in %" PRIu64
                           " checksummed frames before byte offset %" PRIu64, j->res.message, j->res.events,
                           j->res.frames, j->res.offset);
    if (j->name_rank >= 0 && j->name_rank != in->rank)
        rc |= strlist_addf(&j->warnings, "%s: the file name says rank %lld, its header rank %" PRId32
                           "; rank %" PRId32 " is used", j->path, j->name_rank, in->rank, in->rank);
    if (f->has_end && f->end.dropped)
        rc |= strlist_addf(&j->warnings, "%s: rank %" PRId32 " dropped %" PRIu64 " events while recording",
                           j->path, in->rank, f->end.dropped);
    if (f->trace_summary) {
        uint64_t from = in->init_end_ns && f->summary_first > in->init_end_ns ? f->summary_first - in->init_end_ns : 0;
        rc |= strlist_addf(&j->warnings, "%s: rank %" PRId32 "'s log ran out of room (a full disk or a quota): "
                           "its %" PRIu64 " calls that did not fit, the first %.3f s after MPI_Init, are counted from "
                           "its summary, with exact counts and times, but are not on the timeline", j->path, in->rank,
                           j->res.summarized, (double)from / 1e9);
    }
    if (f->nest.inexact)
        rc |= strlist_addf(&j->warnings, "%s: the exclusive time of %" PRIu64 " events is approximate: a thread "
                           "had more than %u events not yet inside another (common/nesting.h)", j->path,
                           f->nest.inexact, MS_NEST_EXACT + MS_NEST_BUCKETS);
    if (f->has_end && in->events + f->end.dropped < f->end.events)
        rc |= strlist_addf(&j->warnings, "%s: its end record counts %" PRIu64 " events, %" PRIu64 " were read",
                           j->path, f->end.events, in->events);
    return rc;
}

static int reduce_file(ms_reader *rd, file_job *j, size_t file_index, worker *w)
{
    table *tab = &w->tab;
    file_ctx f;
    memset(&f, 0, sizeof f);
    f.job = j;
    ms_site_acc_init(&f.sites);
    if (!(f.gpu = ms_gpu_acc_new()))
        return -1;
    ms_reader_read(rd, j->path, &reduce_callbacks, &f, &j->res);
    j->read = 1;
    if (f.nomem || j->res.status == MS_READ_NOMEM) {
        free_slots(&f);
        return -1;
    }
    int ok = j->res.status == MS_READ_OK || j->res.status == MS_READ_TRUNCATED;
    if (!ok || !j->res.has_header) {
        if (ok && strlist_addf(&j->warnings, "%s; no header, the file is ignored", j->res.message) != 0) {
            free_slots(&f);
            return -1;
        }
        free_slots(&f);
        return 0;
    }
    j->usable = 1;
    finish_rank(&f);
    if (j->counters && ms_counter_acc_resolve(j->counters, rd) != 0) {
        free_slots(&f);
        return -1;
    }
    if (ms_site_acc_resolve(&f.sites, rd, j->info.rank, w->work->sym, &w->sites, &w->nsites, &w->sites_cap) != 0) {
        free_slots(&f);
        return -1;
    }
    if (file_warnings(&f) != 0) {
        free_slots(&f);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < f.nslots; i++) {
        file_slot *s = &f.slots[i];
        if (rc != 0 || s->stats.calls == 0) {
            ms_stats_free(&s->stats);
            continue;
        }
        ms_stats_shift(&s->stats, j->info.clock_offset_ns);
        size_t len;
        const char *name = ms_reader_region_name(rd, (uint32_t)i, &len);
        if (s->is_mpi && ms_p2p_add_region(&j->chans, &j->nchans, &j->chans_cap, j->info.rank, name,
                                           s->stats.calls, &f.comms) != 0)
            rc = -1;
        ms_region_rank part = {.rank_index = (uint32_t)file_index, .window_ns = s->window_ns, .excl_ns = s->excl_ns,
                               .stats = s->stats};
        if (ms_region_table_add(tab, name, len, &part) != 0) {
            ms_stats_free(&s->stats);
            rc = -1;
        }
    }
    free(f.slots);
    ms_nest_free(&f.nest);
    ms_site_acc_free(&f.sites);
    ms_comm_map_free(&f.comms);
    /* GPU activity: a second read of the log when launches are to be
     * charged to their enclosing regions (gpu.h). */
    ms_rank_info *in = &j->info;
    uint64_t wall_lo = in->init_start_ns ? in->init_start_ns : in->init_end_ns ? in->init_end_ns : f.first_start;
    ms_gpu_acc *gpu = f.gpu;
    f.gpu = NULL;
    if (rc == 0 && ms_gpu_acc_finish(gpu, rd, j->path, wall_lo, wall_lo + in->wall_ns, &in->gpu) != 0)
        rc = -1;
    else if (rc != 0)
        ms_gpu_acc_free(gpu);
    return rc;
}

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
        if (reduce_file(rd, &sw->jobs[sw->order[i]], sw->order[i], w) != 0)
            atomic_store(&sw->nomem, 1);
        atomic_fetch_add(&sw->done, 1);
    }
    ms_reader_destroy(rd);
    return NULL;
}

/* ---- the directory ---- */

/* rank-<digits>.zst: returns the number (saturated), or -1 for other names. */
static long long log_name_rank(const char *name)
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
    const file_job *x = a, *y = b;
    if (x->name_rank != y->name_rank)
        return x->name_rank < y->name_rank ? -1 : 1;
    return strcmp(x->base, y->base);
}

/* A file job for dir/name (the rest zeroed); 0, or -1 when out of memory. */
static int job_init(file_job *j, const char *dir, const char *name)
{
    size_t dlen = strlen(dir);
    int slash = dlen > 0 && dir[dlen - 1] == '/';
    memset(j, 0, sizeof *j);
    if (asprintf(&j->path, "%s%s%s", dir, slash ? "" : "/", name) < 0) {
        j->path = NULL;
        return -1;
    }
    j->base = j->path + dlen + (slash ? 0 : 1);
    j->name_rank = log_name_rank(name);
    return 0;
}

static ms_reduce_status list_logs(const char *dir, ms_run *run, file_job **out, size_t *nout)
{
    strlist errs = {0};
    DIR *d = opendir(dir);
    if (!d) {
        int e = errno;
        if (strlist_addf(&errs, "%s: %s", dir, e == ENOENT ? "no such directory" : strerror(e)) != 0)
            return MS_REDUCE_NOMEM;
        run->errors = errs.v;
        run->nerrors = errs.n;
        return MS_REDUCE_USAGE;
    }
    file_job *jobs = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    ms_reduce_status st = MS_REDUCE_OK;
    while ((de = readdir(d)) != NULL) {
        if (log_name_rank(de->d_name) < 0)
            continue;
        if (n == cap) {
            size_t c = cap ? cap * 2 : 64;
            file_job *j = realloc(jobs, c * sizeof *j);
            if (!j) {
                st = MS_REDUCE_NOMEM;
                break;
            }
            jobs = j;
            cap = c;
        }
        if (job_init(&jobs[n], dir, de->d_name) != 0) {
            st = MS_REDUCE_NOMEM;
            break;
        }
        n++;
    }
    closedir(d);
    if (st == MS_REDUCE_OK && n == 0) {
        if (strlist_addf(&errs, "%s: no rank-*.zst logs in this directory", dir) != 0)
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

/* ---- merging into the run ---- */

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
}

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

static int info_cmp(const void *a, const void *b)
{
    const ms_rank_info *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
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
static int build_ranks(ms_run *run, file_job *jobs, size_t njobs, uint32_t *file_to_rank,
                       strlist *warnings)
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
        file_job *j = &jobs[keys[i].file];
        if (run->nranks > 0 && run->ranks[run->nranks - 1].rank == keys[i].rank) {
            const char *kept = run->ranks[run->nranks - 1].file;
            rc |= strlist_addf(warnings, "%s: duplicate log of rank %" PRId32 " (also in %s); it is ignored",
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
static int merge_table(table *dst, table *src, const uint32_t *file_to_rank)
{
    int rc = 0;
    for (size_t r = 0; r < ms_strtab_count(&src->names); r++) {
        region_acc *a = &src->regs[r];
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
static int build_regions(ms_run *run, table *tab)
{
    size_t n = ms_strtab_count(&tab->names);
    run->regions = calloc(n ? n : 1, sizeof *run->regions);
    const ms_stats **per_rank = NULL;
    size_t per_rank_cap = 0;
    if (!run->regions)
        return -1;
    int rc = 0;
    for (size_t r = 0; r < n; r++) {
        region_acc *a = &tab->regs[r];
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

/* Run-wide facts and warnings; missing ranks only when every log was
 * readable (an unreadable one would be reported as missing too). */
static int summarize_run(ms_run *run, strlist *warnings, int check_missing)
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
    run->world_size = size;
    if (sizes_differ)
        rc |= strlist_addf(warnings, "the logs disagree on the world size; the largest, %" PRId32 ", is used",
                           size);

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
        rc |= strlist_addf(warnings, "%s: %zu of %" PRId32 " ranks have no log (missing ranks: %s); "
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
 * run other than the first file's. */
static int check_one_run(const file_job *jobs, size_t njobs, strlist *errors)
{
    const file_job *first = NULL;
    int rc = 0;
    for (size_t i = 0; i < njobs; i++) {
        const file_job *j = &jobs[i];
        if (!j->usable || !j->info.run_id || !j->info.run_id[0])
            continue;
        if (!first) {
            first = j;
            continue;
        }
        if (strcmp(j->info.run_id, first->info.run_id) != 0)
            rc |= strlist_addf(errors, "%s: a log of another run (its header at byte offset 0 says run=%s, "
                               "%s says run=%s); merge the logs of one run at a time", j->path,
                               j->info.run_id, first->path, first->info.run_id);
    }
    return rc;
}

/* One warning per object whose call sites could not be symbolized because
 * the file changed or went away since the run. */
static int site_warnings(const ms_run *run, strlist *warnings)
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
        rc |= strlist_addf(warnings, "%s: call sites in %s are shown as object+offset: %s", run->dir, c->object,
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
static int take_chans(ms_run *run, file_job *jobs, size_t njobs, const uint32_t *file_to_rank)
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
static int take_counters(ms_run *run, file_job *jobs, size_t njobs, const uint32_t *file_to_rank)
{
    for (size_t i = 0; i < njobs; i++)
        if (file_to_rank[i] != UINT32_MAX && jobs[i].counters &&
            ms_counters_add(&run->counters, jobs[i].counters, run->ranks[file_to_rank[i]].rank) != 0)
            return -1;
    ms_counters_sort(&run->counters);
    return 0;
}

static unsigned default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (unsigned)n;
}

static void free_jobs(file_job *jobs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(jobs[i].path);
        ms_rank_info_free(&jobs[i].info);
        strlist_free(&jobs[i].warnings);
        free(jobs[i].chans);
        ms_counter_acc_free(jobs[i].counters);
    }
    free(jobs);
}

void ms_partial_init(ms_partial *p)
{
    memset(p, 0, sizeof *p);
}

void ms_partial_free(ms_partial *p)
{
    free_jobs(p->files, p->nfiles);
    for (size_t i = 0; i < p->ntabs; i++)
        ms_region_table_free(&p->tabs[i]);
    free(p->tabs);
    for (size_t i = 0; i < p->nsites; i++)
        ms_callsite_free(&p->sites[i]);
    free(p->sites);
    memset(p, 0, sizeof *p);
}

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

ms_region_table *ms_partial_add_table(ms_partial *p)
{
    ms_region_table *t = realloc(p->tabs, (p->ntabs + 1) * sizeof *t);
    if (!t)
        return NULL;
    p->tabs = t;
    ms_region_table_init(&t[p->ntabs]);
    return &t[p->ntabs++];
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

ms_reduce_status ms_partial_assemble(ms_partial *p, ms_run *run)
{
    file_job *files = p->files;
    size_t nfiles = p->nfiles;
    uint32_t *file_to_rank = malloc((nfiles ? nfiles : 1) * sizeof *file_to_rank);
    strlist warnings = {0}, errors = {0};
    table all;
    ms_region_table_init(&all);
    int failed = p->nomem || !file_to_rank;
    for (size_t i = 0; i < nfiles; i++)
        failed |= !files[i].read;

    /* Errors and per-file warnings, in file order. */
    for (size_t i = 0; !failed && i < nfiles; i++) {
        file_job *j = &files[i];
        ms_read_status rs = j->res.status;
        if (rs != MS_READ_OK && rs != MS_READ_TRUNCATED)
            failed |= strlist_addf(&errors, "%s", j->res.message) != 0;
        failed |= strlist_move(&warnings, &j->warnings) != 0;
    }
    if (!failed)
        failed = check_one_run(files, nfiles, &errors) != 0;
    if (!failed)
        failed = build_ranks(run, files, nfiles, file_to_rank, &warnings) != 0;
    if (!failed)
        ms_clock_align_run(run);
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
            failed = strlist_addf(&warnings, "rank %" PRId32 ": CUPTI dropped %" PRIu64 " GPU activity records; "
                                  "GPU counts and times of that rank are short of them",
                                  run->ranks[i].rank, run->ranks[i].gpu.dropped) != 0;
    if (!failed)
        failed = build_regions(run, &all) != 0;
    ms_region_table_free(&all);
    if (!failed)
        failed = summarize_run(run, &warnings, errors.n == 0) != 0;
    free(file_to_rank);

    run->warnings = warnings.v;
    run->nwarnings = warnings.n;
    run->errors = errors.v;
    run->nerrors = errors.n;
    if (failed)
        return MS_REDUCE_NOMEM;
    return run->nerrors ? MS_REDUCE_BAD_INPUT : MS_REDUCE_OK;
}

ms_reduce_status ms_reduce_dir(const char *dir, unsigned jobs, ms_run **out)
{
    *out = NULL;
    ms_run *run = ms_run_new(dir);
    if (!run)
        return MS_REDUCE_NOMEM;
    ms_partial p;
    ms_partial_init(&p);
    ms_reduce_status st = ms_partial_list(&p, dir, run);
    if (st == MS_REDUCE_OK) {
        ms_partial_read(&p, jobs, NULL);
        st = ms_partial_assemble(&p, run);
    }
    ms_partial_free(&p);
    if (st == MS_REDUCE_NOMEM) {
        ms_run_free(run);
        return st;
    }
    *out = run;
    return st;
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
    ms_counters_free(&run->counters);
    ms_gpu_run_free(run->gpu);
    ms_roofline_free(run->roofline);
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

const ms_rank_info *ms_run_rank(const ms_run *run, int32_t rank)
{
    ms_rank_info key = {.rank = rank};
    return bsearch(&key, run->ranks, run->nranks, sizeof key, info_cmp);
}
