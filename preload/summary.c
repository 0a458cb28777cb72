/* Summary mode's aggregation in the writer thread: see summary.h. */
#include "summary.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log_format.h"
/* The merge's own accumulators, compiled into the library as well (Makefile):
 * one definition of the statistics, the sketch and the nesting rule. */
#include "../common/nesting.h"
#include "../common/stats.h"
#include "records.h"
#include "summary_requests.h"

/* Most region ids one thread may define (as the reader allows). */
#define MAX_IDS (1u << 20)

typedef struct sum_region {
    ms_stats st;            /* durations in ns; first_start/last_end in ns */
    uint64_t first_t;       /* the same two times in the log clock */
    uint64_t last_t;
    uint64_t window_ns, excl_ns;
    uint8_t defined, is_mpi, is_gpu;
} sum_region;

/* The latest counter sample of a (set, region, counter thread): a thread's
 * samples are kept by key, so that they do not grow with the calls. */
typedef struct sum_sample {
    uint64_t set, region, cthread;
    int final;
    uint8_t *rec;
    size_t len;
} sum_sample;

typedef struct sum_thread {
    int has_time;
    uint64_t cursor;        /* log clock, after what was consumed */
    sum_region *regs;       /* by region id */
    uint32_t nregs;
    uint8_t *ctl;           /* control records, as written */
    size_t ctl_len, ctl_cap;
    size_t *cuts;           /* block ends in ctl */
    size_t ncuts, cuts_cap;
    sum_sample *samples;    /* in order of first appearance */
    size_t nsamples, samples_cap;
    ms_sumrq_thread rq;     /* request records (summary_requests.h) */
    sum_region *dregs;      /* the writer's regions: id MS_SUMRQ_ID_BASE + index */
    uint32_t ndregs, dregs_cap;
    int in_gap;             /* ms_sum_gap_begin: ctl from gap_mark on was folded */
    size_t gap_mark;
} sum_thread;

struct ms_sum {
    ms_sum_clock clock;
    double ns_per_tick;         /* 1 / clock.ticks_per_ns, as the merge converts */
    double ticks_ref, ns_ref;   /* clock's, converted once */
    uint64_t win_lo, win_hi;    /* ns */
    size_t block_max;
    sum_thread *threads;
    uint32_t nthreads;
    ms_nest nest;
    uint64_t events;
    int follow_only;            /* events advance cursors, are not folded */
    int match;                  /* request records are matched (rq), or
                                   passed over */
    ms_sumrq rq;
};

static inline uint64_t to_ns(const ms_sum *s, uint64_t t)
{
    if (!s->clock.ticks)
        return t;
    double d = ((double)t - s->ticks_ref) * s->ns_per_tick + s->ns_ref;
    if (!(d > 0))
        return 0;
    /* Below 2^63: one signed conversion. */
    return d >= 9.2e18 ? (uint64_t)9.2e18 : (uint64_t)(int64_t)d;
}

ms_sum *ms_sum_new(const ms_sum_clock *clock, uint64_t init_end, size_t block_max)
{
    ms_sum *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->clock = *clock;
    if (!(s->clock.ticks_per_ns > 0))
        s->clock.ticks_per_ns = 1.0;
    s->ns_per_tick = 1.0 / s->clock.ticks_per_ns;
    s->ticks_ref = (double)s->clock.ticks_ref;
    s->ns_ref = (double)s->clock.ns_ref;
    s->win_lo = to_ns(s, init_end);
    s->win_hi = UINT64_MAX;
    s->block_max = block_max;
    ms_nest_init(&s->nest);
    return s;
}

void ms_sum_free(ms_sum *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; i < s->nthreads; i++) {
        sum_thread *t = &s->threads[i];
        for (uint32_t k = 0; k < t->nregs; k++)
            ms_stats_free(&t->regs[k].st);
        free(t->regs);
        free(t->ctl);
        free(t->cuts);
        for (size_t k = 0; k < t->nsamples; k++)
            free(t->samples[k].rec);
        free(t->samples);
        for (uint32_t k = 0; k < t->ndregs; k++)
            ms_stats_free(&t->dregs[k].st);
        free(t->dregs);
        ms_sumrq_free(&t->rq);
    }
    ms_sumrq_release(&s->rq);
    free(s->threads);
    ms_nest_free(&s->nest);
    free(s);
}

