/*
 * Summary mode's sink (sink.h): the writer thread folds what every thread
 * published into the aggregates (summary.h) and replaces the log by the
 * snapshot (summary_log.h) before it gives the log back, so that the file
 * always holds exactly the events consumed from the rings. A signal
 * handler that takes the log next appends the rest of every buffer as
 * events, each thread's after a time record that continues its stream;
 * it never touches the aggregates.
 */
#include <errno.h>
#include <string.h>

#include "clock.h"
#include "config.h"
#include "diag.h"
#include "registry.h"
#include "sink.h"
#include "summary_log.h"
#include "writer.h"

/* The aggregates, and what a rewrite of the log needs. */
static ms_sum *summary;
static ms_summary_log summary_log = {.dirfd = -1};
/* ns between periodic snapshots (ms_summary_snapshot_ns); a ring half
 * full still gets its snapshot at once. */
static uint64_t snapshot_ns;
static uint64_t last_snapshot;

/* A signal handler's drain (the writer thread folds instead). */
static void summary_drain(ms_thread *t, const uint8_t *p, size_t n, int quiet)
{
    ms_log *log = ms_writer_log();
    uint64_t cursor;
    if (ms_sum_cursor(summary, t->index, &cursor) == 0) {
        /* After a snapshot: the thread's stream goes on from the time the
         * snapshot's events end (the time records went into it). */
        uint8_t rec[MS_VARINT_MAX + 1];
        uint8_t *q = ms_rec_time(rec, cursor);
        if (ms_log_write_block(log, MS_BLOCK_DATA, t->index, rec, (size_t)(q - rec)) != 0)
            ms_writer_warn_write(quiet);
    }
    if (ms_log_write_block(log, MS_BLOCK_DATA, t->index, p, n) != 0)
        ms_writer_warn_write(quiet);
}

/* Fold what every thread has published into the aggregates (the ring space
 * is then free); returns whether there was any. The caller holds the log,
 * and writes the snapshot (summary_write) before giving it back, so that
 * the file always holds exactly the events consumed from the rings: a
 * signal handler that takes the log next appends the rest as events. */
static int summary_fold(void)
{
    int folded = 0;
    uint32_t n = ms_registry_count();
    for (uint32_t i = 0; i < n; i++) {
        ms_thread *t = ms_registry_thread(i);
        if (!t)
            continue;
        uint64_t h;
        size_t len = ms_writer_stage(t, &h);
        if (len == 0)
            continue;
        uint64_t lost = ms_sum_consume(summary, t->index, ms_writer_staging(), len);
        if (lost) {
            ms_registry_add_dropped(lost);
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
    if (ms_summary_log_write(&summary_log, ms_writer_log(), summary, ms_writer_staging(), &cs, end) != 0)
        ms_warn_once(MS_WARN_WRITE, "writing the summary log failed (%s); %s", strerror(errno),
                     summary_log.snapshots ? "the log keeps its previous snapshot"
                                           : "the log holds its header only (no snapshot was written yet)");
}

static void summary_periodic(int why)
{
    /* Woken by a thread (ring half full, or stop), or the snapshot
     * interval is over; a call that blocked (its ending block follows) is
     * worth a snapshot a quarter of the interval after the last one (at
     * once when there is none yet), so that a rank the launcher then kills
     * keeps its calls before it, as a trace does, at most 4 times as often
     * as the interval. */
    uint64_t now = ms_mono_ns();
    uint64_t gap = why != MS_SINK_BLOCKED ? snapshot_ns : summary_log.snapshots ? snapshot_ns / 4 : 0;
    if (why != MS_SINK_WOKEN && now - last_snapshot < gap)
        return;
    last_snapshot = now;
    if (ms_writer_log_take(-1) == 0) {
        /* Nothing new: the log already holds this snapshot. */
        if (summary_fold())
            summary_write(NULL);
        ms_writer_log_give();
    }
}

static void summary_last_flush(uint64_t finalize_start_ns)
{
    ms_sum_set_window_end(summary, finalize_start_ns);
    summary_fold();
}

static void summary_end(const ms_end_record *end, uint64_t finalize_start_ns)
{
    (void)finalize_start_ns;
    summary_write(end);
}

static void summary_keep_ending(const ms_ending_record *e)
{
    summary_log.ending = *e;
    summary_log.has_ending = 1;
}

static void summary_release(void)
{
    ms_sum_free(summary);
    summary = NULL;
    ms_summary_log_free(&summary_log);
}

static const ms_sink summary_sink = {
    .drain = summary_drain,
    .periodic = summary_periodic,
    .last_flush = summary_last_flush,
    .last_wait = NULL, /* the tool's last flush is recorded in trace mode only */
    .end = summary_end,
    .keep_ending = summary_keep_ending,
    .release = summary_release,
};

const ms_sink *ms_sink_summary_open(const ms_sum_clock *clock, uint64_t init_end, size_t block_max, int dirfd,
                                    const char *name, int ranks)
{
    snapshot_ns = ms_summary_snapshot_ns(ms_cfg.flush_ms, ranks);
    summary = ms_sum_new(clock, init_end, block_max);
    if (!summary || ms_sum_match_requests(summary) != 0 ||
        ms_summary_log_init(&summary_log, ms_writer_log(), dirfd, name) != 0) {
        ms_warn_once(MS_WARN_MEMORY, "cannot start summary mode (%s); nothing is recorded", strerror(errno));
        summary_release();
        return NULL;
    }
    last_snapshot = ms_mono_ns();
    return &summary_sink;
}
