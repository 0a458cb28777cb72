/*
 * Summary mode (MPISCOPE_MODE=summary), the writer thread's side: the
 * records the application threads append to their rings (exactly as in
 * trace mode) are decoded here, off the critical path, and every event is
 * folded into the aggregate of its (thread, region id): calls, total, min,
 * max, mean and m2, first and last call, window and exclusive time, and the
 * duration sketch, with the same code the merge uses for a trace
 * (common/stats.c, sketch.c, nesting.c, compiled into the library too),
 * so that the merge gives the same statistics. Control records (regions,
 * call sites, objects, communicators, counters) are kept as they are, to be
 * written again with every snapshot; time records and message records
 * (which belong to one event) are consumed.
 *
 * A snapshot (ms_sum_write) is, per thread, its control records followed by
 * one MS_CTL_SUMMARY record per region id with calls: cumulative, so the
 * latest snapshot alone describes the run so far. docs/FORMAT.md describes
 * the record, DESIGN section 3 the file's life cycle.
 *
 * Not thread-safe: the owner of the log uses it. Allocates (never called
 * from a signal handler), except ms_sum_cursor.
 */
#ifndef MPISCOPE_SUMMARY_H
#define MPISCOPE_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

typedef struct ms_sum ms_sum;

typedef struct ms_sum_clock {
    int ticks;              /* the log clock is the TSC (else ns) */
    uint64_t ticks_ref;     /* log clock ... */
    uint64_t ns_ref;        /* ... and CLOCK_MONOTONIC, read together */
    double ticks_per_ns;    /* the header's estimate */
} ms_sum_clock;

/* init_end: log clock when MPI_Init returned (the window's start);
 * block_max: the largest data block payload to produce. NULL when out of
 * memory. */
ms_sum *ms_sum_new(const ms_sum_clock *clock, uint64_t init_end, size_t block_max);
void ms_sum_free(ms_sum *s);

/* The window's end (log clock; MPI_Finalize entered) for the calls folded
 * from now on. */
void ms_sum_set_window_end(ms_sum *s, uint64_t finalize_start);

/* Fold the whole records [p, p + n) of thread `thread`'s stream. Returns
 * the number of events that could not be folded (out of memory, or an
 * event of an undefined id): 0 normally. */
uint64_t ms_sum_consume(ms_sum *s, uint32_t thread, const uint8_t *p, size_t n);

/* Fold events (fold = 1, the default), or only follow them (0): their
 * time cursors advance and control records are kept, nothing is counted.
 * A trace-mode log follows what it writes, so that, on a full disk, what
 * cannot be written is folded (fallback.h). */
void ms_sum_set_folding(ms_sum *s, int fold);

/* A trace's gap (fallback.h): from ms_sum_gap_begin on, what the thread's
 * records define (regions, call sites, communicators, files: the control
 * records kept) was folded, not written; ms_sum_gap_end writes those
 * definitions through emit, before the trace goes on, so that its later
 * events find their regions, and then the requests the thread created in
 * the gap that are live (carried request records, docs/FORMAT.md), so
 * that its later completions find them. 0, or emit's error. */
void ms_sum_gap_begin(ms_sum *s, uint32_t thread);
int ms_sum_gap_end(ms_sum *s, uint32_t thread, int (*emit)(void *ctx, uint32_t thread, const uint8_t *p, size_t n),
                   void *ctx);

/* Summary mode: request records are matched (preload/summary_requests.h)
 * and completion calls counted under the names that report what they
 * completed; without, they are passed over (the full-disk fall-back of a
 * trace, whose reader matches them). 0, or -1 when out of memory. */
int ms_sum_match_requests(ms_sum *s);
/* The length of the longest run of whole records at the start of
 * [p, p + n) that is at most max bytes long and does not end between a
 * message record and the event it belongs to: 0 when the first record (or
 * an event with its message records) is longer, or of a kind this writer
 * cannot skip. */
size_t ms_sum_records_prefix(const uint8_t *p, size_t n, size_t max);
/* The event records among the whole records [p, p + n). Async-signal-safe. */
uint64_t ms_sum_count_events(const uint8_t *p, size_t n);
/* The thread's time cursor after everything it consumed: 0, or -1 when the
 * thread consumed nothing yet. Async-signal-safe. */
int ms_sum_cursor(const ms_sum *s, uint32_t thread, uint64_t *cursor);

/* Events folded so far. */
uint64_t ms_sum_events(const ms_sum *s);

/* Write the snapshot as data blocks of at most block_max bytes through
 * emit (thread, payload, length), using buf (block_max bytes). Returns 0,
 * or the first non-zero value emit returned. */
int ms_sum_write(const ms_sum *s, int (*emit)(void *ctx, uint32_t thread, const uint8_t *p, size_t n), void *ctx,
                 uint8_t *buf);

#endif
