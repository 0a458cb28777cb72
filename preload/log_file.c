/* Log file writer: see log_file.h. */
#include "log_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* ZSTD_initStaticCCtx: a compressor that never allocates after open. */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += (size_t)w;
        n -= (size_t)w;
    }
    return 0;
}

static void free_buffers(ms_log *log)
{
    free(log->scratch);
    free(log->cctx_mem);
    ZSTD_freeDCtx(log->dctx);
    log->dctx = NULL;
    log->scratch = NULL;
    log->cctx_mem = NULL;
    log->cctx = NULL;
}

int ms_log_open_at(ms_log *log, int dirfd, const char *name, size_t max_payload, int level)
{
    memset(log, 0, sizeof *log);
    log->fd = -1;
    if (max_payload > MS_MAX_BLOCK_PAYLOAD)
        max_payload = MS_MAX_BLOCK_PAYLOAD;
    log->max_payload = max_payload;
    size_t staged = sizeof(ms_block_header) + max_payload;
    log->scratch_cap = staged + ZSTD_compressBound(staged);
    log->scratch = malloc(log->scratch_cap);
    /* Sized for the largest frame: smaller frames need less. */
    size_t cctx_size = ZSTD_estimateCCtxSize_usingCParams(ZSTD_getCParams(level, staged, 0));
    log->cctx_mem = malloc(cctx_size);
    log->cctx = log->cctx_mem ? ZSTD_initStaticCCtx(log->cctx_mem, cctx_size) : NULL;
    if (!log->scratch || !log->cctx) {
        free_buffers(log);
        errno = ENOMEM;
        return -1;
    }
    if (ZSTD_isError(ZSTD_CCtx_setParameter(log->cctx, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(log->cctx, ZSTD_c_checksumFlag, 1)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(log->cctx, ZSTD_c_contentSizeFlag, 1))) {
        free_buffers(log);
        errno = EINVAL;
        return -1;
    }
    /* Read and write: the writer may read its own frames back (ms_log_read_back). */
    log->fd = openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (log->fd < 0) {
        int e = errno;
        free_buffers(log);
        errno = e;
        return -1;
    }
    return 0;
}

int ms_log_open(ms_log *log, const char *path, size_t max_payload, int level)
{
    return ms_log_open_at(log, AT_FDCWD, path, max_payload, level);
}

int ms_log_no_room(int e)
{
    return e == ENOSPC || e == EDQUOT || e == EFBIG;
}

int ms_log_write_block(ms_log *log, uint16_t kind, uint32_t thread, const void *payload, size_t len)
{
    if (log->fd < 0 || log->failed)
        return -1;
    if (len > log->max_payload) {
        errno = EMSGSIZE;
        return -1;
    }
    ms_block_header bh = {.magic = MS_BLOCK_MAGIC, .kind = kind, .flags = 0,
                          .thread = thread, .length = (uint32_t)len};
    size_t staged = sizeof bh + len;
    memcpy(log->scratch, &bh, sizeof bh);
    if (len)
        memcpy(log->scratch + sizeof bh, payload, len);
    uint8_t *dst = log->scratch + staged;
    size_t r = ZSTD_compress2(log->cctx, dst, log->scratch_cap - staged, log->scratch, staged);
    if (ZSTD_isError(r)) {
        log->failed = 1;
        log->saved_errno = EIO;
        errno = EIO;
        return -1;
    }
    if (write_all(log->fd, dst, r) != 0) {
        /* No room (a full disk, a quota, a size limit) may pass: later
         * writes try again. Any other failure is for good. */
        log->saved_errno = errno;
        if (!ms_log_no_room(errno))
            log->failed = 1;
        /* Drop the partial frame (a full disk): the file keeps ending at a
         * frame boundary, with everything written before intact. */
        if (ftruncate(log->fd, (off_t)log->bytes_written) != 0) {
            /* The reader still uses every complete frame before the cut. */
        }
        /* The next frame goes right after the last complete one (not
         * after a hole where the partial frame was). */
        if (lseek(log->fd, (off_t)log->bytes_written, SEEK_SET) < 0)
            log->failed = 1;
        errno = log->saved_errno;
        return -1;
    }
    log->bytes_written += r;
    return 0;
}

int ms_log_write_header(ms_log *log, const ms_file_header *h, const ms_clock_info *clock,
                        const char *const *strings, unsigned n)
{
    ms_clock_info ns_clock = {.kind = MS_CLOCK_NS, .ticks_ref = h->clock_ref_ns, .ticks_per_ns = 1.0};
    if (!clock)
        clock = &ns_clock;
    size_t len = sizeof *h + sizeof *clock;
    for (unsigned i = 0; i < n; i++)
        len += 4 + strlen(strings[i]);
    if (len > log->max_payload) {
        errno = EMSGSIZE;
        return -1;
    }
    /* The header is written once per run: a plain allocation is fine. */
    uint8_t *buf = malloc(len);
    if (!buf) {
        errno = ENOMEM;
        return -1;
    }
    ms_file_header hh = *h;
    hh.nstrings = n;
    memcpy(buf, &hh, sizeof hh);
    memcpy(buf + sizeof hh, clock, sizeof *clock);
    size_t off = sizeof hh + sizeof *clock;
    for (unsigned i = 0; i < n; i++) {
        uint32_t sl = (uint32_t)strlen(strings[i]);
        memcpy(buf + off, &sl, 4);
        memcpy(buf + off + 4, strings[i], sl);
        off += 4 + sl;
    }
    int rc = ms_log_write_block(log, MS_BLOCK_HEADER, 0, buf, len);
    free(buf);
    return rc;
}

int ms_log_read_back(ms_log *log, uint64_t from, uint64_t to, ms_log_block_fn fn, void *ctx, uint64_t *reached)
{
    if (log->fd < 0 || !log->scratch) {
        errno = EBADF;
        return -1;
    }
    /* scratch: the decompressed block first, the frame read after it (the
     * frames were compressed into the same places). */
    size_t staged_max = sizeof(ms_block_header) + log->max_payload;
    uint8_t *frame = log->scratch + staged_max;
    size_t frame_cap = log->scratch_cap - staged_max;
    if (!log->dctx)
        log->dctx = ZSTD_createDCtx();
    ZSTD_DCtx *dctx = log->dctx;
    if (!dctx) {
        errno = ENOMEM;
        return -1;
    }
    int rc = 0;
    uint64_t off = from;
    if (to > log->bytes_written)
        to = log->bytes_written;
    while (rc == 0 && off < to) {
        uint64_t left = log->bytes_written - off;
        size_t want = left < frame_cap ? (size_t)left : frame_cap;
        ssize_t got = pread(log->fd, frame, want, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        size_t fsz = got > 0 ? ZSTD_findFrameCompressedSize(frame, (size_t)got) : 0;
        size_t n = got > 0 && !ZSTD_isError(fsz) ? ZSTD_decompressDCtx(dctx, log->scratch, staged_max, frame, fsz) : 0;
        ms_block_header bh;
        if (got <= 0 || ZSTD_isError(fsz) || ZSTD_isError(n) || n < sizeof bh) {
            errno = got < 0 ? errno : EIO;
            rc = -1;
            break;
        }
        memcpy(&bh, log->scratch, sizeof bh);
        if (bh.magic != MS_BLOCK_MAGIC || bh.length != n - sizeof bh) {
            errno = EIO;
            rc = -1;
            break;
        }
        rc = fn(ctx, bh.kind, bh.thread, log->scratch + sizeof bh, bh.length);
        off += fsz;
    }
    if (reached)
        *reached = off;
    return rc;
}

int ms_log_finish(ms_log *log, const ms_end_record *end)
{
    int rc = 0;
    if (end && ms_log_write_block(log, MS_BLOCK_END, 0, end, sizeof *end) != 0)
        rc = -1;
    if (log->fd >= 0 && close(log->fd) != 0)
        rc = -1;
    log->fd = -1;
    return rc;
}

int ms_log_close(ms_log *log, const ms_end_record *end)
{
    int rc = ms_log_finish(log, end);
    free_buffers(log);
    return rc;
}