void ms_sum_set_window_end(ms_sum *s, uint64_t finalize_start)
{
    if (finalize_start)
        s->win_hi = to_ns(s, finalize_start);
}

void ms_sum_set_folding(ms_sum *s, int fold)
{
    s->follow_only = !fold;
}

int ms_sum_match_requests(ms_sum *s)
{
    if (!s->match && ms_sumrq_init(&s->rq) != 0)
        return -1;
    s->match = 1;
    return 0;
}

uint64_t ms_sum_events(const ms_sum *s)
{
    return s->events;
}

int ms_sum_cursor(const ms_sum *s, uint32_t thread, uint64_t *cursor)
{
    if (thread >= s->nthreads || !s->threads[thread].has_time)
        return -1;
    *cursor = s->threads[thread].cursor;
    return 0;
}

static sum_thread *thread_at(ms_sum *s, uint32_t thread)
{
    if (thread >= s->nthreads) {
        uint32_t n = s->nthreads ? s->nthreads : 4;
        while (n <= thread)
            n *= 2;
        sum_thread *t = realloc(s->threads, n * sizeof *t);
        if (!t)
            return NULL;
        memset(t + s->nthreads, 0, (n - s->nthreads) * sizeof *t);
        s->threads = t;
        s->nthreads = n;
    }
    return &s->threads[thread];
}

void ms_sum_gap_begin(ms_sum *s, uint32_t thread)
{
    sum_thread *t = thread_at(s, thread);
    if (t && !t->in_gap) {
        t->in_gap = 1;
        t->gap_mark = t->ctl_len;
    }
}

int ms_sum_gap_end(ms_sum *s, uint32_t thread, int (*emit)(void *ctx, uint32_t thread, const uint8_t *p, size_t n),
                   void *ctx)
{
    if (thread >= s->nthreads || !s->threads[thread].in_gap)
        return 0;
    sum_thread *t = &s->threads[thread];
    size_t from = t->gap_mark;
    int rc;
    for (size_t k = 0; k <= t->ncuts; k++) {
        size_t to = k < t->ncuts ? t->cuts[k] : t->ctl_len;
        if (to <= from)
            continue;
        if ((rc = emit(ctx, thread, t->ctl + from, to - from)) != 0)
            return rc;
        from = to;
    }
    /* Then the requests the thread created in the gap that are live: the
     * trace's later records name them. */
    if (s->match && (rc = ms_sumrq_carry(&s->rq, &t->rq, thread, emit, ctx)) != 0)
        return rc;
    t->in_gap = 0;
    return 0;
}

static sum_region *region_at(sum_thread *t, uint64_t id)
{
    if (id >= MAX_IDS)
        return NULL;
    if (id >= t->nregs) {
        uint32_t n = t->nregs ? t->nregs : 64;
        while (n <= id)
            n *= 2;
        sum_region *r = realloc(t->regs, n * sizeof *r);
        if (!r)
            return NULL;
        memset(r + t->nregs, 0, (n - t->nregs) * sizeof *r);
        for (uint32_t i = t->nregs; i < n; i++)
            ms_stats_init(&r[i].st);
        t->regs = r;
        t->nregs = n;
    }
    return &t->regs[id];
}

/* Keep one control record [p, p + n) for the snapshots, in blocks of at
 * most block_max bytes. */
static int keep_control(ms_sum *s, sum_thread *t, const uint8_t *p, size_t n)
{
    size_t block_start = t->ncuts ? t->cuts[t->ncuts - 1] : 0;
    if (t->ctl_len > block_start && t->ctl_len - block_start + n > s->block_max) {
        if (t->ncuts == t->cuts_cap) {
            size_t cap = t->cuts_cap ? t->cuts_cap * 2 : 8;
            size_t *c = realloc(t->cuts, cap * sizeof *c);
            if (!c)
                return -1;
            t->cuts = c;
            t->cuts_cap = cap;
        }
        t->cuts[t->ncuts++] = t->ctl_len;
    }
    if (t->ctl_len + n > t->ctl_cap) {
        size_t cap = t->ctl_cap ? t->ctl_cap * 2 : 4096;
        while (cap < t->ctl_len + n)
            cap *= 2;
        uint8_t *c = realloc(t->ctl, cap);
        if (!c)
            return -1;
        t->ctl = c;
        t->ctl_cap = cap;
    }
    memcpy(t->ctl + t->ctl_len, p, n);
    t->ctl_len += n;
    return 0;
}

