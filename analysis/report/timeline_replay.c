/* The replay of a run's timeline: see timeline_replay.h. */
#include "timeline_replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/region_parse.h"
#include "../reduce/p2p_facts.h"
#include "../reduce/run_clock.h"
#include "u32set.h"

/* The calls counted so far on one thread (file order). */
typedef struct thread_count {
    uint32_t thread;
    uint64_t calls;
} thread_count;

typedef struct replay {
    const ms_run *run;
    const ms_replay_ops *ops;
    void *ctx;
    ms_reader *rd;
    const ms_region **by_name;     /* run->regions sorted by name */
    const ms_region **of_region;   /* per-file region -> the run's, or NULL */
    uint8_t *is_mpi;               /* per-file region: its name starts "mpi:" */
    size_t nmap, capmap;
    const ms_rank_info *in;
    int messages;                  /* the log writes message records */
    ms_p2p_pending pending;
    thread_count *counts;          /* file order: per thread */
    size_t ncounts, capcounts, last;
    int first_read;                /* by thread: the read that lists threads */
    uint32_t thread;               /* by thread: the thread of this read */
    uint64_t index;                /* by thread: its calls so far */
    ms_u32set threads;             /* by thread: the threads seen */
    int nomem;
} replay;

static int by_name_cmp(const void *a, const void *b)
{
    return strcmp((*(const ms_region *const *)a)->name, (*(const ms_region *const *)b)->name);
}

