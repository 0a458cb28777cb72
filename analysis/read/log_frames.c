/*
 * The zstd framing of a log (docs/FORMAT.md "Frames and blocks"): the file
 * is read as a stream, frame by frame, into a buffer that grows up to the
 * largest frame a writer can produce; each frame is checked (zstd content
 * checksum, content size) and decompressed before its block is decoded.
 * Also the probe for the end block in the file's last frame.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd_errors.h>

#include "log_reader_int.h"

/* Largest zstd frame header (RFC 8878 section 3.1.1.1). */
#define FRAME_HEADER_MAX 18u
/* The frame header descriptor's Content_Checksum_flag. */
#define FHD_CHECKSUM 0x04u
#define BLOCK_CONTENT_MAX ((size_t)MS_MAX_BLOCK_PAYLOAD + sizeof(ms_block_header))
#define READ_BUF_MIN (256u * 1024u)
/* Bytes at the end of a file searched for the end block's frame. */
#define TAIL_PROBE 512u

static const uint8_t zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

/* Checks that can be made once a frame's header is in (or as much of it as
 * the file has): zstd magic, checksum flag, content size. Returns OK, or a
 * failure; *content is set when the size is known. */
static ms_read_status check_frame_start(ms_reader *r, const uint8_t *f, size_t avail, int first,
                                        unsigned long long *content)
{
    size_t m = avail < 4 ? avail : 4;
    if (memcmp(f, zstd_magic, m) != 0) {
        if (first)
            return ms_rd_fail(r, MS_READ_CORRUPT, r->frame_off,
                              "not an mpiscope log (no zstd frame at byte offset %" PRIu64 ")", r->frame_off);
        return ms_rd_corrupt_at(r, "not a zstd frame");
    }
    if (avail > 4 && !(f[4] & FHD_CHECKSUM)) {
        if (first)
            return ms_rd_fail(r, MS_READ_CORRUPT, r->frame_off,
                              "not an mpiscope log (the zstd frame at byte offset %" PRIu64
                              " has no content checksum)",
                              r->frame_off);
        return ms_rd_corrupt_at(r, "frame without a content checksum");
    }
    *content = ZSTD_CONTENTSIZE_UNKNOWN;
    if (avail >= FRAME_HEADER_MAX) {
        unsigned long long c = ZSTD_getFrameContentSize(f, avail);
        if (c == ZSTD_CONTENTSIZE_ERROR)
            return ms_rd_corrupt_at(r, "bad zstd frame header");
        if (c == ZSTD_CONTENTSIZE_UNKNOWN)
            return ms_rd_corrupt_at(r, "frame without a content size");
        if (c < sizeof(ms_block_header) || c > BLOCK_CONTENT_MAX)
            return ms_rd_corrupt_at(r, "frame content size out of range");
        *content = c;
    }
    return MS_READ_OK;
}

/* Decompress the whole frame [f, f + fsz) into r->out; *n: its content size. */
static ms_read_status inflate_frame(ms_reader *r, const uint8_t *f, size_t fsz, size_t *n)
{
    unsigned long long c = ZSTD_getFrameContentSize(f, fsz);
    if (c == ZSTD_CONTENTSIZE_ERROR || c == ZSTD_CONTENTSIZE_UNKNOWN || c < sizeof(ms_block_header) ||
        c > BLOCK_CONTENT_MAX)
        return ms_rd_corrupt_at(r, "bad frame content size");
    if (c > r->out_cap) {
        size_t cap = r->out_cap ? r->out_cap : 64u * 1024u;
        while (cap < c)
            cap *= 2;
        if (cap > BLOCK_CONTENT_MAX)
            cap = BLOCK_CONTENT_MAX;
        uint8_t *o = malloc(cap);
        if (!o)
            return ms_rd_nomem(r);
        free(r->out);
        r->out = o;
        r->out_cap = cap;
    }
    size_t d = ZSTD_decompressDCtx(r->dctx, r->out, (size_t)c, f, fsz);
    if (ZSTD_isError(d)) {
        char what[160];
        snprintf(what, sizeof what, "zstd: %s", ZSTD_getErrorName(d));
        return ms_rd_corrupt_at(r, what);
    }
    if (d != c)
        return ms_rd_corrupt_at(r, "frame content shorter than declared");
    *n = (size_t)c;
    return MS_READ_OK;
}

/* ---- the end block, found from the end of the file ---- */

