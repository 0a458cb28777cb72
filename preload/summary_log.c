/* Summary mode's log file: see summary_log.h. */
#include "summary_log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ms_summary_log_init(ms_summary_log *sl, const ms_log *log, int dirfd, const char *name)
{
    memset(sl, 0, sizeof *sl);
    sl->dirfd = -1;
    snprintf(sl->name, sizeof sl->name, "%s", name);
    sl->header_len = (size_t)log->bytes_written;
    sl->header = malloc(sl->header_len ? sl->header_len : 1);
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (!sl->header || fd < 0) {
        int e = sl->header ? errno : ENOMEM;
        if (fd >= 0)
            close(fd);
        ms_summary_log_free(sl);
        errno = e;
        return -1;
    }
    ssize_t got = pread(fd, sl->header, sl->header_len, 0);
    close(fd);
    sl->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
    if (got != (ssize_t)sl->header_len || sl->dirfd < 0) {
        ms_summary_log_free(sl);
        errno = EIO;
        return -1;
    }
    return 0;
}

void ms_summary_log_free(ms_summary_log *sl)
{
    free(sl->header);
    if (sl->dirfd >= 0)
        close(sl->dirfd);
    memset(sl, 0, sizeof *sl);
    sl->dirfd = -1;
}

static int emit(void *ctx, uint32_t thread, const uint8_t *p, size_t n)
{
    return ms_log_write_block(ctx, MS_BLOCK_DATA, thread, p, n);
}

int ms_summary_log_write(ms_summary_log *sl, ms_log *log, const ms_sum *sum, uint8_t *buf,
                         const ms_clock_sample *clock, const ms_end_record *end)
{
    if (log->fd < 0 || sl->dirfd < 0) {
        errno = EBADF;
        return -1;
    }
    char tmp[sizeof sl->name + 8];
    snprintf(tmp, sizeof tmp, "%s.new", sl->name);
    /* A new file every time, never opened through what is there: a stale
     * one of ours (a rank killed between write and rename) or anything
     * planted in its place (a link, a FIFO, which would block the writer)
     * is removed first; one that cannot be removed is refused (O_EXCL). */
    if (unlinkat(sl->dirfd, tmp, 0) != 0 && errno != ENOENT && errno != EISDIR)
        return -1;
    int fd = openat(sl->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0)
        return -1;
    /* The same compressor and buffers, another file. */
    ms_log w = *log;
    w.fd = fd;
    w.failed = 0;
    w.saved_errno = 0;
    w.bytes_written = 0;
    const uint8_t *p = sl->header;
    size_t left = sl->header_len;
    int rc = 0;
    while (left > 0) {
        ssize_t k = write(fd, p, left);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            rc = -1;
            break;
        }
        p += k;
        left -= (size_t)k;
    }
    w.bytes_written = sl->header_len - left;
    if (rc == 0)
        rc = ms_log_write_block(&w, MS_BLOCK_CLOCK, 0, clock, sizeof *clock);
    if (rc == 0)
        rc = ms_sum_write(sum, emit, &w, buf);
    if (rc == 0 && sl->has_ending)
        rc = ms_log_write_block(&w, MS_BLOCK_ENDING, 0, &sl->ending, sizeof sl->ending);
    if (rc == 0 && end)
        rc = ms_log_write_block(&w, MS_BLOCK_END, 0, end, sizeof *end);
    if (rc == 0 && renameat(sl->dirfd, tmp, sl->dirfd, sl->name) != 0)
        rc = -1;
    if (rc != 0) {
        int e = w.saved_errno ? w.saved_errno : errno;
        close(fd);
        unlinkat(sl->dirfd, tmp, 0);
        errno = e;
        return -1;
    }
    close(log->fd);
    log->fd = fd;
    sl->snapshots++;
    log->bytes_written = w.bytes_written;
    /* A fresh, complete file: an earlier failed append is behind us. */
    log->failed = 0;
    log->saved_errno = 0;
    if (end)
        return ms_log_finish(log, NULL);
    return 0;
}

uint64_t ms_summary_snapshot_ns(uint32_t flush_ms, int ranks)
{
    uint64_t n = ranks > 0 ? (uint64_t)ranks : 1;
    return (uint64_t)flush_ms * 1000000u * ((n + MS_SNAPSHOT_RANKS - 1) / MS_SNAPSHOT_RANKS);
}
