/*
 * The recording core: thread registry, ring-buffer waits, the writer thread,
 * start and stop, constructor and destructor. MPI-free; the MPI_Init and
 * MPI_Finalize hooks (lifecycle.c) call in here.
 */
#include "runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "clock_skew.h"
#include "collector_list.h"
#include "config.h"
#include "diag.h"
#include "fallback.h"
#include "log_file.h"
#include "signals.h"
#include "slow_writer.h"
#include "summary.h"
#include "summary_log.h"

/* zstd level of the log: 1 compresses these varint streams about 20 % faster
 * than 3 (the writer shares the cores with the ranks) for logs about 10 %
 * larger, still under 1 byte per event on ping-pong and halo traces. */
#define LOG_LEVEL 1

MS_HIDDEN _Atomic int ms_active;
MS_HIDDEN __thread ms_thread *ms_tls_thread __attribute__((tls_model("initial-exec")));

static __thread int tls_attach_failed __attribute__((tls_model("initial-exec")));

static ms_thread *_Atomic threads[MS_MAX_THREADS];
/* Threads that asked for a buffer (including those refused one). */
_Atomic uint32_t ms_nthreads;
static _Atomic uint64_t dropped;
static uint64_t ring_capacity;

static ms_log log_;
static uint8_t *staging;
static pthread_t writer;
static sem_t writer_wake;
static _Atomic int writer_stop;
static int started, stopped, forked_child, not_allowed;
static pthread_mutex_t lifecycle_lock = PTHREAD_MUTEX_INITIALIZER;

/* Who writes the log now: 0 nobody, else a kernel thread id. The writer
 * thread (one block at a time), ms_runtime_stop and a signal handler take
 * turns; see log_take. Once log_done is set nothing more is written. */
static _Atomic int log_owner;
static _Atomic int log_done;
/* The process that opened the log (0 before start): a forked child, which
 * inherits the handlers and the descriptor, never writes it. */
static _Atomic pid_t log_pid;
/* How long a signal handler waits for another thread to finish its block. */
#define LOG_WAIT_MS 3000
/* Summary mode (summary.h, summary_log.h): the aggregates, and what a
 * rewrite of the log needs; NULL in trace mode. */
static ms_sum *summary;
static ms_summary_log summary_log = {.dirfd = -1};
/* Summary mode: ns between periodic snapshots (ms_summary_snapshot_ns); a
 * ring half full still gets its snapshot at once. */
static uint64_t snapshot_ns;
/* Both clocks at load, to estimate the counter's rate by start. */
static uint64_t load_ticks, load_mono;

/* ---- threads ---- */

/* A new thread state with its own index in the log; NULL (counted as
 * dropped, warned once) when there is no room. */