void ms_rd_probe_end(ms_reader *r, int fd, off_t size)
{
    uint8_t buf[TAIL_PROBE];
    size_t n = size < (off_t)TAIL_PROBE ? (size_t)size : TAIL_PROBE;
    if (n < 8)
        return;
    ssize_t got;
    do
        got = pread(fd, buf, n, size - (off_t)n);
    while (got < 0 && errno == EINTR);
    if (got != (ssize_t)n)
        return;
    uint8_t out[sizeof(ms_block_header) + sizeof(ms_end_record)];
    const size_t sizes[] = {sizeof(ms_end_record), MS_END_RECORD_V1_SIZE};
    for (size_t pos = n - 4 + 1; pos-- > 0;) {
        if (memcmp(buf + pos, zstd_magic, 4) != 0)
            continue;
        size_t fsz = ZSTD_findFrameCompressedSize(buf + pos, n - pos);
        if (ZSTD_isError(fsz) || fsz != n - pos)
            continue;
        unsigned long long content = ZSTD_getFrameContentSize(buf + pos, fsz);
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t want = sizeof(ms_block_header) + sizes[k];
            if (content != want)
                continue;
            size_t d = ZSTD_decompressDCtx(r->dctx, out, want, buf + pos, fsz);
            if (ZSTD_isError(d) || d != want)
                continue;
            ms_block_header bh;
            memcpy(&bh, out, sizeof bh);
            if (bh.magic != MS_BLOCK_MAGIC || bh.kind != MS_BLOCK_END || bh.length != sizes[k])
                continue;
            memset(&r->end_hint, 0, sizeof r->end_hint);
            memcpy(&r->end_hint, out + sizeof bh, sizes[k]);
            r->hint_size = sizes[k];
            r->has_end_hint = 1;
            return;
        }
    }
}

/* ---- the stream ---- */

static size_t max_frame(void)
{
    return ZSTD_compressBound(BLOCK_CONTENT_MAX) + 64u;
}

/* Read more of the file after the unconsumed bytes [pos, len). */
static ms_read_status refill(ms_reader *r, int fd, size_t *pos, size_t *len, int *eof)
{
    if (*pos > 0) {
        memmove(r->in, r->in + *pos, *len - *pos);
        *len -= *pos;
        *pos = 0;
    }
    if (*len == r->in_cap) {
        size_t cap = r->in_cap ? r->in_cap * 2 : READ_BUF_MIN;
        if (cap > max_frame())
            cap = max_frame();
        uint8_t *in = realloc(r->in, cap);
        if (!in)
            return ms_rd_nomem(r);
        r->in = in;
        r->in_cap = cap;
    }
    for (;;) {
        ssize_t got = read(fd, r->in + *len, r->in_cap - *len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return ms_rd_fail(r, MS_READ_IO, r->frame_off, "read error at byte offset %" PRIu64 ": %s",
                              r->frame_off + (*len - *pos), strerror(errno));
        if (got == 0)
            *eof = 1;
        *len += (size_t)got;
        return MS_READ_OK;
    }
}

void ms_rd_frames_begin(ms_reader *r, ms_rd_frames *s, int fd)
{
    memset(s, 0, sizeof *s);
    s->fd = fd;
    r->frame_off = 0;
}

ms_read_status ms_rd_frames_next(ms_reader *r, ms_rd_frames *s, int first, int ended,
                                 const uint8_t **blk, size_t *n)
{
    *blk = NULL;
    *n = 0;
    for (;;) {
        size_t avail = s->len - s->pos;
        if (avail == 0 && s->eof)
            return MS_READ_OK;
        if (avail > 0 && ended)
            return ms_rd_fail(r, MS_READ_CORRUPT, r->frame_off,
                              "corrupt log: %" PRIu64 " bytes of trailing data after the end block, "
                              "from byte offset %" PRIu64,
                              r->file_size > r->frame_off ? r->file_size - r->frame_off : (uint64_t)avail,
                              r->frame_off);
        if (avail > 0) {
            const uint8_t *f = r->in + s->pos;
            unsigned long long content;
            ms_read_status st = check_frame_start(r, f, avail, first, &content);
            if (st != MS_READ_OK)
                return st;
            size_t fsz = ZSTD_findFrameCompressedSize(f, avail);
            if (!ZSTD_isError(fsz)) {
                st = inflate_frame(r, f, fsz, n);
                if (st != MS_READ_OK)
                    return st;
                s->fsz = fsz;
                *blk = r->out;
                return MS_READ_OK;
            }
            if (ZSTD_getErrorCode(fsz) != ZSTD_error_srcSize_wrong) {
                char what[160];
                snprintf(what, sizeof what, "zstd: %s", ZSTD_getErrorName(fsz));
                return ms_rd_corrupt_at(r, what);
            }
            /* A file whose last frame is a valid end block is complete:
             * a frame that seems cut short there is a damaged one. */
            if (s->eof && r->has_end_hint)
                return ms_rd_corrupt_at(r, "damaged frame (its sizes run past the end of the file)");
            if (s->eof)
                return ms_rd_fail(r, MS_READ_TRUNCATED, r->frame_off,
                                  "truncated: the frame at byte offset %" PRIu64
                                  " is cut short (%zu of its bytes present)",
                                  r->frame_off, avail);
            if (avail >= max_frame())
                return ms_rd_corrupt_at(r, "frame larger than the format allows");
        }
        ms_read_status st = refill(r, s->fd, &s->pos, &s->len, &s->eof);
        if (st != MS_READ_OK)
            return st;
    }
}

void ms_rd_frames_consumed(ms_reader *r, ms_rd_frames *s)
{
    r->res->frames++;
    s->pos += s->fsz;
    r->frame_off += s->fsz;
    s->fsz = 0;
}
