/*
 * Exclusive time: an event's duration minus the durations of its direct
 * children, the events of the same thread (of one rank) that lie inside it
 * and inside no other of its children.
 *
 * Events of a thread arrive at their end (the runtime writes each one when
 * it ends), so a parent comes after its children. Each thread keeps a stack
 * of completed intervals not yet claimed by a parent, sorted by start; an
 * event pops those that start at or after its start (they lie inside it:
 * its direct children, whose own children they popped before) and is
 * pushed itself: O(1) amortized per event.
 *
 * Memory is bounded (about 1 MiB per thread at most): the newest (between
 * MS_NEST_EXACT / 2 and MS_NEST_EXACT) intervals are kept as they are;
 * older ones go, half a window at a time, into at most
 * MS_NEST_BUCKETS buckets of consecutive intervals (earliest start, latest
 * end, summed durations) that each stand for at most `bucket` events; when
 * all buckets are taken, neighbours are merged and `bucket` doubles. A
 * parent claims a bucket only whole. So the result is exact while a thread
 * has fewer than MS_NEST_EXACT + MS_NEST_BUCKETS unclaimed intervals, and
 * always for parents whose children are among the newest MS_NEST_EXACT / 2.
 * Otherwise a parent that starts inside a bucket misses the part of it that
 * is its own (at most `bucket` events, about 2 / MS_NEST_BUCKETS of the
 * unclaimed ones), and the parent's parent counts that part twice (an
 * exclusive time never goes below zero): such parents are counted in
 * `inexact`.
 *
 * An event that ends before the previous event of its thread (not written
 * at its end, e.g. by a collector that delivers them late) is neither a
 * parent nor a child: its exclusive time is its duration, and it is
 * counted in `unordered`.
 */
#ifndef MPISCOPE_NESTING_H
#define MPISCOPE_NESTING_H

#include <stddef.h>
#include <stdint.h>

#define MS_NEST_EXACT (1u << 14)     /* a power of two */
#define MS_NEST_BUCKETS (1u << 14)   /* an even number */

typedef struct ms_nest_item {
    uint64_t start, end;
    uint64_t dur;                    /* summed durations of its events */
    uint64_t count;                  /* events it stands for */
} ms_nest_item;

typedef struct ms_nest_thread {
    ms_nest_item *win;               /* the newest, oldest first, from wbase on, */
    size_t wlen, wcap, wbase;        /* circular once wcap is MS_NEST_EXACT */
    ms_nest_item *old;               /* buckets, oldest first */
    size_t nold;
    uint64_t bucket;                 /* most events a bucket stands for */
    uint64_t last_end;
    int has_last;
} ms_nest_thread;

typedef struct ms_nest {
    ms_nest_thread *threads;         /* by thread index */
    size_t nthreads;
    uint64_t inexact;
    uint64_t unordered;
} ms_nest;

void ms_nest_init(ms_nest *n);
void ms_nest_free(ms_nest *n);

/* One event of `thread` from start to end (end >= start): sets *excl to
 * its exclusive time. Returns 0, or -1 when out of memory. */
int ms_nest_event(ms_nest *n, uint32_t thread, uint64_t start, uint64_t end, uint64_t *excl);

#endif