/* Skip n varints; 0, or -1 past the end. */
static int skip_varints(const uint8_t **pp, const uint8_t *end, uint64_t n)
{
    uint64_t v;
    for (uint64_t i = 0; i < n; i++)
        if (ms_get_varint(pp, end, &v) != 0)
            return -1;
    return 0;
}

static int skip_bytes(const uint8_t **pp, const uint8_t *end, uint64_t n)
{
    if (n > (uint64_t)(end - *pp))
        return -1;
    *pp += n;
    return 0;
}

/* A length-prefixed string. */
static int skip_name(const uint8_t **pp, const uint8_t *end)
{
    uint64_t len;
    return ms_get_varint(pp, end, &len) != 0 ? -1 : skip_bytes(pp, end, len);
}

/* The rest of a control record of kind `ctl` after its head. 0, or -1 on
 * a record this writer does not know (the rest of the chunk is dropped). */
static int skip_control(uint64_t ctl, const uint8_t **pp, const uint8_t *end)
{
    uint64_t n, v;
    switch (ctl) {
    case MS_CTL_COMM:
    case MS_CTL_SITE:
        if (skip_varints(pp, end, 1) != 0 || ms_get_varint(pp, end, &n) != 0)
            return -1;
        return skip_varints(pp, end, n);
    case MS_CTL_OBJECT:
        return skip_varints(pp, end, 3) != 0 || skip_name(pp, end) != 0 ? -1 : skip_name(pp, end);
    case MS_CTL_COUNTER_SET:
        if (skip_varints(pp, end, 2) != 0 || ms_get_varint(pp, end, &n) != 0 || n > MS_MAX_COUNTER_VALUES)
            return -1;
        for (uint64_t i = 0; i <= n; i++)
            if (skip_name(pp, end) != 0)
                return -1;
        return 0;
    case MS_CTL_COUNTER_SAMPLE:
        if (skip_varints(pp, end, 6) != 0 || skip_bytes(pp, end, 8) != 0 || ms_get_varint(pp, end, &n) != 0 ||
            n > MS_MAX_COUNTER_VALUES)
            return -1;
        return skip_bytes(pp, end, 8 * n);
    case MS_CTL_TIME:
        return ms_get_varint(pp, end, &v);
    case MS_CTL_MESSAGE:
        return skip_varints(pp, end, 7);
    case MS_CTL_REQUEST:
        return ms_rq_skip(pp, end);
    case MS_CTL_FILE:
        return skip_varints(pp, end, 2) != 0 ? -1 : skip_name(pp, end);
    case MS_CTL_COMM_ORIGIN:
        if (skip_varints(pp, end, 5) != 0 || ms_get_varint(pp, end, &n) != 0)
            return -1;
        return skip_varints(pp, end, n);
    case MS_CTL_COMM_NAME:
        return skip_varints(pp, end, 1) != 0 ? -1 : skip_name(pp, end);
    default:
        return -1;
    }
}

enum { REC_OTHER, REC_EVENT, REC_MESSAGE };

/* The length of the whole record at p (0: cut short, or of a kind this
 * writer cannot skip); *kind: REC_EVENT, REC_MESSAGE or REC_OTHER. */
static size_t record_len(const uint8_t *p, const uint8_t *end, int *kind)
{
    const uint8_t *q = p;
    uint64_t h;
    *kind = REC_OTHER;
    if (ms_get_varint(&q, end, &h) != 0)
        return 0;
    if ((h & 3u) == MS_REC_EVENT) {
        *kind = REC_EVENT;
        if (skip_varints(&q, end, 2) != 0)
            return 0;
    } else if ((h & 3u) != MS_REC_CONTROL) {
        return 0;
    } else if ((h >> 2) == MS_CTL_REGION) {
        if (skip_varints(&q, end, 1) != 0 || skip_name(&q, end) != 0)
            return 0;
    } else if (skip_control(h >> 2, &q, end) != 0) {
        return 0;
    } else if ((h >> 2) == MS_CTL_MESSAGE || (h >> 2) == MS_CTL_REQUEST) {
        *kind = REC_MESSAGE;
    }
    return (size_t)(q - p);
}