static const ms_region *find_region(const replay *p, const char *name, size_t len)
{
    size_t lo = 0, hi = p->run->nregions;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *s = p->by_name[mid]->name;
        int cmp = strncmp(s, name, len);
        if (cmp == 0)
            cmp = s[len] != '\0';   /* s is longer than name */
        if (cmp == 0)
            return p->by_name[mid];
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int on_header(void *ctx, const ms_log_meta *m)
{
    replay *p = ctx;
    p->messages = ms_p2p_facts_on(m->header.version, m->header.mode);
    return 0;
}

static int on_region(void *ctx, uint32_t region, const char *name, size_t len)
{
    replay *p = ctx;
    if (region >= p->capmap) {
        size_t cap = p->capmap ? p->capmap * 2 : 64;
        while (cap <= region)
            cap *= 2;
        const ms_region **g = realloc(p->of_region, cap * sizeof *g);
        if (g)
            p->of_region = g;
        uint8_t *m = g ? realloc(p->is_mpi, cap) : NULL;
        if (!m) {
            p->nomem = 1;
            return -1;
        }
        p->is_mpi = m;
        p->capmap = cap;
    }
    /* The reader numbers new names densely. */
    while (p->nmap <= region) {
        p->of_region[p->nmap] = NULL;
        p->is_mpi[p->nmap++] = 0;
    }
    p->of_region[region] = find_region(p, name, len);
    p->is_mpi[region] = (uint8_t)ms_region_is_mpi(name, len);
    if (!p->first_read || !p->ops->region)
        return 0;
    /* The callback's name is not NUL-terminated; the reader's copy is. */
    const char *z = ms_reader_region_name(p->rd, region, NULL);
    return z ? p->ops->region(p->ctx, region, z, len, p->of_region[region]) : 0;
}

static int on_message(void *ctx, const ms_read_message *m)
{
    replay *p = ctx;
    if (p->messages && ms_p2p_pending_add(&p->pending, m) != 0) {
        p->nomem = 1;
        return -1;
    }
    return 0;
}

/* The index of thread t's next call, in the log's order. */
static int next_index(replay *p, uint32_t t, uint64_t *index)
{
    if (p->last >= p->ncounts || p->counts[p->last].thread != t) {
        size_t i = 0;
        while (i < p->ncounts && p->counts[i].thread != t)
            i++;
        if (i == p->ncounts) {
            if (p->ncounts == p->capcounts) {
                size_t cap = p->capcounts ? 2 * p->capcounts : 8;
                thread_count *c = realloc(p->counts, cap * sizeof *c);
                if (!c)
                    return -1;
                p->counts = c;
                p->capcounts = cap;
            }
            p->counts[p->ncounts++] = (thread_count){.thread = t};
        }
        p->last = i;
    }
    *index = p->counts[p->last].calls++;
    return 0;
}

static int on_event(void *ctx, const ms_read_event *ev)
{
    replay *p = ctx;
    int mpi = ev->region < p->nmap && p->is_mpi[ev->region];
    ms_replay_call k = {.in = p->in, .ev = ev, .thread = ev->thread, .region = ev->region, .messages = p->messages};
    /* The records of an MPI call (the tool's own calls may come between a
     * call's records and its event). */
    if (mpi && p->messages)
        k.msgs = ms_p2p_pending_take(&p->pending, ev->thread, &k.nmsgs);
    if (p->ops->by_thread) {
        if (p->first_read && (p->threads.n == 0 || p->threads.v[p->threads.n - 1] != ev->thread) &&
            ms_u32set_add(&p->threads, ev->thread) < 0) {
            p->nomem = 1;
            return -1;
        }
        if (ev->thread != p->thread)
            return 0;
        k.index = p->index++;
    } else if (next_index(p, ev->thread, &k.index) != 0) {
        p->nomem = 1;
        return -1;
    }
    if (!p->ops->call)
        return 0;
    k.name = ms_reader_region_name(p->rd, ev->region, &k.name_len);
    if (!k.name)
        k.name = "";
    k.run_region = ev->region < p->nmap ? p->of_region[ev->region] : NULL;
    k.start_abs = ms_rank_time(p->in, ev->start_ns);
    k.end_abs = ms_rank_time(p->in, ev->end_ns);
    k.start = k.start_abs - p->run->origin;
    k.end = k.end_abs - p->run->origin;
    k.dur = (int64_t)(ev->end_ns - ev->start_ns);
    k.kept = ms_window_time(p->run->window, k.start, k.end);
    return p->ops->call(p->ctx, &k);
}

static int on_gpu(void *ctx, const ms_gpu_record *g)
{
    replay *p = ctx;
    return p->first_read && p->ops->gpu ? p->ops->gpu(p->ctx, g) : 0;
}

static int on_comm(void *ctx, uint32_t thread, uint64_t id, const int32_t *world_ranks, uint32_t n)
{
    replay *p = ctx;
    return p->first_read && p->ops->comm ? p->ops->comm(p->ctx, thread, id, world_ranks, n) : 0;
}

static const ms_read_callbacks replay_callbacks = {.header = on_header, .region = on_region, .event = on_event,
                                                   .message = on_message, .gpu = on_gpu, .comm = on_comm};

/* One read of the rank's log (by thread: of thread p->thread's calls). */
static ms_read_status read_once(replay *p, ms_read_result *res)
{
    p->nmap = 0;
    p->messages = 0;
    p->ncounts = 0;
    p->last = 0;
    p->index = 0;
    ms_p2p_pending_free(&p->pending);
    ms_read_status st = ms_reader_read(p->rd, p->in->file, &replay_callbacks, p, res);
    if (p->nomem) {
        st = MS_READ_NOMEM;
        snprintf(res->message, sizeof res->message, "out of memory reading %s", p->in->file);
    }
    return st;
}

static ms_read_status read_rank(replay *p, ms_read_result *res)
{
    p->first_read = 1;
    p->thread = 0;
    p->threads.n = 0;
    ms_read_status st = read_once(p, res);
    if (!p->ops->by_thread)
        return st;
    p->first_read = 0;
    /* The threads listed by the first read, thread 0 done. */
    for (size_t i = 0; i < p->threads.n && (st == MS_READ_OK || st == MS_READ_TRUNCATED); i++) {
        if (p->threads.v[i] == 0)
            continue;
        p->thread = p->threads.v[i];
        st = read_once(p, res);
    }
    return st;
}

int ms_replay_run(const ms_run *run, const ms_replay_ops *ops, void *ctx)
{
    replay p = {.run = run, .ops = ops, .ctx = ctx};
    int rc = 0;
    p.rd = ms_reader_create();
    p.by_name = malloc((run->nregions ? run->nregions : 1) * sizeof *p.by_name);
    for (size_t i = 0; p.by_name && i < run->nregions; i++)
        p.by_name[i] = &run->regions[i];
    if (p.by_name)
        qsort(p.by_name, run->nregions, sizeof *p.by_name, by_name_cmp);
    for (size_t r = 0; rc == 0 && r < run->nranks; r++) {
        p.in = &run->ranks[r];
        if (!ms_window_rank(run->window, p.in->rank))
            continue;
        int go = ops->rank ? ops->rank(ctx, p.in) : 0;
        if (go < 0) {
            rc = -1;
            break;
        }
        ms_read_result res = {.message = ""};
        ms_read_status st = MS_READ_OK;
        if (!p.rd || !p.by_name) {
            st = MS_READ_NOMEM;
            snprintf(res.message, sizeof res.message, "out of memory");
        } else if (go == 0) {
            p.nomem = 0;
            st = read_rank(&p, &res);
        }
        int done = ops->rank_done ? ops->rank_done(ctx, p.in, st, res.message) : 0;
        if (done < 0 || st == MS_READ_STOPPED)
            rc = -1;
        else if (done > 0)
            break;
    }
    ms_p2p_pending_free(&p.pending);
    free(p.threads.v);
    free(p.counts);
    free(p.of_region);
    free(p.is_mpi);
    free(p.by_name);
    ms_reader_destroy(p.rd);
    return rc;
}
