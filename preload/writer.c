/*
 * The log writer: the writer thread, who owns the log when (log_take), the
 * staging of a thread's records, the clock samples, the end record, the
 * flush from a signal handler and the stop sequence. What a mode does with
 * the records is its sink's (sink.h): this file knows no mode. MPI-free;
 * runtime.c opens the log and starts and stops the writer.
 */
#include "writer.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "clock_skew.h"
#include "config.h"
#include "diag.h"
#include "ending.h"
#include "registry.h"
#include "slow_writer.h"

static ms_log log_;
static uint8_t *staging;
static pthread_t writer;
static _Atomic int writer_stop;
/* The mode, set at start; a signal handler reaches it only while it holds
 * the open log. */
static const ms_sink *sink;
/* The CPUs to pin the writer thread to, from the place_first-th on
 * (ms_writer_place; none: it stays where it starts). */
static cpu_set_t place;
static int place_first;
/* The writer thread's CPU time, read as it ends (MPISCOPE_VERBOSE). */
static uint64_t writer_cpu_ns;

/* Who writes the log now: 0 nobody, else a kernel thread id. The writer
 * thread (one block at a time), ms_writer_stop and a signal handler take
 * turns; see log_take. Once log_done is set nothing more is written. */
static _Atomic int log_owner;
static _Atomic int log_done;
/* The process that opened the log (0 before start): a forked child, which
 * inherits the handlers and the descriptor, never writes it. */
static _Atomic pid_t log_pid;
/* How long a signal handler waits for another thread to finish its block. */
#define LOG_WAIT_MS 3000

ms_log *ms_writer_log(void)
{
    return &log_;
}

uint8_t *ms_writer_staging(void)
{
    return staging;
}

/* ---- who writes the log ---- */

static void pause_ms(void)
{
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
}

/* See writer.h. Async-signal-safe. */
int ms_writer_log_take(int wait_ms)
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

void ms_writer_log_give(void)
{
    atomic_store(&log_owner, 0);
}

void ms_writer_warn_write(int quiet)
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

/* ---- staging and draining ---- */

size_t ms_writer_stage(ms_thread *t, uint64_t *head)
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
    size_t n = ms_writer_stage(t, &h);
    if (n == 0)
        return;
    sink->drain(t, staging, n, quiet);
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
        ms_writer_warn_write(quiet);
}

int ms_writer_drain_all(int each_block, int quiet)
{
    uint32_t n = ms_registry_count();
    int sampled = 0;
    for (uint32_t i = 0; i < n; i++) {
        ms_thread *t = ms_registry_thread(i);
        if (!t || atomic_load_explicit(&t->head, memory_order_acquire) ==
                      atomic_load_explicit(&t->tail, memory_order_relaxed))
            continue;
        if (each_block)
            ms_slow_writer_pause(); /* test-only (slow_writer.h) */
        if (each_block && ms_writer_log_take(-1) != 0)
            return -1;
        if (!sampled++)
            write_clock_sample(quiet);
        drain_thread(t, quiet);
        if (each_block)
            ms_writer_log_give();
    }
    return 0;
}

/* The end record as of now. Async-signal-safe. */
static void fill_end(ms_end_record *end, uint64_t finalize_start_ns)
{
    memset(end, 0, sizeof *end);
    end->finalize_start_ns = finalize_start_ns;
    uint32_t n = ms_registry_count();
    for (uint32_t i = 0; i < n; i++) {
        ms_thread *t = ms_registry_thread(i);
        if (t) {
            end->events += t->events;
            end->nthreads++;
        }
    }
    end->dropped = ms_registry_dropped();
    end->flags = finalize_start_ns ? MS_END_FINALIZED : 0;
    end->end_ns = ms_skew_mono(ms_mono_ns());
    end->end_ticks = ms_now();
}

int ms_runtime_flush_from_signal(int close_log, const ms_ending_record *ending)
{
    pid_t pid = atomic_load(&log_pid);
    if (!pid || pid != getpid())
        return 0;
    uint64_t t0 = ms_now();
    if (ms_writer_log_take(LOG_WAIT_MS) != 0)
        return 0;
    /* Recording stays on while draining: a thread whose buffer is full
     * waits for room instead of overwriting what is being copied. */
    ms_writer_drain_all(0, 1);
    atomic_store(&ms_active, 0);
    if (sink->last_wait)
        sink->last_wait(t0, 1);
    if (ending)
        ms_log_write_block(&log_, MS_BLOCK_ENDING, 0, ending, sizeof *ending);
    if (close_log) {
        ms_end_record end;
        fill_end(&end, 0);
        ms_log_finish(&log_, &end);
    }
    atomic_store(&log_done, 1);
    ms_writer_log_give();
    return 1;
}

/* ---- the writer thread ---- */

void ms_writer_place(const cpu_set_t *cpus, int first)
{
    place = *cpus;
    place_first = first;
}

/* Pin the calling (writer) thread to the first CPU of place, from the
 * place_first-th on, that the system accepts. */