size_t ms_sum_records_prefix(const uint8_t *p, size_t n, size_t max)
{
    /* Message and request records belong to the next event: never cut
     * between. */
    const uint8_t *end = p + n;
    size_t whole = 0, cut = 0;
    int kind, pending = 0;
    for (size_t len; whole < n && (len = record_len(p + whole, end, &kind)) != 0 && whole + len <= max;) {
        whole += len;
        if (kind == REC_MESSAGE)
            pending = 1;
        else if (kind == REC_EVENT)
            pending = 0;
        if (!pending)
            cut = whole;
    }
    return cut;
}

uint64_t ms_sum_count_events(const uint8_t *p, size_t n)
{
    const uint8_t *end = p + n;
    uint64_t events = 0;
    int kind;
    for (size_t off = 0, len; off < n && (len = record_len(p + off, end, &kind)) != 0; off += len)
        events += kind == REC_EVENT;
    return events;
}

/* Keep a counter sample as the reader would use it (docs/FORMAT.md): the
 * latest of its (set, region, counter thread) stands; a final one replaces
 * every sample of its set and region, and later ones that are not final
 * are ignored. */
static int keep_sample(sum_thread *t, const uint8_t *rec, size_t len)
{
    const uint8_t *p = rec, *end = rec + len;
    uint64_t h, set, region, cthread, cpu, count, flags;
    if (ms_get_varint(&p, end, &h) != 0 || ms_get_varint(&p, end, &set) != 0 ||
        ms_get_varint(&p, end, &region) != 0 || ms_get_varint(&p, end, &cthread) != 0 ||
        ms_get_varint(&p, end, &cpu) != 0 || ms_get_varint(&p, end, &count) != 0 ||
        ms_get_varint(&p, end, &flags) != 0)
        return 0;
    int final = (flags & MS_SAMPLE_FINAL) != 0;
    sum_sample *slot = NULL;
    size_t k = 0;
    for (size_t i = 0; i < t->nsamples; i++) {
        sum_sample *e = &t->samples[i];
        if (e->set != set || e->region != region)
            continue;
        if (e->final && !final)
            return 0;
        if (final && !e->final) {
            free(e->rec);   /* replaced by the final one */
            continue;
        }
        if (e->cthread == cthread)
            slot = e;
    }
    /* Drop the entries freed above. */
    for (size_t i = 0; i < t->nsamples; i++) {
        sum_sample *e = &t->samples[i];
        if (final && !e->final && e->set == set && e->region == region)
            continue;
        t->samples[k++] = *e;
        if (slot == e)
            slot = &t->samples[k - 1];
    }
    t->nsamples = k;
    uint8_t *copy = malloc(len);
    if (!copy)
        return -1;
    memcpy(copy, rec, len);
    if (!slot) {
        if (t->nsamples == t->samples_cap) {
            size_t cap = t->samples_cap ? t->samples_cap * 2 : 16;
            sum_sample *a = realloc(t->samples, cap * sizeof *a);
            if (!a) {
                free(copy);
                return -1;
            }
            t->samples = a;
            t->samples_cap = cap;
        }
        slot = &t->samples[t->nsamples++];
        slot->rec = NULL;
    }
    free(slot->rec);
    *slot = (sum_sample){.set = set, .region = region, .cthread = cthread, .final = final, .rec = copy, .len = len};
    return 0;
}

static int fold_event(ms_sum *s, uint32_t thread, sum_region *r, uint64_t start, uint64_t end)
{
    uint64_t s_ns = to_ns(s, start), e_ns = to_ns(s, end);
    if (e_ns < s_ns)
        e_ns = s_ns;
    uint64_t d = e_ns - s_ns;
    uint64_t excl = d;
    if (!r->is_gpu && ms_nest_event(&s->nest, thread, s_ns, e_ns, &excl) != 0)
        return -1;
    int first = r->st.calls == 0 || (int64_t)s_ns < r->st.first_start;
    int last = r->st.calls == 0 || (int64_t)e_ns >= r->st.last_end;
    if (ms_stats_add(&r->st, (int64_t)s_ns, d) != 0)
        return -1;
    if (first)
        r->first_t = start;
    if (last)
        r->last_t = end;
    if (r->is_mpi && s_ns >= s->win_lo && e_ns <= s->win_hi)
        r->window_ns += d;
    r->excl_ns += excl;
    s->events++;
    return 0;
}


