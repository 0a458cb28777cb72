/* GPU activity in the reduction: see gpu.h. */
#include "gpu.h"

#include <stdlib.h>
#include <string.h>

enum { CLS_OTHER = 0, CLS_KERNEL, CLS_COPY, CLS_MEMSET };
#define NONE UINT32_MAX

typedef struct launch {
    uint32_t host;                 /* host thread index + 1; 0 unknown */
    uint32_t best;                 /* enclosing region (per-file index) or NONE */
    uint64_t t;                    /* launch time */
    uint64_t dur;                  /* GPU duration */
    uint64_t best_start, best_end;
} launch;

typedef struct span {
    uint64_t lo, hi;
} span;

typedef struct thread_info {
    uint8_t gpu;                   /* 1 stream, 2 CUPTI's own */
    uint8_t pending;               /* a launch record waits for its event */
    uint32_t host;
    uint64_t t;
} thread_info;

struct ms_gpu_acc {
    uint8_t *cls;                  /* per region index */
    size_t ncls;
    thread_info *threads;
    size_t nthreads;
    launch *launches;
    size_t nlaunches, lcap;
    span *spans;
    size_t nspans, scap;
    ms_gpu_rank r;
};

ms_gpu_acc *ms_gpu_acc_new(void)
{
    return calloc(1, sizeof(ms_gpu_acc));
}

void ms_gpu_acc_free(ms_gpu_acc *a)
{
    if (!a)
        return;
    free(a->cls);
    free(a->threads);
    free(a->launches);
    free(a->spans);
    ms_gpu_rank_free(&a->r);
    free(a);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (!q)
        return -1;
    memset((char *)q + *cap * size, 0, (c - *cap) * size);
    *p = q;
    *cap = c;
    return 0;
}

int ms_gpu_acc_region(ms_gpu_acc *a, uint32_t region, const char *name, size_t len)
{
    if (grow((void **)&a->cls, &a->ncls, (size_t)region + 1, 1) != 0)
        return -1;
    uint8_t c = CLS_OTHER;
    if (len >= 12 && memcmp(name, "cuda:kernel ", 12) == 0)
        c = CLS_KERNEL;
    else if (len >= 11 && memcmp(name, "cuda:memcpy", 11) == 0)
        c = CLS_COPY;
    else if (len >= 11 && memcmp(name, "cuda:memset", 11) == 0)
        c = CLS_MEMSET;
    a->cls[region] = c;
    return 0;
}

static thread_info *thread_of(ms_gpu_acc *a, uint32_t t)
{
    if (grow((void **)&a->threads, &a->nthreads, (size_t)t + 1, sizeof *a->threads) != 0)
        return NULL;
    return &a->threads[t];
}

int ms_gpu_acc_record(ms_gpu_acc *a, const ms_gpu_record *g)
{
    thread_info *t = thread_of(a, g->thread);
    if (!t)
        return -1;
    switch (g->kind) {
    case MS_GPU_STREAM:
        if (t->gpu != 1)
            a->r.streams++;
        t->gpu = 1;
        break;
    case MS_GPU_TOOL:
        t->gpu = 2;
        break;
    case MS_GPU_LAUNCH:
        t->pending = 1;
        t->host = g->host_thread;
        t->t = g->launch_ns;
        break;
    case MS_GPU_DROPPED:
        a->r.dropped += g->dropped;
        break;
    }
    return 0;
}

