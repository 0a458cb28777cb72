/*
 * Writing one rank's log file: open safely, write the header block, data
 * blocks and the end block, each as its own zstd frame with a content
 * checksum. No MPI dependency: tests and the log synthesizer link it too.
 * Not thread-safe: one writer owns an ms_log. Once open, writing and
 * ms_log_finish never allocate and call only async-signal-safe functions,
 * so a signal handler that owns the log may write it.
 */
#ifndef MPISCOPE_LOG_FILE_H
#define MPISCOPE_LOG_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/log_format.h"

typedef struct ms_log {
    int fd;
    int failed;            /* a write failed: later writes are skipped */
    int saved_errno;
    void *cctx;            /* ZSTD_CCtx, static: never allocates */
    void *cctx_mem;        /* its workspace */
    uint8_t *scratch;      /* block header + payload staging, then frame */
    size_t scratch_cap;
    size_t max_payload;
    uint64_t bytes_written;
    void *dctx;            /* ZSTD_DCtx of ms_log_read_back, made at its first call */
} ms_log;

/* Create `path` (never follows a symlink, never overwrites; mode 0666 less
 * the umask) and allocate buffers for payloads up to max_payload bytes.
 * Returns 0, or -1 with errno set. */
int ms_log_open(ms_log *log, const char *path, size_t max_payload, int level);

/* The same, for `name` in the directory open as dirfd (or AT_FDCWD). */
int ms_log_open_at(ms_log *log, int dirfd, const char *name, size_t max_payload, int level);

/* Header block: h, the clock info (NULL: nanoseconds of CLOCK_MONOTONIC),
 * then the strings ("key=value"). */
int ms_log_write_header(ms_log *log, const ms_file_header *h, const ms_clock_info *clock,
                        const char *const *strings, unsigned n);

/* One block of any kind; payload may be NULL when len is 0. A write that
 * fails is cut back to the previous frame boundary, so that the file always
 * ends with a complete frame. After a lack of room (ENOSPC, EDQUOT, EFBIG)
 * later writes try again; after any other failure they are skipped. */
int ms_log_write_block(ms_log *log, uint16_t kind, uint32_t thread, const void *payload, size_t len);

/* Whether errno value e means a lack of room (ENOSPC, EDQUOT, EFBIG): a
 * full disk, a quota, a size limit, which may pass. */
int ms_log_no_room(int e);

/* Read back the blocks this log wrote whose frames start at file offsets
 * from `from` (a frame boundary) up to `to` (UINT64_MAX: to the end):
 * fn(ctx, kind, thread, payload, length) for each, in order; *reached (when
 * not NULL) is the offset after the last frame read. Uses the log's
 * buffers (never while a block is being written); its first call
 * allocates a decompression context, kept until ms_log_close. Returns 0, fn's first non-zero value, or -1 with
 * errno set when a frame cannot be read back. */
typedef int (*ms_log_block_fn)(void *ctx, uint16_t kind, uint32_t thread, const uint8_t *p, size_t n);
int ms_log_read_back(ms_log *log, uint64_t from, uint64_t to, ms_log_block_fn fn, void *ctx, uint64_t *reached);

/* Write the end block when end != NULL, then close. Frees everything. */
int ms_log_close(ms_log *log, const ms_end_record *end);

/* Write the end block when end != NULL, then close the file but keep the
 * buffers (async-signal-safe; ms_log_close later frees them). */
int ms_log_finish(ms_log *log, const ms_end_record *end);

#endif
