/*
 * The writer's two modes (DESIGN section 3, MPISCOPE_MODE): how the
 * records the writer takes from the threads' rings reach the log. The
 * writer (writer.c) knows a mode only as an ms_sink, chosen at start
 * (runtime.c):
 *
 *   trace    sink_trace.c: every record is written, as it is, through the
 *            fall-back of a full disk (fallback.h)
 *   summary  sink_summary.c: the writer thread folds records into
 *            aggregates (summary.h) and rewrites the log as a snapshot
 *            (summary_log.h); a signal handler appends the rest as events
 *
 * The writer calls a sink while it holds the log (writer.h's
 * ms_writer_log_take), except periodic, which takes the log itself, and
 * release, once the log is closed.
 */
#ifndef MPISCOPE_SINK_H
#define MPISCOPE_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "log_file.h"
#include "summary.h"
#include "tstate.h"

enum { MS_SINK_WOKEN = 1, MS_SINK_BLOCKED = 2 };

typedef struct ms_sink {
    /* Write thread t's staged records [p, p + n) (whole records, n > 0);
     * the writer then hands the ring space back. quiet: in a signal handler,
     * where this must be async-signal-safe and print nothing. */
    void (*drain)(ms_thread *t, const uint8_t *p, size_t n, int quiet);
    /* The writer thread, after each wait: woken by a thread (a ring half
     * full, or stop: MS_SINK_WOKEN), a call has blocked (MS_SINK_BLOCKED,
     * ending.h: an ending block follows), or the flush interval is over
     * (0). */
    void (*periodic)(int why);
    /* At stop, recording still on: take the rest of every buffer.
     * finalize_start_ns: 0 when MPI_Finalize was not called. */
    void (*last_flush)(uint64_t finalize_start_ns);
    /* Recording off: the tool's last flush, from t0 to now, which the
     * calling thread waited for (in_signal: a handler's, else the one at
     * MPI_Finalize or exit). NULL when the mode does not record it.
     * Async-signal-safe when in_signal. */
    void (*last_wait)(uint64_t t0, int in_signal);
    /* At stop, after last_flush: write what remains and the end record
     * `end`, which closes the log. */
    void (*end)(const ms_end_record *end, uint64_t finalize_start_ns);
    /* An ending block (ending.h) was appended to the log: a sink that
     * rewrites its log writes it again into each later rewrite. NULL: the
     * block stays where it was appended. */
    void (*keep_ending)(const ms_ending_record *e);
    /* Free what the sink holds (the log is closed). */
    void (*release)(void);
} ms_sink;

/* The sinks, set up after the header of the log `name` in dirfd was
 * written (clock: the log clock as the header describes it; init_end: the
 * log clock when MPI_Init returned; block_max: the largest data block).
 * The trace sink always starts (on a lack of memory, after a warning,
 * without the fall-back's folding); the summary sink returns NULL after a
 * warning (nothing is recorded then). */
MS_HIDDEN const ms_sink *ms_sink_trace_open(const ms_sum_clock *clock, uint64_t init_end, size_t block_max,
                                            int dirfd, const char *name);
/* ranks: the job's size, which sets the interval between snapshots. */
MS_HIDDEN const ms_sink *ms_sink_summary_open(const ms_sum_clock *clock, uint64_t init_end, size_t block_max,
                                              int dirfd, const char *name, int ranks);

#endif
