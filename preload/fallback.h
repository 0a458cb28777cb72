/*
 * A trace-mode log on a full disk (docs/RELIABILITY.md, "A full disk"):
 * the writer thread writes each thread's records through here.
 *
 * - What fits is written: a data block that cannot be written for lack of
 *   space (ENOSPC, EDQUOT, EFBIG) is written again as smaller blocks cut at
 *   record boundaries, halving down to MS_FB_MIN_BLOCK bytes, each a
 *   complete, checksummed frame; the log always ends at a frame boundary.
 *   A block is never cut between an event and the message records before
 *   it, so both are written, or both folded.
 * - The rest is folded into the aggregates of summary mode (summary.h):
 *   the writer follows the records it wrote (region definitions, call
 *   sites, time cursors, live requests), so that it can count what it
 *   cannot write, in memory bounded by regions x threads plus the live
 *   requests. Following costs the writer about as much as compressing, so
 *   it waits while the log has room: once the log's file system has less
 *   than MS_FB_FOLLOW_BELOW bytes free (or its file size limit is that
 *   close; looked at every 4 MiB written), the writer reads back what it
 *   wrote so far, a slice of 256 KiB after each block it writes, and then
 *   follows each block as it writes it. A write that lacks room first (a
 *   quota, a disk filled faster than that) reads the rest back at once,
 *   before it folds. Every later flush tries the trace
 *   again once MS_FB_RESUME_ROOM bytes are free: space is often freed, and
 *   less than that is most likely the reserves other ranks of the node gave
 *   back at their end, for their aggregates (below), which a trace going on
 *   would take from them. A thread's first block after a gap starts
 *   with a time record, so its events keep their times. Folded calls lose
 *   their message records.
 * - At the end, when anything was folded, the aggregates are written after
 *   the trace as summary records (the merge adds them to the counts). A
 *   reserve file made at start (MS_FB_RESERVE bytes, ".rank-NNNNNN.reserve"
 *   in the log directory; none when less than twice that is free) is
 *   given back to make room for them.
 *
 * Used by the owner of the log only (writer.c's ms_writer_log_take), never from a
 * signal handler except ms_fb_write with quiet set, which never allocates.
 */
#ifndef MPISCOPE_FALLBACK_H
#define MPISCOPE_FALLBACK_H

#include <stddef.h>
#include <stdint.h>

#include "log_file.h"
#include "summary.h"

#define MS_FB_MIN_BLOCK 512u
#define MS_FB_RESERVE (32u * 1024u)
/* Free room from which a thread's trace goes on after a gap: the reserves
 * of 64 ranks. */
#define MS_FB_RESUME_ROOM (64u * MS_FB_RESERVE)
#define MS_FB_FOLLOW_BELOW (1ull << 30)

/* Start following a trace-mode log (named `name` in dirfd), once less
 * than `below` bytes of room are left (MS_FB_FOLLOW_BELOW; 0:
 * only once a write lacks room): 0, or -1 when out of memory (a full disk
 * then loses what cannot be written). */
int ms_fb_init(const ms_sum_clock *clock, uint64_t init_end, size_t block_max, int dirfd, const char *name,
               uint64_t below);
void ms_fb_free(void);

/* Write thread `thread`'s records [p, p + n) (whole records) to the log, or
 * as much of them as fits; fold the rest. quiet (a signal handler): never
 * allocate; what cannot be written is returned as lost. Returns the events
 * neither written nor folded (0 normally). */
uint64_t ms_fb_write(ms_log *log, uint32_t thread, const uint8_t *p, size_t n, int quiet);

/* How the writer follows the log: not yet (MS_FB_LAZY), reading back what
 * it wrote, a slice after each write (MS_FB_CATCHING), or each block as it
 * writes it (MS_FB_EAGER). */
enum { MS_FB_LAZY, MS_FB_CATCHING, MS_FB_EAGER };
int ms_fb_following(void);

/* Whether anything was folded. */
int ms_fb_folded(void);

/* At the end (finalize_start: 0 if none): write the aggregates of what was
 * folded after the trace, using buf (block_max bytes). 0, or -1 when they
 * could not be written (errno set). */
int ms_fb_finish(ms_log *log, uint64_t finalize_start, uint8_t *buf);

#endif
