/*
 * Per-thread recording state and the interface collectors (pmpi/, cupti/,
 * likwid/) use to record. The hot path (ms_enter, ms_event, ms_leave) never
 * allocates, never takes a lock and never does I/O: it appends encoded
 * records to the thread's ring buffer, which the writer thread (writer.c)
 * drains into the log. Its slow halves (a thread's first call, a full ring,
 * time going back) and the control records are in tstate.c; the threads by
 * index are the registry's (registry.h).
 */
#ifndef MPISCOPE_TSTATE_H
#define MPISCOPE_TSTATE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <time.h>

#include "records.h"
#include "registry.h"

#define MS_LIKELY(x) __builtin_expect(!!(x), 1)
#define MS_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* For the few functions every recorded call runs. */
#define MS_HOT static inline __attribute__((always_inline))

/* Per-thread slots collectors ask for (ms_thread_slot, collector.h). */
#define MS_THREAD_SLOTS 8

/* The MPI call a thread is inside, copied as it begins (pmpi/call_record.h's
 * ms_call_begin), for the ending blocks (ending.h). */
typedef struct ms_in_call {
    uint64_t pc;                   /* the call's return address */
    int64_t comm;                  /* communicator id, -1: none */
    uint32_t op;                   /* enum ms_op */
    int32_t peer, tag, root;       /* -1: none */
    /* A completion call's requests (pmpi/requests.h's ms_call_begin_reqs):
     * how many it was given (0: none), the first ones' handle bits, and
     * where the caller's handles are. */
    uint32_t req_count, req_stride;
    uint64_t req_at;
    uint64_t reqs[MS_ENDING_REQS];
} ms_in_call;

struct ms_thread {
    /* Written by the owning thread only. */
    uint8_t *ring;                 /* capacity bytes, a power of two */
    uint64_t mask;
    uint64_t capacity;
    uint64_t head_local;           /* producer position */
    uint64_t tail_seen;            /* the writer's position when last read */
    uint64_t cursor;               /* time cursor of the stream (ns) */
    uint64_t events;
    uint32_t index;                /* thread index in the log */
    uint32_t next_region;          /* next thread-local region id */
    int busy;                      /* re-entry guard */
    int stall_defined;             /* stall_region names MS_STALL_REGION */
    uint32_t stall_region;
    void *slot[MS_THREAD_SLOTS];   /* the collectors' per-thread state */
    /* Shared with the writer thread. */
    _Alignas(64) _Atomic uint64_t head;   /* published: whole records before it */
    _Alignas(64) _Atomic uint64_t tail;   /* consumed by the writer */
    /* Written by the owning thread, read by the writer thread and signal
     * handlers: the log clock when the MPI call in_call began (0: in none). */
    _Alignas(64) _Atomic uint64_t in_since;
    ms_in_call in_call;
};

/* Recording is on between a successful start and finalize. */
extern MS_HIDDEN _Atomic int ms_active;
extern MS_HIDDEN __thread ms_thread *ms_tls_thread __attribute__((tls_model("initial-exec")));

/* The calling thread's state, made at its first recorded call: a new
 * thread of the log (registry.h), with the hook of ms_thread_on_attach run
 * on it; NULL (its calls counted as dropped) when there is no room. */
MS_HIDDEN ms_thread *ms_thread_attach(void);
/* A thread of the log that belongs to no calling thread (a GPU stream
 * written by a collector's own thread); NULL when recording is off or there
 * is no room. Its records are appended by one thread at a time. */
MS_HIDDEN ms_thread *ms_thread_create(void);
/* Wait until need more bytes fit in the ring. A wait is the tool's, not
 * the application's: it is recorded as an event of MS_STALL_REGION, in
 * records that fit in the room waited for and leave the time cursor as it
 * was (a record encoded before the wait stays valid); they move head_local. */
MS_HIDDEN void ms_ring_wait(ms_thread *t, uint64_t need);
#define MS_STALL_REGION "mpiscope:ring_wait"
/* Wake the writer thread. */
MS_HIDDEN void ms_writer_kick(ms_thread *t);

