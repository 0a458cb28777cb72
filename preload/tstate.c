/*
 * The slow halves of the hot path (tstate.h): a thread's first recorded
 * call (its state and ring, added to the registry), waiting for room in a
 * full ring, events out of order or across the ring's end; the control
 * records (communicators, files) and the semaphore that wakes the writer
 * thread. Nothing here writes the log.
 */
#include "tstate.h"

#include <errno.h>
#include <sched.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "clock.h"
#include "diag.h"

MS_HIDDEN _Atomic int ms_active;
MS_HIDDEN __thread ms_thread *ms_tls_thread __attribute__((tls_model("initial-exec")));

static __thread int tls_attach_failed __attribute__((tls_model("initial-exec")));

static uint64_t ring_capacity;
static sem_t writer_wake;
static void (*on_attach)(ms_thread *t);

int ms_rings_setup(uint64_t capacity)
{
    ring_capacity = capacity;
    return sem_init(&writer_wake, 0, 0);
}

void ms_thread_on_attach(void (*hook)(ms_thread *t))
{
    on_attach = hook;
}

int ms_writer_wait(const struct timespec *deadline)
{
    int rc;
    while ((rc = sem_timedwait(&writer_wake, deadline)) != 0 && errno == EINTR)
        ;
    return rc;
}

void ms_writer_kick(ms_thread *t)
{
    (void)t;
    sem_post(&writer_wake);
}

/* ---- threads ---- */

/* A new thread state with its own index in the log; NULL (counted as
 * dropped, warned once) when there is no room. */
static ms_thread *thread_new(void)
{
    uint32_t idx = ms_registry_claim();
    size_t head = (sizeof(ms_thread) + 4095) & ~(size_t)4095;
    void *mem = MAP_FAILED;
    if (idx < MS_MAX_THREADS)
        mem = mmap(NULL, head + ring_capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) {
        ms_registry_add_dropped(1);
        if (idx >= MS_MAX_THREADS)
            ms_warn_once(MS_WARN_THREADS, "more than %u threads make MPI calls; calls of the others are counted as dropped",
                         MS_MAX_THREADS);
        else
            ms_warn_once(MS_WARN_MEMORY, "cannot map an event buffer of %llu KiB: %s",
                         (unsigned long long)(ring_capacity >> 10), strerror(errno));
        return NULL;
    }
    ms_thread *t = mem;
    t->ring = (uint8_t *)mem + head;
    t->capacity = ring_capacity;
    t->mask = ring_capacity - 1;
    t->index = idx;
    t->cursor = ms_now();
    uint8_t rec[MS_VARINT_MAX + 1];
    uint8_t *p = ms_rec_time(rec, t->cursor);
    ms_registry_put(idx, t);
    ms_append(t, rec, (size_t)(p - rec));
    return t;
}

ms_thread *ms_thread_attach(void)
{
    if (tls_attach_failed || !atomic_load(&ms_active)) {
        if (tls_attach_failed)
            ms_registry_add_dropped(1);
        return NULL;
    }
    ms_thread *t = thread_new();
    if (!t) {
        tls_attach_failed = 1;
        return NULL;
    }
    ms_tls_thread = t;
    if (on_attach)
        on_attach(t);
    return t;
}

ms_thread *ms_thread_create(void)
{
    return atomic_load(&ms_active) ? thread_new() : NULL;
}

/* ---- the ring's slow paths ---- */

/* The records of one stall: its region's definition (the first time), a
 * time record to its start, the event, a time record back to the cursor. */
#define STALL_RECORDS (MS_REGION_DEF_MAX + MS_ASIDE_MAX)

/* Append the stall [t0, t1] without moving the thread's time cursor; the
 * caller made room for STALL_RECORDS bytes. */
static void record_stall(ms_thread *t, uint64_t t0, uint64_t t1)
{
    if (!t->stall_defined) {
        t->stall_region = ms_region_define(t, MS_STALL_REGION, sizeof MS_STALL_REGION - 1);
        t->stall_defined = 1;
    }
    uint8_t rec[MS_ASIDE_MAX];
    uint8_t *p = ms_rec_aside(rec, t->stall_region, t0, t1, t->cursor);
    t->events++;
    ms_append(t, rec, (size_t)(p - rec));
}

void ms_ring_wait(ms_thread *t, uint64_t need)
{
    uint64_t want = need + STALL_RECORDS <= t->capacity ? need + STALL_RECORDS : need;
    uint64_t t0 = ms_now();
    int waited = 0;
    sem_post(&writer_wake);
    while (t->head_local + want - atomic_load_explicit(&t->tail, memory_order_acquire) > t->capacity) {
        if (!atomic_load(&ms_active)) {
            /* No writer any more (after stop, or in a forked child): what is
             * buffered can no longer be written; make room. */
            atomic_store(&t->tail, t->head_local);
            t->tail_seen = t->head_local;
            return;
        }
        waited = 1;
        sched_yield();
    }
    t->tail_seen = atomic_load_explicit(&t->tail, memory_order_acquire);
    if (waited && want != need)
        record_stall(t, t0, ms_now());
}