static void pin_writer(void)
{
    int cpus[CPU_SETSIZE], n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &place))
            cpus[n++] = c;
    for (int k = 0; k < n; k++) {
        int cpu = cpus[(place_first + k) % n];
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0) {
            if (ms_cfg.verbose)
                ms_info("writer thread on CPU %d, which no rank of this node is bound to", cpu);
            return;
        }
    }
    if (n > 0 && ms_cfg.verbose)
        ms_info("writer thread: no free CPU accepted it; it runs where the rank runs");
}

/* The writer thread writes an ending block (ending.h) after the records
 * before it. */
static void write_ending(const ms_ending_record *e)
{
    if (ms_writer_log_take(-1) != 0)
        return;
    if (ms_log_write_block(&log_, MS_BLOCK_ENDING, 0, e, sizeof *e) != 0)
        ms_writer_warn_write(0);
    if (sink->keep_ending)
        sink->keep_ending(e);
    ms_writer_log_give();
}

static void *writer_main(void *arg)
{
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    pin_writer();
    /* It wakes every MS_ENDING_BLOCKED_MS at most, to see the calls that
     * block (ending.h), and flushes every flush interval, when woken, and
     * when a call blocks. */
    uint64_t tick_ms = ms_cfg.flush_ms < MS_ENDING_BLOCKED_MS ? ms_cfg.flush_ms : MS_ENDING_BLOCKED_MS;
    uint64_t last_flush = ms_mono_ns();
    while (!atomic_load(&writer_stop)) {
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        uint64_t ns = (uint64_t)deadline.tv_nsec + tick_ms * 1000000u;
        deadline.tv_sec += (time_t)(ns / 1000000000u);
        deadline.tv_nsec = (long)(ns % 1000000000u);
        int rc = ms_writer_wait(&deadline);
        /* Woken to stop: ms_writer_stop drains what is left through the
         * sink's last flush, which first learns where the run's window ends
         * (summary mode folds MPI_Finalize outside the MPI time only then). */
        if (atomic_load(&writer_stop))
            break;
        uint64_t now = ms_mono_ns();
        ms_ending_record e;
        uint32_t ending = ms_ending_watch(now, &e);
        if (rc == 0 || ending || now - last_flush >= (uint64_t)ms_cfg.flush_ms * 1000000u) {
            sink->periodic(rc == 0 ? MS_SINK_WOKEN : ending ? MS_SINK_BLOCKED : 0);
            last_flush = now;
        }
        if (ending)
            write_ending(&e);
    }
    struct timespec cpu;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0)
        writer_cpu_ns = (uint64_t)cpu.tv_sec * 1000000000u + (uint64_t)cpu.tv_nsec;
    return NULL;
}

int ms_writer_setup(uint64_t capacity)
{
    staging = malloc(capacity);
    if (!staging || ms_rings_setup(capacity) != 0)
        return -1;
    return 0;
}

int ms_writer_start(const ms_sink *s)
{
    sink = s;
    atomic_store(&writer_stop, 0);
    atomic_store(&log_done, 0);
    atomic_store(&ms_active, 1);
    if (pthread_create(&writer, NULL, writer_main, NULL) != 0) {
        atomic_store(&ms_active, 0);
        return -1;
    }
    atomic_store(&log_pid, getpid());
    return 0;
}

int ms_writer_stop(uint64_t finalize_start_ns, uint64_t t0)
{
    atomic_store(&writer_stop, 1);
    ms_writer_kick(NULL);
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += (time_t)ms_cfg.writer_wait_s;
    if (pthread_timedjoin_np(writer, NULL, &deadline) != 0) {
        /* Stalled in a write or an open (a hung file system): the rank
         * ends without it, and stays killable. */
        atomic_store(&ms_active, 0);
        ms_warn_once(MS_WARN_WRITER, "the writer thread did not finish its write within %u s "
                     "(MPISCOPE_WRITER_WAIT_S; a stalled file system?): this rank's calls since its last "
                     "flush and its end record are lost; the log keeps what was written before",
                     ms_cfg.writer_wait_s);
        return -1;
    }
    /* Recording stays on while draining: a thread whose buffer is full
     * waits for room instead of overwriting what is being copied. */
    if (ms_writer_log_take(-1) == 0) {
        sink->last_flush(finalize_start_ns);
        atomic_store(&ms_active, 0);
        if (sink->last_wait)
            sink->last_wait(t0, 0);
        const ms_ending_record *ending = ms_ending_pending();
        if (ending && ms_log_write_block(&log_, MS_BLOCK_ENDING, 0, ending, sizeof *ending) != 0)
            ms_writer_warn_write(0);
        if (ending && sink->keep_ending)
            sink->keep_ending(ending);
        ms_end_record end;
        fill_end(&end, finalize_start_ns);
        sink->end(&end, finalize_start_ns);
        if (ms_cfg.verbose)
            ms_info("writer thread: %.3f ms CPU for %llu events (%.1f ns per event), before the last flush",
                    (double)writer_cpu_ns / 1e6, (unsigned long long)end.events,
                    end.events ? (double)writer_cpu_ns / (double)end.events : 0.0);
        atomic_store(&log_done, 1);
        ms_writer_log_give();
    }
    atomic_store(&ms_active, 0);
    return 0;
}

void ms_writer_release(void)
{
    /* Closed, here or by a signal handler: nobody uses the buffers again. */
    ms_log_close(&log_, NULL);
    free(staging);
    staging = NULL;
    if (sink)
        sink->release();
}