/* For the core. Before recording starts: the capacity of the ring of each
 * thread from now on (a power of two), and the writer's wake-up semaphore;
 * 0, or -1 when the semaphore cannot be made. */
MS_HIDDEN int ms_rings_setup(uint64_t ring_capacity);
/* What runs on each thread ms_thread_attach makes (the collectors' thread
 * hooks, collector_list.h), set once at load. */
MS_HIDDEN void ms_thread_on_attach(void (*hook)(ms_thread *t));
/* The writer thread: wait until a thread wakes it (ms_writer_kick) or the
 * deadline (CLOCK_REALTIME) passes. 0 when woken, else -1. */
MS_HIDDEN int ms_writer_wait(const struct timespec *deadline);

/* Begin recording a call: the calling thread's state, or NULL when this call
 * is not to be recorded (recording off, or a call made from inside another
 * recorded call or by the tool itself). */
MS_HOT ms_thread *ms_enter_on(void);

/* Whether recording is on: the first test of ms_enter, which the generated
 * wrappers make alone, first, so that a call they pass on unrecorded goes
 * on as it came (a jump, every argument's register untouched: what a
 * program of another MPI, whose handles are of other types, needs). */
MS_HOT int ms_recording(void)
{
    return MS_LIKELY(atomic_load_explicit(&ms_active, memory_order_relaxed) != 0);
}

MS_HOT ms_thread *ms_enter(void)
{
    if (MS_UNLIKELY(!ms_recording()))
        return NULL;
    return ms_enter_on();
}

/* ms_enter once ms_recording said yes. */
MS_HOT ms_thread *ms_enter_on(void)
{
    ms_thread *t = ms_tls_thread;
    if (MS_UNLIKELY(!t)) {
        t = ms_thread_attach();
        if (!t)
            return NULL;
    }
    if (t->busy)
        return NULL;
    t->busy = 1;
    return t;
}

MS_HOT void ms_leave(ms_thread *t)
{
    atomic_store_explicit(&t->in_since, 0, memory_order_relaxed);
    t->busy = 0;
}

/* Whether n more bytes fit in the ring; reads the writer's position only
 * when the last one read does not leave room. */
MS_HOT int ms_ring_room(ms_thread *t, uint64_t h, size_t n)
{
    if (MS_LIKELY(h + n - t->tail_seen <= t->capacity))
        return 1;
    t->tail_seen = atomic_load_explicit(&t->tail, memory_order_acquire);
    return h + n - t->tail_seen <= t->capacity;
}

/* Publish the records written up to h; wake the writer each time the ring
 * fills past another half. */
MS_HOT void ms_publish(ms_thread *t, uint64_t h, size_t n)
{
    t->head_local = h;
    atomic_store_explicit(&t->head, h, memory_order_release);
    if (MS_UNLIKELY((h & (t->mask >> 1)) < n))
        ms_writer_kick(t);
}

/* Append one encoded record (at most MS_REGION_DEF_MAX bytes). */
static inline void ms_append(ms_thread *t, const uint8_t *rec, size_t n)
{
    uint64_t h = t->head_local;
    if (MS_UNLIKELY(!ms_ring_room(t, h, n))) {
        ms_ring_wait(t, n);
        h = t->head_local; /* after the stall's own records */
    }
    uint64_t off = h & t->mask;
    uint64_t first = t->capacity - off;
    if (MS_LIKELY(first >= n)) {
        memcpy(t->ring + off, rec, n);
    } else {
        memcpy(t->ring + off, rec, first);
        memcpy(t->ring, rec + first, n - first);
    }
    ms_publish(t, h + n, n);
}

MS_HIDDEN void ms_event_slow(ms_thread *t, uint32_t region, uint64_t t0, uint64_t t1);

/* Record one event of region `region` from t0 to t1 (tool clock). The usual
 * case encodes straight into the ring; the rest (ring wrap or full, time
 * going back) takes ms_event_slow. */