/* The longest record follow_fast reads: a message record (a head byte and
 * 7 varints); an event is 3 varints. */
#define FOLLOW_MARGIN (1u + 7u * MS_VARINT_MAX)

/* Following only: the events and message records of a thread that has a
 * state, while a whole record surely lies before the end, read without a
 * bound check per byte; returns where the general loop goes on. */
static const uint8_t *follow_fast(ms_sum *s, uint32_t thread, sum_thread *t, const uint8_t *p,
                                  const uint8_t *end)
{
    const uint8_t message_head = (uint8_t)(((unsigned)MS_CTL_MESSAGE << 2) | MS_REC_CONTROL);
    const uint8_t request_head = (uint8_t)(((unsigned)MS_CTL_REQUEST << 2) | MS_REC_CONTROL);
    while (end - p >= (ptrdiff_t)FOLLOW_MARGIN) {
        if ((*p & 3u) == MS_REC_EVENT) {
            uint64_t h, gap, dur;
            p = ms_rec_varint_in(p, &h);
            p = ms_rec_varint_in(p, &gap);
            p = ms_rec_varint_in(p, &dur);
            uint64_t start = t->cursor + gap;
            t->cursor = start + dur;
            if (t->rq.npend)
                /* Out of memory loses what the requests were, no call. */
                (void)ms_sumrq_follow(&s->rq, &t->rq, thread, h >> 2, start);
        } else if (*p == message_head) {
            p++;
            for (int i = 0; i < 7; i++)
                p = ms_rec_skip_varint_in(p);
        } else if (*p == request_head && s->match && !s->rq.folded) {
            if ((p = ms_sumrq_follow_record(&s->rq, &t->rq, p + 1)) == NULL)
                break;   /* out of memory: the general loop says so */
        } else {
            break;
        }
    }
    return p;
}

/* What fold_fast reads without a bound check per byte: an event, or a
 * request record (its head byte, then at most MS_REQUEST_REC_MAX bytes). */
#define FOLD_MARGIN (FOLLOW_MARGIN > 1u + MS_REQUEST_REC_MAX ? FOLLOW_MARGIN : 1u + MS_REQUEST_REC_MAX)

static sum_region *matched_region(ms_sum *s, sum_thread *t, uint32_t thread, uint64_t id, sum_region *r,
                                  uint64_t start);

/* Folding: the events of a thread that has a state and a time, of defined
 * regions, and the request records before them, while a whole record surely
 * lies before the end, read without a bound check per byte; returns where
 * the general loop goes on (at a record of another kind, or an event it has
 * to judge), or NULL when a request record could not be kept. */
static const uint8_t *fold_fast(ms_sum *s, uint32_t thread, sum_thread *t, const uint8_t *p, const uint8_t *end,
                                uint64_t *lost)
{
    const uint8_t request_head = (uint8_t)(((unsigned)MS_CTL_REQUEST << 2) | MS_REC_CONTROL);
    while (end - p >= (ptrdiff_t)FOLD_MARGIN) {
        if ((*p & 3u) != MS_REC_EVENT) {
            if (*p != request_head || !s->match)
                break;
            const uint8_t *q = p + 1;
            if (ms_sumrq_record(&s->rq, &t->rq, &q, end, 0) != 0)
                return NULL;   /* out of memory: the rest of the chunk is lost, as in the general loop */
            p = q;
            continue;
        }
        uint64_t h, gap, dur;
        const uint8_t *q = ms_rec_varint_in(p, &h);
        q = ms_rec_varint_in(q, &gap);
        q = ms_rec_varint_in(q, &dur);
        uint64_t id = h >> 2;
        if (id >= t->nregs || !t->regs[id].defined)
            break;
        uint64_t start = t->cursor + gap;
        t->cursor = start + dur;
        p = q;
        sum_region *r = &t->regs[id];
        if (t->rq.npend && (r = matched_region(s, t, thread, id, r, start)) == NULL) {
            ++*lost;
            continue;
        }
        if (fold_event(s, thread, r, start, start + dur) != 0)
            ++*lost;
    }
    return p;
}

/* The region an event of region id `id` (r) is counted under once the
 * thread's kept request records are applied: r, or one of the writer's
 * own (defined in the thread's control records when new); NULL when out
 * of memory. */
