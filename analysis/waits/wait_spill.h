/*
 * One rank's facts for the wait-state analysis as they are kept: on disk
 * (spill.h), sorted as the analysis reads them, never whole in memory.
 *
 *   ends   every message end and collective call, by entry (then the
 *          order they were made), each carrying what its match needs of
 *          the event it completes in: start, end, charge, region, thread
 *   lane   every thread's MPI calls, by thread, then start (the critical
 *          path follows the thread that waited or sent)
 *   user   every thread's user regions, by thread, then start, the
 *          enclosing first
 *
 * plus, in memory, the count of each thread's lane and user records (where
 * a thread's records start in the sorted file) and of collective calls per communicator (a
 * collective's group is complete when every rank that has that many has
 * come). Times and regions are the writer's (a log's tool clock and name
 * indices); the analysis moves them as its input says (waits.h).
 */
#ifndef MPISCOPE_WAIT_SPILL_H
#define MPISCOPE_WAIT_SPILL_H

#include <stddef.h>
#include <stdint.h>

#include "chan_index.h"
#include "wait_types.h"
#include "xsort.h"

enum ms_wx_end_kind {
    MS_WX_END_RECV = 0,
    MS_WX_END_SEND = 1,
    MS_WX_END_COLL = 2,
};

/* One message end or collective call. */
typedef struct ms_wx_end {
    int64_t entry;      /* ms_wx_msg.entry, ms_wx_coll.entry */
    int64_t comm;
    int64_t ev_start, ev_end;  /* of its event (when ev is not MS_WX_NONE) */
    uint32_t seq;       /* the order it was made in, among the rank's ends */
    uint32_t ev;        /* the event it completes in; MS_WX_NONE: not seen */
    uint32_t region;    /* that event's region */
    int32_t tag;        /* messages */
    int32_t other;      /* messages: the partner's world rank; collectives: the root's (-1: none) */
    uint16_t thread;    /* the event's thread */
    uint8_t kind;       /* enum ms_wx_end_kind */
    uint8_t sync;       /* sends: ms_wx_msg.sync; collectives: enum ms_wx_coll_class */
    uint8_t charge;     /* the event's */
    uint8_t pad[7];
} ms_wx_end;

/* A lane or user event. */
typedef struct ms_wx_span {
    int64_t start, end;
    uint32_t region;
    uint32_t ev;
    uint16_t thread;    /* the event's thread */
    uint8_t pad[6];
} ms_wx_span;

/* Records per thread of a lane or user sort. */
typedef struct ms_wx_thread_counts {
    uint64_t *n;           /* by thread index */
    size_t nthreads;       /* 1 + the highest thread seen (0: none) */
} ms_wx_thread_counts;

typedef struct ms_wx_spill {
    ms_xsort ends, lane, user;
    ms_wx_thread_counts lane_n, user_n;
    ms_chan_index comms;   /* communicator ids of collective calls */
    uint64_t *ncoll;       /* per id: the calls */
    size_t ncoll_cap;
    uint32_t nseq;         /* ends made (ms_wx_spill_seq) */
} ms_wx_spill;

void ms_wx_spill_init(ms_wx_spill *s);
void ms_wx_spill_free(ms_wx_spill *s);

/* The next sequence number of an end. */
static inline uint32_t ms_wx_spill_seq(ms_wx_spill *s)
{
    return s->nseq++;
}

/* Event ev (numbered by the writer, in the order made): MPI calls to the
 * lane, user regions to user. 0, or -1 (memory, disk). */
int ms_wx_spill_event(ms_wx_spill *s, uint32_t ev, const ms_wx_event *e);
/* Span x to the lane (is_mpi) or to user, counted for its thread. */
int ms_wx_spill_span(ms_wx_spill *s, int is_mpi, const ms_wx_span *x);
/* Where thread t's records start in the finished lane or user file, and
 * how many it has (0 past the threads seen). */
void ms_wx_thread_range(const ms_wx_thread_counts *c, size_t t, uint64_t *off, uint64_t *n);
int ms_wx_spill_end(ms_wx_spill *s, const ms_wx_end *x);
/* Everything written; the buffers freed. 0, or -1. */
int ms_wx_spill_finish(ms_wx_spill *s);

/* Whether lane or user event x comes before y: by thread, then start, the
 * enclosing first, then by event. */
int ms_wx_span_cmp(const void *a, const void *b);

#endif