MS_HOT void ms_event(ms_thread *t, uint32_t region, uint64_t t0, uint64_t t1)
{
    uint64_t h = t->head_local;
    uint64_t off = h & t->mask;
    if (MS_LIKELY(t0 >= t->cursor && t1 >= t0 && t->capacity - off >= MS_EVENT_MAX &&
                  ms_ring_room(t, h, MS_EVENT_MAX))) {
        uint8_t *p = t->ring + off;
        size_t n = (size_t)(ms_rec_event(p, region, t0 - t->cursor, t1 - t0) - p);
        t->cursor = t1;
        t->events++;
        ms_publish(t, h + n, n);
        return;
    }
    ms_event_slow(t, region, t0, t1);
}

MS_HIDDEN void ms_event_pre_slow(ms_thread *t, const uint8_t *pre, size_t n, uint32_t region, uint64_t t0,
                                 uint64_t t1);

/* memcpy for the few records of one call: 8 to 32 bytes (one or two
 * message records) in overlapping words, without a call into libc. */
static inline void ms_copy_records(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (MS_LIKELY(n >= 8 && n <= 32)) {
        uint64_t a, b, c, d;
        memcpy(&a, src, 8);
        memcpy(&d, src + n - 8, 8);
        if (n > 16) {
            memcpy(&b, src + 8, 8);
            memcpy(&c, src + n - 16, 8);
            memcpy(dst + 8, &b, 8);
            memcpy(dst + n - 16, &c, 8);
        }
        memcpy(dst, &a, 8);
        memcpy(dst + n - 8, &d, 8);
        return;
    }
    memcpy(dst, src, n);
}

/* Record one event, as ms_event does, right after the n bytes of records
 * `pre` that belong to it (message records, docs/FORMAT.md), encoded
 * against the thread's time cursor as it is now: both are published at
 * once, so that no other record comes between them and the writer never
 * sees the one without the other. n is at most a quarter of the ring. */
MS_HOT void ms_event_pre(ms_thread *t, const uint8_t *pre, size_t n, uint32_t region, uint64_t t0, uint64_t t1)
{
    uint64_t h = t->head_local;
    uint64_t off = h & t->mask;
    if (MS_LIKELY(t0 >= t->cursor && t1 >= t0 && t->capacity - off >= n + MS_EVENT_MAX &&
                  ms_ring_room(t, h, n + MS_EVENT_MAX))) {
        uint8_t *p = t->ring + off;
        ms_copy_records(p, pre, n);
        size_t k = (size_t)(ms_rec_event(p + n, region, t0 - t->cursor, t1 - t0) - p);
        t->cursor = t1;
        t->events++;
        ms_publish(t, h + k, k);
        return;
    }
    ms_event_pre_slow(t, pre, n, region, t0, t1);
}

/* Define a new thread-local region id for `name` (not interned: collectors
 * cache ids themselves; defining a name twice is allowed). */
static inline uint32_t ms_region_define(ms_thread *t, const char *name, size_t len)
{
    uint8_t rec[MS_REGION_DEF_MAX];
    uint32_t id = t->next_region++;
    uint8_t *p = ms_rec_region(rec, id, name, len);
    ms_append(t, rec, (size_t)(p - rec));
    return id;
}

/* Record a communicator's members (world ranks in comm rank order). Not for
 * the hot path: it allocates. Member lists too long for the ring buffer are
 * written without members. */
MS_HIDDEN void ms_comm_define(ms_thread *t, int64_t id, const int *world_ranks, uint32_t n);

/* Record how a communicator was made and the name it was given
 * (version 8; records.h). Not for the hot path. */
MS_HIDDEN void ms_comm_origin_define(ms_thread *t, int64_t id, uint32_t op, int64_t parent, uint64_t seq,
                                     int64_t region, const int *dims, uint32_t ndims);
MS_HIDDEN void ms_comm_name_define(ms_thread *t, int64_t id, const char *name, size_t len);

/* Record a file of MPI-IO (a file record): its id, the communicator it was
 * opened on (-1: none) and its path. Not for the hot path. */
MS_HIDDEN void ms_file_define(ms_thread *t, uint32_t id, int64_t comm, const char *path, size_t len);

#endif