static sum_region *matched_region(ms_sum *s, sum_thread *t, uint32_t thread, uint64_t id, sum_region *r,
                                  uint64_t start)
{
    uint32_t k;
    char name[MS_MAX_NAME + 1];
    size_t len = 0;
    int rc = ms_sumrq_apply(&s->rq, &t->rq, thread, id, start, &k, name, sizeof name, &len);
    if (rc <= 0)
        return rc < 0 ? NULL : r;
    if (k < t->ndregs)
        return &t->dregs[k];
    if (k >= t->dregs_cap) {
        uint32_t cap = t->dregs_cap ? t->dregs_cap * 2 : 16;
        sum_region *d = realloc(t->dregs, cap * sizeof *d);
        if (!d)
            return NULL;
        t->dregs = d;
        t->dregs_cap = cap;
    }
    uint8_t rec[MS_REGION_DEF_MAX];
    uint8_t *end = ms_rec_region(rec, MS_SUMRQ_ID_BASE + k, name, len);
    if (keep_control(s, t, rec, (size_t)(end - rec)) != 0)
        return NULL;
    sum_region *d = &t->dregs[k];
    memset(d, 0, sizeof *d);
    ms_stats_init(&d->st);
    d->defined = 1;
    d->is_mpi = 1;
    t->ndregs = k + 1;
    return d;
}

uint64_t ms_sum_consume(ms_sum *s, uint32_t thread, const uint8_t *p, size_t n)
{
    sum_thread *t = thread_at(s, thread);
    const uint8_t *end = p + n;
    uint64_t lost = 0;
    while (p < end) {
        if (s->follow_only && t && (p = follow_fast(s, thread, t, p, end)) >= end)
            break;
        if (!s->follow_only && t && t->has_time && ((p = fold_fast(s, thread, t, p, end, &lost)) == NULL || p >= end))
            break;
        const uint8_t *rec = p;
        uint64_t h;
        if (ms_get_varint(&p, end, &h) != 0)
            break;
        if ((h & 3u) == MS_REC_EVENT) {
            uint64_t gap, dur;
            if (ms_get_varint(&p, end, &gap) != 0 || ms_get_varint(&p, end, &dur) != 0)
                break;
            if (!t) {
                lost++;
                continue;
            }
            uint64_t start = t->cursor + gap;
            t->cursor = start + dur;
            if (s->follow_only) {
                /* The requests are followed, so that a fold later names
                 * their completions. */
                if (t->rq.npend && ms_sumrq_follow(&s->rq, &t->rq, thread, h >> 2, start) != 0)
                    t = NULL;
                continue;
            }
            sum_region *r = (h >> 2) < t->nregs ? &t->regs[h >> 2] : NULL;
            if (r && t->rq.npend && t->has_time)
                r = matched_region(s, t, thread, h >> 2, r, start);
            if (!r || !r->defined || !t->has_time || fold_event(s, thread, r, start, start + dur) != 0)
                lost++;
            continue;
        }
        if ((h & 3u) != MS_REC_CONTROL)
            break;
        uint64_t ctl = h >> 2;
        if (ctl == MS_CTL_REGION) {
            uint64_t id, len;
            if (ms_get_varint(&p, end, &id) != 0 || ms_get_varint(&p, end, &len) != 0 ||
                len > (uint64_t)(end - p))
                break;
            const char *name = (const char *)p;
            p += len;
            sum_region *r = t ? region_at(t, id) : NULL;
            if (r) {
                r->defined = 1;
                r->is_mpi = len >= 4 && memcmp(name, "mpi:", 4) == 0;
                r->is_gpu = len >= 5 && memcmp(name, "cuda:", 5) == 0;
                if (s->match && ms_sumrq_define(&t->rq, id, name, (size_t)len) != 0)
                    t = NULL;   /* out of memory: later records of the chunk are lost */
            }
        } else if (ctl == MS_CTL_TIME) {
            uint64_t v;
            if (ms_get_varint(&p, end, &v) != 0)
                break;
            if (t) {
                t->cursor = v;
                t->has_time = 1;
            }
            continue;
        } else if (ctl == MS_CTL_REQUEST && s->match) {
            /* Kept until the thread's next event (summary_requests.h). */
            if (!t || ms_sumrq_record(&s->rq, &t->rq, &p, end, s->follow_only) != 0)
                break;
            continue;
        } else if (ctl == MS_CTL_MESSAGE || ctl == MS_CTL_REQUEST) {
            /* Of one call only: a snapshot keeps none (docs/FORMAT.md). */
            if (skip_control(ctl, &p, end) != 0)
                break;
            continue;
        } else if (skip_control(ctl, &p, end) != 0) {
            break;
        }
        int rc = 0;
        if (t && ctl == MS_CTL_COUNTER_SAMPLE)
            rc = keep_sample(t, rec, (size_t)(p - rec));
        else if (t)
            rc = keep_control(s, t, rec, (size_t)(p - rec));
        if (rc != 0)
            t = NULL;   /* out of memory: later records of the chunk are lost */
    }
    return lost;
}