int ms_gpu_acc_event(ms_gpu_acc *a, const ms_read_event *ev)
{
    if (ev->thread >= a->nthreads || a->threads[ev->thread].gpu != 1)
        return 0;
    thread_info *t = &a->threads[ev->thread];
    uint8_t c = ev->region < a->ncls ? a->cls[ev->region] : CLS_OTHER;
    uint64_t d = ev->end_ns - ev->start_ns;
    if (c == CLS_OTHER) {
        t->pending = 0;
        return 0;
    }
    if (c == CLS_KERNEL)
        a->r.kernels++, a->r.kernel_ns += d;
    else if (c == CLS_COPY)
        a->r.copies++, a->r.copy_ns += d;
    else
        a->r.memsets++, a->r.memset_ns += d;
    if (grow((void **)&a->spans, &a->scap, a->nspans + 1, sizeof *a->spans) != 0 ||
        grow((void **)&a->launches, &a->lcap, a->nlaunches + 1, sizeof *a->launches) != 0)
        return -1;
    a->spans[a->nspans++] = (span){ev->start_ns, ev->end_ns};
    launch *l = &a->launches[a->nlaunches++];
    *l = (launch){.host = t->pending ? t->host : 0, .best = NONE, .t = t->pending ? t->t : 0, .dur = d};
    t->pending = 0;
    return 0;
}

static int span_cmp(const void *x, const void *y)
{
    const span *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static int launch_cmp(const void *x, const void *y)
{
    const launch *a = x, *b = y;
    if (a->host != b->host)
        return a->host < b->host ? -1 : 1;
    return a->t < b->t ? -1 : a->t > b->t;
}

static int best_cmp(const void *x, const void *y)
{
    const launch *a = x, *b = y;
    return a->best < b->best ? -1 : a->best > b->best;
}

/* Pass 2: each host event claims the launches of its thread inside it
 * when it is more inner than what they have. */
static int on_host_event(void *ctx, const ms_read_event *ev)
{
    ms_gpu_acc *a = ctx;
    if (ev->thread < a->nthreads && a->threads[ev->thread].gpu)
        return 0;
    uint32_t host = ev->thread + 1;
    size_t lo = 0, hi = a->nlaunches;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const launch *m = &a->launches[mid];
        if (m->host < host || (m->host == host && m->t < ev->start_ns))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < a->nlaunches; i++) {
        launch *l = &a->launches[i];
        if (l->host != host || l->t > ev->end_ns)
            break;
        if (l->best == NONE || ev->start_ns > l->best_start ||
            (ev->start_ns == l->best_start && ev->end_ns < l->best_end)) {
            l->best = ev->region;
            l->best_start = ev->start_ns;
            l->best_end = ev->end_ns;
        }
    }
    return 0;
}

static int origin_cmp(const void *x, const void *y)
{
    const ms_gpu_origin *a = x, *b = y;
    if (a->gpu_ns != b->gpu_ns)
        return a->gpu_ns > b->gpu_ns ? -1 : 1;
    return strcmp(a->region, b->region);
}

/* Add calls and time to the origin `name` of a list. */
static int origin_add(ms_gpu_origin **v, size_t *n, const char *name, size_t len, uint64_t calls, uint64_t ns)
{
    for (size_t i = 0; i < *n; i++)
        if (strlen((*v)[i].region) == len && memcmp((*v)[i].region, name, len) == 0) {
            (*v)[i].calls += calls;
            (*v)[i].gpu_ns += ns;
            return 0;
        }
    ms_gpu_origin *q = realloc(*v, (*n + 1) * sizeof *q);
    if (!q)
        return -1;
    *v = q;
    char *s = malloc(len + 1);
    if (!s)
        return -1;
    memcpy(s, name, len);
    s[len] = 0;
    q[(*n)++] = (ms_gpu_origin){s, calls, ns};
    return 0;
}

