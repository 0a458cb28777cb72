/*
 * The recording core's life cycle: start (the log directory, the log and
 * its header, the mode's sink) and stop, clock-sync blocks, fork handling,
 * and the library's constructor and destructor, which run the collectors'
 * hooks (collector_list.h). The thread registry is registry.c's, the
 * writer thread writer.c's. MPI-free; the MPI_Init and MPI_Finalize hooks
 * (lifecycle.c) call in here.
 */
#include "runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "clock_skew.h"
#include "collector_list.h"
#include "config.h"
#include "diag.h"
#include "ending.h"
#include "log_dir.h"
#include "log_file.h"
#include "signals.h"
#include "sink.h"
#include "slow_writer.h"
#include "summary.h"
#include "writer.h"

/* zstd level of the log: 1 compresses these varint streams about 20 % faster
 * than 3 (the writer shares the cores with the ranks) for logs about 10 %
 * larger, still under 1 byte per event on ping-pong and halo traces. */
#define LOG_LEVEL 1

static int started, stopped, forked_child, not_allowed;
static pthread_mutex_t lifecycle_lock = PTHREAD_MUTEX_INITIALIZER;
/* This thread is inside ms_runtime_start, holding lifecycle_lock: a library
 * that ends the process from there (LIKWID's exit when its access daemon
 * does not start) runs the destructor on this thread, which must not wait
 * for the lock it holds. */
static __thread int starting;

/* Both clocks at load, to estimate the counter's rate by start. */
static uint64_t load_ticks, load_mono;

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

int ms_runtime_start(const ms_start_info *info)
{
    pthread_mutex_lock(&lifecycle_lock);
    starting = 1;
    int rc = -1;
    if (started || !ms_runtime_allowed())
        goto out;
    uint64_t ring_capacity = pow2_at_least((uint64_t)ms_cfg.buffer_kb * 1024u);
    char why[320];
    int dirfd = ms_log_dir_open(info->dir, why, sizeof why);
    if (dirfd < 0) {
        ms_warn_once(MS_WARN_DIR, "cannot use the log directory \"%s\" (%s); nothing is recorded", info->dir, why);
        goto out;
    }
    char name[32], path[sizeof ms_cfg.dir + 32];
    snprintf(name, sizeof name, "rank-%06d.zst", info->rank);
    snprintf(path, sizeof path, "%s/%s", info->dir, name);
    ms_log *log = ms_writer_log();
    int open_rc = ms_log_open_at(log, dirfd, name, ring_capacity, LOG_LEVEL);
    int open_errno = errno;
    if (open_rc != 0) {
        close(dirfd);
        ms_warn_once(MS_WARN_OPEN, "cannot create the log \"%s\" (%s); nothing is recorded", path,
                     strerror(open_errno));
        goto out;
    }
    if (ms_writer_setup(ring_capacity) != 0) {
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
    ms_ending_set_alone(info->size == 1);
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
    /* A spawned world's rank 0 names its parents (docs/FORMAT.md, spawned_by). */
    char *s_link = NULL;
    if (info->spawned_by && info->spawned_by[0] && (s_link = malloc(strlen(info->spawned_by) + 12)))
        sprintf(s_link, "spawned_by=%s", info->spawned_by);
    const char *strings[] = {s_host, s_lib, s_argv0, s_dir, ms_clock_tsc ? "clock=TSC" : "clock=CLOCK_MONOTONIC", s_run,
                             s_link};
    /* On a nearly full disk, room another rank's reserve takes for a moment
     * (fallback.h) may come back: a few tries. */
    int header_rc = -1;
    for (int try = 0; try < 5; try++) {
        header_rc = ms_log_write_header(log, &h, &clock, strings, sizeof strings / sizeof strings[0] - !s_link);
        if (header_rc == 0 || !ms_log_no_room(errno))
            break;
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    free(s_link);
    if (header_rc != 0) {
        ms_warn_once(MS_WARN_WRITE, "cannot write the log \"%s\" (%s); nothing is recorded", path, strerror(errno));
        /* No log rather than one without its header. */
        unlinkat(dirfd, name, 0);
        close(dirfd);
        goto fail;
    }
    ms_sum_clock sc = {.ticks = ms_clock_tsc, .ticks_ref = ticks_ref, .ns_ref = h.clock_ref_ns,
                       .ticks_per_ns = clock.ticks_per_ns};
    /* The mode (sink.h): summary mode cannot start without its aggregates. */
    const ms_sink *sink = ms_cfg.mode == MS_MODE_SUMMARY
                              ? ms_sink_summary_open(&sc, info->init_end_ns, ring_capacity, dirfd, name, info->size)
                              : ms_sink_trace_open(&sc, info->init_end_ns, ring_capacity, dirfd, name);
    close(dirfd);
    if (!sink)
        goto fail;
    /* Recording is on from here. */
    if (ms_writer_start(sink) != 0) {
        ms_warn_once(MS_WARN_WRITER, "cannot start the writer thread; nothing is recorded");
        goto fail;
    }
    started = 1;
    ms_signals_install();
    ms_collectors_start();
    rc = 0;
    goto out;
fail:
    ms_writer_release();
out:
    starting = 0;
    pthread_mutex_unlock(&lifecycle_lock);
    return rc;
}

void ms_runtime_stop(uint64_t finalize_start_ns)
{
    /* The process ends from within the start: the log stays as far as it
     * got (a log without its end record, which the merge reads). */
    if (starting)
        return;
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
    /* The rest of every buffer and the end record; recording is off after. */
    int joined = ms_writer_stop(finalize_start_ns, t0) == 0;
    ms_signals_restore();
    if (joined)
        ms_writer_release();
out:
    pthread_mutex_unlock(&lifecycle_lock);
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
}

int ms_runtime_write_sync(const ms_sync_sample *s)
{
    int rc = -1;
    pthread_mutex_lock(&lifecycle_lock);
    if (started && !stopped && !forked_child && ms_writer_log_take(-1) == 0) {
        rc = ms_log_write_block(ms_writer_log(), MS_BLOCK_SYNC, 0, s, sizeof *s);
        if (rc != 0)
            ms_writer_warn_write(0);
        ms_writer_log_give();
    }
    pthread_mutex_unlock(&lifecycle_lock);
    return rc;
}

int ms_runtime_allowed(void)
{
    return !not_allowed && !forked_child && !ms_cfg.disable;
}

void ms_runtime_refuse(void)
{
    not_allowed = 1;
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
    ms_thread_on_attach(ms_collectors_thread_attach);
    pthread_atfork(NULL, NULL, at_fork_child);
}

__attribute__((destructor)) static void ms_dtor(void)
{
    /* exit() without MPI_Finalize: keep what was recorded. */
    ms_runtime_stop(0);
}