static uint8_t *put_double(uint8_t *p, double v)
{
    memcpy(p, &v, 8);
    return p + 8;
}

/* One MS_CTL_SUMMARY record (at most 16 varints, 2 doubles and
 * MS_SKETCH_MAX_BUCKET + 1 counts). */
#define SUMMARY_REC_MAX ((16u + MS_SKETCH_MAX_BUCKET + 1u) * MS_VARINT_MAX + 16u)

static uint8_t *put_summary(uint8_t *p, uint32_t id, const sum_region *r)
{
    ms_stats_agg a;
    ms_stats_to_agg(&r->st, &a);
    p = ms_put_varint(p, ((uint64_t)MS_CTL_SUMMARY << 2) | MS_REC_CONTROL);
    p = ms_put_varint(p, id);
    p = ms_put_varint(p, a.calls);
    p = ms_put_varint(p, a.total_ns);
    p = ms_put_varint(p, a.min_ns);
    p = ms_put_varint(p, a.max_ns);
    p = put_double(p, a.mean_ns);
    p = put_double(p, a.m2);
    p = ms_put_varint(p, r->first_t);
    p = ms_put_varint(p, a.first_ns);
    p = ms_put_varint(p, r->last_t);
    p = ms_put_varint(p, a.last_ns);
    p = ms_put_varint(p, r->window_ns);
    p = ms_put_varint(p, r->excl_ns);
    p = ms_put_varint(p, a.zero);
    p = ms_put_varint(p, (uint64_t)a.lo);
    p = ms_put_varint(p, (uint64_t)a.len);
    for (int32_t i = 0; i < a.len; i++)
        p = ms_put_varint(p, a.counts[i]);
    return p;
}

int ms_sum_write(const ms_sum *s, int (*emit)(void *ctx, uint32_t thread, const uint8_t *p, size_t n), void *ctx,
                 uint8_t *buf)
{
    int rc;
    for (uint32_t i = 0; i < s->nthreads; i++) {
        const sum_thread *t = &s->threads[i];
        size_t from = 0;
        for (size_t k = 0; k <= t->ncuts; k++) {
            size_t to = k < t->ncuts ? t->cuts[k] : t->ctl_len;
            if (to > from && (rc = emit(ctx, i, t->ctl + from, to - from)) != 0)
                return rc;
            from = to;
        }
        size_t len = 0;
        for (size_t k = 0; k < t->nsamples; k++) {
            if (len > 0 && len + t->samples[k].len > s->block_max) {
                if ((rc = emit(ctx, i, buf, len)) != 0)
                    return rc;
                len = 0;
            }
            memcpy(buf + len, t->samples[k].rec, t->samples[k].len);
            len += t->samples[k].len;
        }
        for (uint32_t id = 0; id < t->nregs; id++) {
            if (t->regs[id].st.calls == 0)
                continue;
            if (len > 0 && len + SUMMARY_REC_MAX > s->block_max) {
                if ((rc = emit(ctx, i, buf, len)) != 0)
                    return rc;
                len = 0;
            }
            len = (size_t)(put_summary(buf + len, id, &t->regs[id]) - buf);
        }
        for (uint32_t k = 0; k < t->ndregs; k++) {
            if (t->dregs[k].st.calls == 0)
                continue;
            if (len > 0 && len + SUMMARY_REC_MAX > s->block_max) {
                if ((rc = emit(ctx, i, buf, len)) != 0)
                    return rc;
                len = 0;
            }
            len = (size_t)(put_summary(buf + len, MS_SUMRQ_ID_BASE + k, &t->dregs[k]) - buf);
        }
        if (len > 0 && (rc = emit(ctx, i, buf, len)) != 0)
            return rc;
    }
    return 0;
}