void ms_event_slow(ms_thread *t, uint32_t region, uint64_t t0, uint64_t t1)
{
    uint8_t rec[MS_EVENT_MAX + MS_VARINT_MAX + 1];
    uint8_t *p = rec;
    if (t0 < t->cursor)
        p = ms_rec_time(p, t0), t->cursor = t0;
    if (t1 < t0)
        t1 = t0;
    p = ms_rec_event(p, region, t0 - t->cursor, t1 - t0);
    t->cursor = t1;
    t->events++;
    ms_append(t, rec, (size_t)(p - rec));
}

void ms_event_pre_slow(ms_thread *t, const uint8_t *pre, size_t n, uint32_t region, uint64_t t0, uint64_t t1)
{
    /* The records come first, encoded against the cursor as it is; a time
     * record to go back in time follows them. */
    uint8_t ev[MS_EVENT_MAX + MS_VARINT_MAX + 1];
    uint8_t *e = ev;
    uint64_t cursor = t->cursor;
    if (t0 < cursor)
        e = ms_rec_time(e, t0), cursor = t0;
    if (t1 < t0)
        t1 = t0;
    e = ms_rec_event(e, region, t0 - cursor, t1 - t0);
    size_t len = n + (size_t)(e - ev);
    if (len + STALL_RECORDS > t->capacity) {
        /* More than the ring holds at once: the event alone. */
        ms_event_slow(t, region, t0, t1);
        return;
    }
    uint64_t h = t->head_local;
    if (!ms_ring_room(t, h, len)) {
        /* A stall's records come before the ones that belong to the event. */
        ms_ring_wait(t, len);
        h = t->head_local;
    }
    for (size_t i = 0; i < n; i++)
        t->ring[(h + i) & t->mask] = pre[i];
    for (size_t i = n; i < len; i++)
        t->ring[(h + i) & t->mask] = ev[i - n];
    t->cursor = t1;
    t->events++;
    ms_publish(t, h + len, len);
}

/* A control record of len bytes (at most the ring's capacity) into the
 * thread's ring. */
static void put_record(ms_thread *t, const uint8_t *rec, size_t len)
{
    /* ms_append copies at most capacity bytes at once in two pieces. */
    uint64_t h = t->head_local;
    if (h + len - atomic_load_explicit(&t->tail, memory_order_acquire) > t->capacity) {
        ms_ring_wait(t, len);
        h = t->head_local;
    }
    for (size_t i = 0; i < len; i++)
        t->ring[(h + i) & t->mask] = rec[i];
    t->head_local = h + len;
    atomic_store_explicit(&t->head, h + len, memory_order_release);
}

void ms_comm_define(ms_thread *t, int64_t id, const int *world_ranks, uint32_t n)
{
    size_t need = 3u * MS_VARINT_MAX + (size_t)n * 5u;
    if (need > t->capacity / 4)
        n = 0, need = 3u * MS_VARINT_MAX;
    uint8_t *rec = malloc(need);
    if (!rec)
        return;
    uint8_t *p = ms_rec_comm(rec, (uint64_t)id, world_ranks, n);
    put_record(t, rec, (size_t)(p - rec));
    free(rec);
}

void ms_comm_origin_define(ms_thread *t, int64_t id, uint32_t op, int64_t parent, uint64_t seq, int64_t region,
                           const int *dims, uint32_t ndims)
{
    uint8_t rec[MS_COMM_ORIGIN_REC_MAX];
    if (sizeof rec > t->capacity / 4)
        return;
    if (ndims > MS_MAX_COMM_DIMS)
        ndims = 0;
    uint8_t *p = ms_rec_comm_origin(rec, (uint64_t)id, op, parent, seq, region, dims, ndims);
    put_record(t, rec, (size_t)(p - rec));
}

void ms_comm_name_define(ms_thread *t, int64_t id, const char *name, size_t len)
{
    if (MS_COMM_NAME_REC_MAX > t->capacity / 4)
        return;
    uint8_t *rec = malloc(MS_COMM_NAME_REC_MAX);
    if (!rec)
        return;
    uint8_t *p = ms_rec_comm_name(rec, (uint64_t)id, name, len);
    put_record(t, rec, (size_t)(p - rec));
    free(rec);
}

void ms_file_define(ms_thread *t, uint32_t id, int64_t comm, const char *path, size_t len)
{
    if (MS_FILE_REC_MAX > t->capacity / 4)
        return;
    uint8_t *rec = malloc(MS_FILE_REC_MAX);
    if (!rec)
        return;
    uint8_t *p = ms_rec_file(rec, id, comm, path, len);
    put_record(t, rec, (size_t)(p - rec));
    free(rec);
}