static ms_thread *thread_new(void)
{
    uint32_t idx = atomic_fetch_add(&ms_nthreads, 1);
    size_t head = (sizeof(ms_thread) + 4095) & ~(size_t)4095;
    void *mem = MAP_FAILED;
    if (idx < MS_MAX_THREADS)
        mem = mmap(NULL, head + ring_capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) {
        atomic_fetch_add(&dropped, 1);
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
    atomic_store_explicit(&threads[idx], t, memory_order_release);
    ms_append(t, rec, (size_t)(p - rec));
    return t;
}

ms_thread *ms_thread_attach(void)
{
    if (tls_attach_failed || !atomic_load(&ms_active)) {
        if (tls_attach_failed)
            atomic_fetch_add(&dropped, 1);
        return NULL;
    }
    ms_thread *t = thread_new();
    if (!t) {
        tls_attach_failed = 1;
        return NULL;
    }
    ms_tls_thread = t;
    ms_collectors_thread_attach(t);
    return t;
}

ms_thread *ms_thread_create(void)
{
    return atomic_load(&ms_active) ? thread_new() : NULL;
}

void ms_writer_kick(ms_thread *t)
{
    (void)t;
    sem_post(&writer_wake);
}

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

void ms_comm_define(ms_thread *t, int64_t id, const int *world_ranks, uint32_t n)
{
    size_t need = 3u * MS_VARINT_MAX + (size_t)n * 5u;
    if (need > t->capacity / 4)
        n = 0, need = 3u * MS_VARINT_MAX;
    uint8_t *rec = malloc(need);
    if (!rec)
        return;
    uint8_t *p = ms_rec_comm(rec, (uint64_t)id, world_ranks, n);
    size_t len = (size_t)(p - rec);
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
    free(rec);
}

/* ---- writer ---- */

static void pause_ms(void)
{
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
}

/* Take the log for writing. wait_ms < 0: wait as long as another thread
 * holds it. Returns 0 when taken and still open; -1 when it is closed, held
 * by the calling thread itself (a signal that interrupted its writing), or
 * still held after wait_ms. Async-signal-safe. */
static int log_take(int wait_ms)
{
    int me = (int)syscall(SYS_gettid);
    for (int waited = 0;; waited++) {
        if (atomic_load(&log_done))
            return -1;
        int owner = 0;
        if (atomic_compare_exchange_strong(&log_owner, &owner, me)) {
            if (!atomic_load(&log_done))
                return 0;
            atomic_store(&log_owner, 0);
            return -1;
        }
        if (owner == me || (wait_ms >= 0 && waited >= wait_ms))
            return -1;
        pause_ms();
    }
}

static void log_give(void)
{
    atomic_store(&log_owner, 0);
}

static void warn_write(int quiet)
{
    int e = log_.saved_errno ? log_.saved_errno : errno;
    if (quiet)
        return;
    if (ms_log_no_room(e))
        ms_warn_once(MS_WARN_FULL, "the log's file system has no room (%s): the calls that do not fit are "
                     "counted in a summary written at the end, and the trace goes on when room is freed",
                     strerror(e));
    else
        ms_warn_once(MS_WARN_WRITE, "writing the log failed (%s); events from now on are lost, the run goes on",
                     strerror(e));
}

/* Copy what thread t has published and not yet handed over into staging:
 * its length (0: nothing), and in *head the position to hand over to. */
static size_t stage_thread(ms_thread *t, uint64_t *head)
{
    uint64_t h = atomic_load_explicit(&t->head, memory_order_acquire);
    uint64_t tl = atomic_load_explicit(&t->tail, memory_order_relaxed);
    *head = h;
    if (h == tl)
        return 0;
    size_t n = (size_t)(h - tl);
    size_t off = (size_t)(tl & t->mask);
    size_t first = t->capacity - off < n ? t->capacity - off : n;
    memcpy(staging, t->ring + off, first);
    memcpy(staging + first, t->ring, n - first);
    return n;
}

/* The caller holds the log. quiet: in a signal handler, print nothing. */
static void drain_thread(ms_thread *t, int quiet)
{
    uint64_t h;
    size_t n = stage_thread(t, &h);
    if (n == 0)
        return;
    uint64_t cursor;
    if (summary && ms_sum_cursor(summary, t->index, &cursor) == 0) {
        /* After a snapshot: the thread's stream goes on from the time the
         * snapshot's events end (the time records went into it). */
        uint8_t rec[MS_VARINT_MAX + 1];
        uint8_t *p = ms_rec_time(rec, cursor);
        if (ms_log_write_block(&log_, MS_BLOCK_DATA, t->index, rec, (size_t)(p - rec)) != 0)
            warn_write(quiet);
    }
    if (summary) {
        if (ms_log_write_block(&log_, MS_BLOCK_DATA, t->index, staging, n) != 0)
            warn_write(quiet);
    } else {
        /* What does not fit is folded (fallback.h), or lost in a signal
         * handler. */
        int folded = ms_fb_folded();
        uint64_t lost = ms_fb_write(&log_, t->index, staging, n, quiet);
        if (lost)
            atomic_fetch_add(&dropped, lost);
        if (lost || (!folded && ms_fb_folded()))
            warn_write(quiet);
    }
    atomic_store_explicit(&t->tail, h, memory_order_release);
}

/* Before the data of each flush: a sample of the clocks, taken after every
 * event about to be written, so readers interpolate instead of guessing. */
static void write_clock_sample(int quiet)
{
    ms_clock_sample cs;
    uint64_t mono = ms_mono_ns();
    cs.mono_ns = ms_skew_mono(mono);
    cs.ticks = ms_now();
    cs.realtime_ns = ms_skew_realtime(ms_realtime_ns(), mono);
    if (ms_log_write_block(&log_, MS_BLOCK_CLOCK, 0, &cs, sizeof cs) != 0)
        warn_write(quiet);
}

/* Write every thread's published records. each_block: take the log for
 * each block (the writer thread); else the caller holds it. Returns -1 when
 * the log was closed meanwhile. */
static int drain_all(int each_block, int quiet)
{
    uint32_t n = atomic_load(&ms_nthreads);
    if (n > MS_MAX_THREADS)
        n = MS_MAX_THREADS;
    int sampled = 0;
    for (uint32_t i = 0; i < n; i++) {
        ms_thread *t = atomic_load_explicit(&threads[i], memory_order_acquire);
        if (!t || atomic_load_explicit(&t->head, memory_order_acquire) ==
                      atomic_load_explicit(&t->tail, memory_order_relaxed))
            continue;
        if (each_block)
            ms_slow_writer_pause(); /* test-only (slow_writer.h) */
        if (each_block && log_take(-1) != 0)
            return -1;
        if (!sampled++)
            write_clock_sample(quiet);
        drain_thread(t, quiet);
        if (each_block)
            log_give();
    }
    return 0;
}

/* The end record as of now. Async-signal-safe. */
static void fill_end(ms_end_record *end, uint64_t finalize_start_ns)
{
    memset(end, 0, sizeof *end);
    end->finalize_start_ns = finalize_start_ns;
    uint32_t n = atomic_load(&ms_nthreads);
    if (n > MS_MAX_THREADS)
        n = MS_MAX_THREADS;
    for (uint32_t i = 0; i < n; i++) {
        ms_thread *t = atomic_load(&threads[i]);
        if (t) {
            end->events += t->events;
            end->nthreads++;
        }
    }
    end->dropped = atomic_load(&dropped);
    end->flags = finalize_start_ns ? MS_END_FINALIZED : 0;
    end->end_ns = ms_skew_mono(ms_mono_ns());
    end->end_ticks = ms_now();
}

/* Summary mode: fold what every thread has published into the aggregates
 * (the ring space is then free); returns whether there was any. The caller
 * holds the log, and writes the snapshot (summary_write) before giving it
 * back, so that the file always holds exactly the events consumed from the
 * rings: a signal handler that takes the log next appends the rest as
 * events. */
static int summary_fold(void)
{
    int folded = 0;
    uint32_t n = atomic_load(&ms_nthreads);
    if (n > MS_MAX_THREADS)
        n = MS_MAX_THREADS;
    for (uint32_t i = 0; i < n; i++) {
        ms_thread *t = atomic_load_explicit(&threads[i], memory_order_acquire);
        if (!t)
            continue;
        uint64_t h;
        size_t len = stage_thread(t, &h);
        if (len == 0)
            continue;
        uint64_t lost = ms_sum_consume(summary, t->index, staging, len);
        if (lost) {
            atomic_fetch_add(&dropped, lost);
            ms_warn_once(MS_WARN_MEMORY, "out of memory while summarizing; %llu calls are counted as dropped",
                         (unsigned long long)lost);
        }
        atomic_store_explicit(&t->tail, h, memory_order_release);
        folded = 1;
    }
    return folded;
}

/* Replace the log by the snapshot; with the end record, which closes it. */
static void summary_write(const ms_end_record *end)
{
    ms_clock_sample cs;
    cs.mono_ns = ms_mono_ns();
    cs.ticks = ms_now();
    cs.realtime_ns = ms_realtime_ns();
    if (ms_summary_log_write(&summary_log, &log_, summary, staging, &cs, end) != 0)
        ms_warn_once(MS_WARN_WRITE, "writing the summary log failed (%s); the log keeps its previous snapshot",
                     strerror(errno));
}

/* Trace mode, the caller holding the log: the tool's wait from t0 to now
 * (the last flush, at the end or in a signal handler) as an event of `name`
 * on the calling thread, in a block of its own after that thread's data.
 * Async-signal-safe. */
static void write_flush_stall(const char *name, size_t len, uint64_t t0, int quiet)
{
    ms_thread *t = ms_tls_thread;
    if (!t || summary)
        return;
    uint8_t rec[MS_REGION_DEF_MAX + MS_ASIDE_MAX];
    uint32_t id = t->next_region++;
    uint8_t *p = ms_rec_region(rec, id, name, len);
    p = ms_rec_aside(p, id, t0, ms_now(), t->cursor);
    t->events++;
    uint64_t lost = ms_fb_write(&log_, t->index, rec, (size_t)(p - rec), quiet);
    if (lost)
        atomic_fetch_add(&dropped, lost);
}
#define FLUSH_STALL(name, t0, quiet) write_flush_stall(name, sizeof name - 1, t0, quiet)

void ms_runtime_flush_from_signal(int close_log)
{
    pid_t pid = atomic_load(&log_pid);
    if (!pid || pid != getpid())
        return;
    uint64_t t0 = ms_now();
    if (log_take(LOG_WAIT_MS) != 0)
        return;
    /* Recording stays on while draining: a thread whose buffer is full
     * waits for room instead of overwriting what is being copied. */
    drain_all(0, 1);
    atomic_store(&ms_active, 0);
    FLUSH_STALL("mpiscope:signal_flush", t0, 1);
    if (close_log) {
        ms_end_record end;
        fill_end(&end, 0);
        ms_log_finish(&log_, &end);
    }
    atomic_store(&log_done, 1);
    log_give();
}

/* The log clock's rate, from the clocks at load and now; spins briefly when
 * too little time has passed for a good estimate. */
static double ticks_per_ns(uint64_t ticks_now, uint64_t mono_now)
{
    if (!ms_clock_tsc)
        return 1.0;
    while (mono_now - load_mono < 2000000u) {
        mono_now = ms_mono_ns();
        ticks_now = ms_now();
    }
    return (double)(ticks_now - load_ticks) / (double)(mono_now - load_mono) / ms_skew_rate();
}

static void *writer_main(void *arg)
{
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    uint64_t last_snapshot = ms_mono_ns();
    while (!atomic_load(&writer_stop)) {
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        uint64_t ns = (uint64_t)deadline.tv_nsec + (uint64_t)ms_cfg.flush_ms * 1000000u;
        deadline.tv_sec += (time_t)(ns / 1000000000u);
        deadline.tv_nsec = (long)(ns % 1000000000u);
        int rc;
        while ((rc = sem_timedwait(&writer_wake, &deadline)) != 0 && errno == EINTR)
            ;
        if (!summary) {
            drain_all(1, 0);
            continue;
        }
        /* Woken by a thread (ring half full, or stop), or the snapshot
         * interval is over. */
        uint64_t now = ms_mono_ns();
        if (rc != 0 && now - last_snapshot < snapshot_ns)
            continue;
        last_snapshot = now;
        if (log_take(-1) == 0) {
            /* Nothing new: the log already holds this snapshot. */
            if (summary_fold())
                summary_write(NULL);
            log_give();
        }
    }
    return NULL;
}

/* ---- start and stop ---- */

static uint64_t pow2_at_least(uint64_t x)
{
    uint64_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

static void read_argv0(char *buf, size_t cap)
{
    buf[0] = 0;
    FILE *f = fopen("/proc/self/cmdline", "re");
    if (!f)
        return;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
}

/* Create the directory if missing (mode 0777 less the umask) and open it,
 * refusing a symbolic link or anything else in its place. Returns a
 * descriptor or -1 with errno set. */
static int open_dir(const char *dir)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    if (lstat(dir, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = S_ISLNK(st.st_mode) ? ELOOP : ENOTDIR;
        return -1;
    }
    return open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int ms_runtime_start(const ms_start_info *info)
{
    pthread_mutex_lock(&lifecycle_lock);
    int rc = -1;
    if (started || !ms_runtime_allowed())
        goto out;
    ring_capacity = pow2_at_least((uint64_t)ms_cfg.buffer_kb * 1024u);
    int dirfd = open_dir(info->dir);
    if (dirfd < 0) {
        ms_warn_once(MS_WARN_DIR, "cannot create the log directory \"%s\" (%s); nothing is recorded",
                     info->dir, strerror(errno));
        goto out;
    }
    char name[32], path[sizeof ms_cfg.dir + 32];
    snprintf(name, sizeof name, "rank-%06d.zst", info->rank);
    snprintf(path, sizeof path, "%s/%s", info->dir, name);
    int open_rc = ms_log_open_at(&log_, dirfd, name, ring_capacity, LOG_LEVEL);
    int open_errno = errno;
    if (open_rc != 0) {
        close(dirfd);
        ms_warn_once(MS_WARN_OPEN, "cannot create the log \"%s\" (%s); nothing is recorded", path,
                     strerror(open_errno));
        goto out;
    }
    staging = malloc(ring_capacity);
    if (!staging || sem_init(&writer_wake, 0, 0) != 0) {
        ms_warn_once(MS_WARN_MEMORY, "out of memory at start; nothing is recorded");
        close(dirfd);
        goto fail;
    }

    ms_file_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MS_FILE_MAGIC, 8);
    h.version = MS_FORMAT_VERSION;
    h.endian = MS_ENDIAN_MARK;
    h.rank = info->rank;
    h.size = info->size;
    h.pid = (int64_t)getpid();
    ms_skew_setup(info->rank);
    ms_slow_writer_setup();
    uint64_t mono_ref = ms_mono_ns();
    uint64_t ticks_ref = ms_now();
    h.realtime_ref_ns = ms_skew_realtime(ms_realtime_ns(), mono_ref);
    h.clock_ref_ns = ms_skew_mono(mono_ref);
    /* A skewed CLOCK_MONOTONIC log clock is no longer the reference clock:
     * it is described as a counter, mapped through the (skewed) samples. */
    ms_clock_info clock = {
        .kind = ms_clock_tsc || ms_skew_on ? MS_CLOCK_TSC : MS_CLOCK_NS,
        .ticks_ref = ticks_ref,
        .ticks_per_ns = ms_clock_tsc ? ticks_per_ns(ticks_ref, mono_ref) : 1.0 / ms_skew_rate(),
    };
    h.init_start_ns = info->init_start_ns;
    h.init_end_ns = info->init_end_ns;
    h.mode = (uint32_t)ms_cfg.mode;
    char host[256] = "", argv0[512], s_host[300], s_lib[600], s_argv0[600], s_dir[sizeof ms_cfg.dir + 16],
         s_run[48];
    gethostname(host, sizeof host - 1);
    read_argv0(argv0, sizeof argv0);
    snprintf(s_host, sizeof s_host, "host=%s", host);
    snprintf(s_lib, sizeof s_lib, "mpi_library=%.500s", info->mpi_library ? info->mpi_library : "");
    snprintf(s_argv0, sizeof s_argv0, "argv0=%s", argv0);
    snprintf(s_dir, sizeof s_dir, "run_dir=%s", info->dir);
    snprintf(s_run, sizeof s_run, "run=%016llx", (unsigned long long)info->run_id);
    const char *strings[] = {s_host, s_lib, s_argv0, s_dir, ms_clock_tsc ? "clock=TSC" : "clock=CLOCK_MONOTONIC", s_run};
    /* On a nearly full disk, room another rank's reserve takes for a moment
     * (fallback.h) may come back: a few tries. */
    int header_rc = -1;
    for (int try = 0; try < 5; try++) {
        header_rc = ms_log_write_header(&log_, &h, &clock, strings, sizeof strings / sizeof strings[0]);
        if (header_rc == 0 || !ms_log_no_room(errno))
            break;
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    if (header_rc != 0) {
        ms_warn_once(MS_WARN_WRITE, "cannot write the log \"%s\" (%s); nothing is recorded", path, strerror(errno));
        /* No log rather than one without its header. */
        unlinkat(dirfd, name, 0);
        close(dirfd);
        goto fail;
    }
    ms_sum_clock sc = {.ticks = ms_clock_tsc, .ticks_ref = ticks_ref, .ns_ref = h.clock_ref_ns,
                       .ticks_per_ns = clock.ticks_per_ns};
    if (ms_cfg.mode != MS_MODE_SUMMARY && ms_fb_init(&sc, info->init_end_ns, ring_capacity, dirfd, name) != 0)
        ms_warn_once(MS_WARN_MEMORY, "out of memory at start: on a full disk, calls that do not fit would be lost");
    if (ms_cfg.mode == MS_MODE_SUMMARY) {
        snapshot_ns = ms_summary_snapshot_ns(ms_cfg.flush_ms, info->size);
        summary = ms_sum_new(&sc, info->init_end_ns, ring_capacity);
        if (!summary || ms_summary_log_init(&summary_log, &log_, dirfd, name) != 0) {
            ms_warn_once(MS_WARN_MEMORY, "cannot start summary mode (%s); nothing is recorded", strerror(errno));
            close(dirfd);
            goto fail;
        }
    }
    close(dirfd);
    atomic_store(&writer_stop, 0);
    atomic_store(&log_done, 0);
    atomic_store(&ms_active, 1);
    if (pthread_create(&writer, NULL, writer_main, NULL) != 0) {
        atomic_store(&ms_active, 0);
        ms_warn_once(MS_WARN_WRITER, "cannot start the writer thread; nothing is recorded");
        goto fail;
    }
    started = 1;
    atomic_store(&log_pid, getpid());
    ms_signals_install();
    ms_collectors_start();
    rc = 0;
    goto out;
fail:
    ms_fb_free();
    ms_log_close(&log_, NULL);
    free(staging);
    staging = NULL;
    ms_sum_free(summary);
    summary = NULL;
    ms_summary_log_free(&summary_log);
out:
    pthread_mutex_unlock(&lifecycle_lock);
    return rc;
}

void ms_runtime_stop(uint64_t finalize_start_ns)
{
    /* A terminating signal meanwhile goes to another thread, or waits. */
    sigset_t old_mask;
    ms_signals_block(&old_mask);
    pthread_mutex_lock(&lifecycle_lock);
    if (!started || stopped || forked_child)
        goto out;
    uint64_t t0 = ms_now();
    /* What the collectors still hold (counters' last samples, GPU activity
     * in CUPTI's buffers), while recording is on. */
    ms_collectors_stop();
    stopped = 1;
    atomic_store(&writer_stop, 1);
    sem_post(&writer_wake);
    pthread_join(writer, NULL);
    /* Recording stays on while draining: a thread whose buffer is full
     * waits for room instead of overwriting what is being copied. */
    if (log_take(-1) == 0) {
        if (summary) {
            ms_sum_set_window_end(summary, finalize_start_ns);
            summary_fold();
        } else {
            drain_all(0, 0);
        }
        atomic_store(&ms_active, 0);
        FLUSH_STALL("mpiscope:final_flush", t0, 0);
        ms_end_record end;
        fill_end(&end, finalize_start_ns);
        if (summary) {
            summary_write(&end);
        } else {
            if (ms_fb_finish(&log_, finalize_start_ns, staging) != 0)
                ms_warn_once(MS_WARN_WRITE, "the summary of the calls that did not fit could not be written (%s): "
                             "they are lost", strerror(errno));
            if (ms_log_finish(&log_, &end) != 0)
                ms_warn_once(MS_WARN_WRITE, "closing the log failed (%s)", strerror(errno));
        }
        atomic_store(&log_done, 1);
        log_give();
    }
    atomic_store(&ms_active, 0);
    ms_signals_restore();
    /* Closed, here or by a signal handler: nobody uses the buffers again. */
    ms_log_close(&log_, NULL);
    free(staging);
    staging = NULL;
    ms_sum_free(summary);
    summary = NULL;
    ms_summary_log_free(&summary_log);
    ms_fb_free();
out:
    pthread_mutex_unlock(&lifecycle_lock);
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
}

int ms_runtime_write_sync(const ms_sync_sample *s)
{
    int rc = -1;
    pthread_mutex_lock(&lifecycle_lock);
    if (started && !stopped && !forked_child && log_take(-1) == 0) {
        rc = ms_log_write_block(&log_, MS_BLOCK_SYNC, 0, s, sizeof *s);
        if (rc != 0)
            warn_write(0);
        log_give();
    }
    pthread_mutex_unlock(&lifecycle_lock);
    return rc;
}

int ms_runtime_allowed(void)
{
    return !not_allowed && !forked_child && !ms_cfg.disable;
}

static void at_fork_child(void)
{
    /* The child has no writer thread and must never write the parent's log. */
    forked_child = 1;
    atomic_store(&ms_active, 0);
    pthread_mutex_init(&lifecycle_lock, NULL);
}

__attribute__((constructor)) static void ms_ctor(void)
{
    if (getauxval(AT_SECURE)) {
        not_allowed = 1;
        return;
    }
    ms_clock_init();
    load_mono = ms_mono_ns();
    load_ticks = ms_now();
    ms_config_load();
    ms_collectors_load();
    pthread_atfork(NULL, NULL, at_fork_child);
}

__attribute__((destructor)) static void ms_dtor(void)
{
    /* exit() without MPI_Finalize: keep what was recorded. */
    ms_runtime_stop(0);
}