int ms_gpu_acc_finish(ms_gpu_acc *a, ms_reader *rd, const char *path, uint64_t wall_lo, uint64_t wall_hi,
                      ms_gpu_rank *out)
{
    memset(out, 0, sizeof *out);
    int rc = 0;
    /* Busy time: the union of the intervals, inside the wall time. */
    if (a->nspans)
        qsort(a->spans, a->nspans, sizeof *a->spans, span_cmp);
    uint64_t busy = 0, cur_lo = 0, cur_hi = 0;
    int open = 0;
    for (size_t i = 0; i <= a->nspans; i++) {
        if (i < a->nspans && open && a->spans[i].lo <= cur_hi) {
            if (a->spans[i].hi > cur_hi)
                cur_hi = a->spans[i].hi;
            continue;
        }
        if (open) {
            uint64_t l = cur_lo > wall_lo ? cur_lo : wall_lo, h = cur_hi < wall_hi ? cur_hi : wall_hi;
            busy += h > l ? h - l : 0;
        }
        if (i < a->nspans)
            cur_lo = a->spans[i].lo, cur_hi = a->spans[i].hi, open = 1;
    }
    a->r.busy_ns = busy;
    /* Enclosing regions. */
    int any_host = 0;
    for (size_t i = 0; i < a->nlaunches; i++)
        any_host |= a->launches[i].host != 0;
    if (any_host) {
        qsort(a->launches, a->nlaunches, sizeof *a->launches, launch_cmp);
        ms_read_callbacks cb = {.event = on_host_event};
        ms_read_result res;
        /* The file read well once: a failure now (it changed meanwhile)
         * leaves the launches without their regions, as "(none)". */
        if (ms_reader_read(rd, path, &cb, a, &res) == MS_READ_NOMEM)
            rc = -1;
    }
    /* Grouped by enclosing region: one origin per group. */
    for (size_t i = 0; i < a->nlaunches; i++)
        a->launches[i].best = a->launches[i].host == 0 ? NONE - 1 : a->launches[i].best;
    if (a->nlaunches)
        qsort(a->launches, a->nlaunches, sizeof *a->launches, best_cmp);
    for (size_t i = 0, j; rc == 0 && i < a->nlaunches; i = j) {
        uint64_t calls = 0, ns = 0;
        for (j = i; j < a->nlaunches && a->launches[j].best == a->launches[i].best; j++)
            calls++, ns += a->launches[j].dur;
        uint32_t b = a->launches[i].best;
        const char *name = b == NONE - 1 ? "(unknown)" : "(none)";
        size_t len = strlen(name);
        if (b < NONE - 1)
            name = ms_reader_region_name(rd, b, &len);
        rc = origin_add(&a->r.origins, &a->r.norigins, name, len, calls, ns);
    }
    if (rc == 0) {
        if (a->r.norigins)
            qsort(a->r.origins, a->r.norigins, sizeof *a->r.origins, origin_cmp);
        *out = a->r;
        memset(&a->r, 0, sizeof a->r);
    }
    ms_gpu_acc_free(a);
    return rc;
}

void ms_gpu_rank_free(ms_gpu_rank *g)
{
    for (size_t i = 0; i < g->norigins; i++)
        free(g->origins[i].region);
    free(g->origins);
    memset(g, 0, sizeof *g);
}

int ms_gpu_run_add(ms_gpu_run **run, const ms_gpu_rank *g)
{
    if (!g->streams && !g->dropped)
        return 0;
    if (!*run && !(*run = calloc(1, sizeof **run)))
        return -1;
    ms_gpu_run *r = *run;
    r->kernels += g->kernels;
    r->copies += g->copies;
    r->memsets += g->memsets;
    r->dropped += g->dropped;
    for (size_t i = 0; i < g->norigins; i++)
        if (origin_add(&r->origins, &r->norigins, g->origins[i].region, strlen(g->origins[i].region),
                       g->origins[i].calls, g->origins[i].gpu_ns) != 0)
            return -1;
    return 0;
}

void ms_gpu_run_sort(ms_gpu_run *run)
{
    if (run && run->norigins)
        qsort(run->origins, run->norigins, sizeof *run->origins, origin_cmp);
}

void ms_gpu_run_free(ms_gpu_run *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->norigins; i++)
        free(g->origins[i].region);
    free(g->origins);
    free(g);
}

double ms_gpu_busy_pct(const ms_gpu_rank *g, uint64_t wall_ns)
{
    if (!wall_ns)
        return 0.0;
    double p = 100.0 * (double)g->busy_ns / (double)wall_ns;
    return p > 100.0 ? 100.0 : p;
}
