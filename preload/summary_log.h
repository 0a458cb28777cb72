/*
 * Summary mode's log file (DESIGN section 3): the file always holds one
 * complete snapshot. Each snapshot is written whole to "<name>.new" in the
 * log directory (the header block as first written, a clock block, every
 * thread's control records and aggregates, the latest ending block, and
 * at the end the end block),
 * then renamed over the log: a process killed at any moment leaves either
 * the previous snapshot or the new one, both complete files. The log's
 * descriptor then refers to the new file, so that a signal handler can
 * append to it (the events its threads recorded since).
 */
#ifndef MPISCOPE_SUMMARY_LOG_H
#define MPISCOPE_SUMMARY_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "log_file.h"
#include "summary.h"

typedef struct ms_summary_log {
    int dirfd;                /* the log directory */
    char name[32];            /* the log's name in it */
    uint8_t *header;          /* the header block's frame, as written */
    size_t header_len;
    unsigned snapshots;       /* snapshots renamed over the log so far */
    int has_ending;           /* the latest ending block, written into each
                                 snapshot before its end block */
    ms_ending_record ending;
} ms_summary_log;

/* After the header block was written to log (named `name` in dirfd): keep
 * what a rewrite needs (dirfd is duplicated). 0, or -1 with errno. */
int ms_summary_log_init(ms_summary_log *sl, const ms_log *log, int dirfd, const char *name);
void ms_summary_log_free(ms_summary_log *sl);

/* Replace the log by the snapshot of sum (buf: the block_max bytes sum
 * writes with); with the end block when end != NULL, which also closes the
 * log. 0, or -1 with errno (the log keeps the previous snapshot). */
int ms_summary_log_write(ms_summary_log *sl, ms_log *log, const ms_sum *sum, uint8_t *buf,
                         const ms_clock_sample *clock, const ms_end_record *end);

/* Nanoseconds between periodic snapshots of a job of `ranks` ranks:
 * flush_ms, times ceil(ranks / MS_SNAPSHOT_RANKS) above that many ranks, so
 * that a job replaces at most MS_SNAPSHOT_RANKS logs (renames in the shared
 * directory) per flush interval, whatever its size (docs/SCALING.md). */
#define MS_SNAPSHOT_RANKS 1000u
uint64_t ms_summary_snapshot_ns(uint32_t flush_ms, int ranks);

#endif
