/* Exclusive time of nested events (nesting.h). */
#include "nesting.h"

#include <stdlib.h>
#include <string.h>

void ms_nest_init(ms_nest *n)
{
    memset(n, 0, sizeof *n);
}

void ms_nest_free(ms_nest *n)
{
    for (size_t i = 0; i < n->nthreads; i++) {
        free(n->threads[i].win);
        free(n->threads[i].old);
    }
    free(n->threads);
    ms_nest_init(n);
}

static ms_nest_thread *thread_of(ms_nest *n, uint32_t thread)
{
    if (thread >= n->nthreads) {
        size_t cap = n->nthreads ? n->nthreads : 4;
        while (cap <= thread)
            cap *= 2;
        ms_nest_thread *t = realloc(n->threads, cap * sizeof *t);
        if (!t)
            return NULL;
        memset(t + n->nthreads, 0, (cap - n->nthreads) * sizeof *t);
        n->threads = t;
        n->nthreads = cap;
    }
    return &n->threads[thread];
}

static ms_nest_item merged(const ms_nest_item *a, const ms_nest_item *b)
{
    return (ms_nest_item){.start = a->start < b->start ? a->start : b->start,
                          .end = a->end > b->end ? a->end : b->end,
                          .dur = a->dur + b->dur,
                          .count = a->count + b->count};
}

/* Put an interval older than those of the window into the buckets. */
static int to_buckets(ms_nest_thread *t, const ms_nest_item *it)
{
    if (!t->old) {
        t->old = malloc(MS_NEST_BUCKETS * sizeof *t->old);
        if (!t->old)
            return -1;
        t->bucket = 1;
    }
    if (t->nold > 0 && t->old[t->nold - 1].count + it->count <= t->bucket) {
        t->old[t->nold - 1] = merged(&t->old[t->nold - 1], it);
        return 0;
    }
    if (t->nold == MS_NEST_BUCKETS) {
        for (size_t i = 0; i < MS_NEST_BUCKETS / 2; i++)
            t->old[i] = merged(&t->old[2 * i], &t->old[2 * i + 1]);
        t->nold = MS_NEST_BUCKETS / 2;
        t->bucket *= 2;
        if (t->old[t->nold - 1].count + it->count <= t->bucket) {
            t->old[t->nold - 1] = merged(&t->old[t->nold - 1], it);
            return 0;
        }
    }
    t->old[t->nold++] = *it;
    return 0;
}

_Static_assert((MS_NEST_EXACT & (MS_NEST_EXACT - 1)) == 0, "the window is circular: a power of two");

/* The window's interval i, oldest first. It grows to MS_NEST_EXACT before
 * its base first moves. */
static inline ms_nest_item *win_at(ms_nest_thread *t, size_t i)
{
    return &t->win[(t->wbase + i) & (MS_NEST_EXACT - 1)];
}

/* Room for one more interval at the window's top: when it is full, its
 * older half goes into the buckets at once, and its base moves past them. */
static int make_room(ms_nest_thread *t)
{
    if (t->wlen == MS_NEST_EXACT) {
        size_t half = MS_NEST_EXACT / 2;
        for (size_t i = 0; i < half; i++)
            if (to_buckets(t, win_at(t, i)) != 0)
                return -1;
        t->wbase = (t->wbase + half) & (MS_NEST_EXACT - 1);
        t->wlen -= half;
    }
    if (t->wlen < t->wcap)
        return 0;
    size_t cap = t->wcap ? t->wcap * 2 : 64;
    ms_nest_item *w = realloc(t->win, cap * sizeof *w);
    if (!w)
        return -1;
    t->win = w;
    t->wcap = cap;
    return 0;
}

static __attribute__((noinline)) int nest_event(ms_nest *n, uint32_t thread, uint64_t start, uint64_t end,
                                               uint64_t *excl);

int ms_nest_event(ms_nest *n, uint32_t thread, uint64_t start, uint64_t end, uint64_t *excl)
{
    /* Most often the event starts after the newest interval kept (it has no
     * children) and the window has room for it. */
    if (thread < n->nthreads) {
        ms_nest_thread *t = &n->threads[thread];
        if (t->has_last && end >= t->last_end && t->wlen > 0 && t->wlen < t->wcap) {
            const ms_nest_item *top = win_at(t, t->wlen - 1);
            if (top->start < start) {
                if (top->count > 1 && top->end > start)
                    n->inexact++;
                *excl = end - start;
                *win_at(t, t->wlen++) = (ms_nest_item){.start = start, .end = end, .dur = end - start, .count = 1};
                t->last_end = end;
                return 0;
            }
        }
    }
    return nest_event(n, thread, start, end, excl);
}

/* ms_nest_event, every case. */
static int nest_event(ms_nest *n, uint32_t thread, uint64_t start, uint64_t end, uint64_t *excl)
{
    uint64_t d = end - start;
    *excl = d;
    ms_nest_thread *t = thread_of(n, thread);
    if (!t)
        return -1;
    if (t->has_last && end < t->last_end) {
        n->unordered++;
        return 0;
    }
    /* Every interval kept ended before this event: those that start at or
     * after its start lie inside it. */
    uint64_t children = 0;
    for (;;) {
        ms_nest_item *top;
        if (t->wlen > 0)
            top = win_at(t, t->wlen - 1);
        else if (t->nold > 0)
            top = &t->old[t->nold - 1];
        else
            break;
        if (top->start < start) {
            if (top->count > 1 && top->end > start)
                n->inexact++;
            break;
        }
        children += top->dur;
        if (t->wlen > 0)
            t->wlen--;
        else
            t->nold--;
    }
    *excl = children < d ? d - children : 0;
    if (make_room(t) != 0)
        return -1;
    *win_at(t, t->wlen++) = (ms_nest_item){.start = start, .end = end, .dur = d, .count = 1};
    t->last_end = end;
    t->has_last = 1;
    return 0;
}
