/*
 * Trace mode's sink (sink.h): every record a thread published is written
 * to the log as it is, through the fall-back of a full disk (fallback.h),
 * which folds what does not fit and writes those aggregates at the end;
 * the tool's last flush is recorded as an event on the thread that waited
 * for it (mpiscope:final_flush, mpiscope:signal_flush).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "diag.h"
#include "fallback.h"
#include "registry.h"
#include "sink.h"
#include "writer.h"

static void trace_drain(ms_thread *t, const uint8_t *p, size_t n, int quiet)
{
    /* What does not fit is folded (fallback.h), or lost in a signal
     * handler. */
    int folded = ms_fb_folded();
    uint64_t lost = ms_fb_write(ms_writer_log(), t->index, p, n, quiet);
    if (lost)
        ms_registry_add_dropped(lost);
    if (lost || (!folded && ms_fb_folded()))
        ms_writer_warn_write(quiet);
}

static void trace_periodic(int why)
{
    (void)why;
    ms_writer_drain_all(1, 0);
}

static void trace_last_flush(uint64_t finalize_start_ns)
{
    (void)finalize_start_ns;
    ms_writer_drain_all(0, 0);
}

/* The caller holding the log: the tool's wait from t0 to now (the last
 * flush, at the end or in a signal handler) as an event of `name` on the
 * calling thread, in a block of its own after that thread's data.
 * Async-signal-safe. */
static void write_flush_stall(const char *name, size_t len, uint64_t t0, int quiet)
{
    ms_thread *t = ms_tls_thread;
    if (!t)
        return;
    uint8_t rec[MS_REGION_DEF_MAX + MS_ASIDE_MAX];
    uint32_t id = t->next_region++;
    uint8_t *p = ms_rec_region(rec, id, name, len);
    p = ms_rec_aside(p, id, t0, ms_now(), t->cursor);
    t->events++;
    uint64_t lost = ms_fb_write(ms_writer_log(), t->index, rec, (size_t)(p - rec), quiet);
    if (lost)
        ms_registry_add_dropped(lost);
}
#define FLUSH_STALL(name, t0, quiet) write_flush_stall(name, sizeof name - 1, t0, quiet)

static void trace_last_wait(uint64_t t0, int in_signal)
{
    if (in_signal)
        FLUSH_STALL("mpiscope:signal_flush", t0, 1);
    else
        FLUSH_STALL("mpiscope:final_flush", t0, 0);
}

static void trace_end(const ms_end_record *end, uint64_t finalize_start_ns)
{
    ms_log *log = ms_writer_log();
    if (ms_fb_finish(log, finalize_start_ns, ms_writer_staging()) != 0)
        ms_warn_once(MS_WARN_WRITE, "the summary of the calls that did not fit could not be written (%s): "
                     "they are lost", strerror(errno));
    if (ms_log_finish(log, end) != 0)
        ms_warn_once(MS_WARN_WRITE, "closing the log failed (%s)", strerror(errno));
}

static void trace_release(void)
{
    ms_fb_free();
}

static const ms_sink trace_sink = {
    .drain = trace_drain,
    .periodic = trace_periodic,
    .last_flush = trace_last_flush,
    .last_wait = trace_last_wait,
    .end = trace_end,
    .release = trace_release,
};

/* The room below which the writer follows its log as it writes
 * (fallback.h): MS_FB_FOLLOW_BELOW, or, for tests only,
 * MPISCOPE_TEST_FOLLOW_BELOW=<bytes> (0: only once a write lacks room). */
static uint64_t follow_below(void)
{
    const char *v = getenv("MPISCOPE_TEST_FOLLOW_BELOW");
    if (!v || !*v)
        return MS_FB_FOLLOW_BELOW;
    char *end;
    errno = 0;
    unsigned long long b = strtoull(v, &end, 10);
    if (errno || end == v || *end || *v == '-') {
        ms_warn_config(MS_WARN_CONFIG_LAST, "MPISCOPE_TEST_FOLLOW_BELOW=\"%s\" is not a number of bytes; ignored", v);
        return MS_FB_FOLLOW_BELOW;
    }
    return b;
}

const ms_sink *ms_sink_trace_open(const ms_sum_clock *clock, uint64_t init_end, size_t block_max, int dirfd,
                                  const char *name)
{
    if (ms_fb_init(clock, init_end, block_max, dirfd, name, follow_below()) != 0)
        ms_warn_once(MS_WARN_MEMORY, "out of memory at start: on a full disk, calls that do not fit would be lost");
    return &trace_sink;
}
