/*
 * How a read of a log fails: the status, the byte offset at fault and a
 * message that names the file, all in the read's ms_read_result.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "log_reader_int.h"

__attribute__((format(printf, 4, 5)))
ms_read_status ms_rd_fail(ms_reader *r, ms_read_status st, uint64_t off, const char *fmt, ...)
{
    ms_read_result *res = r->res;
    res->status = st;
    res->offset = off;
    int n = snprintf(res->message, sizeof res->message, "%s: ", r->path);
    if (n < 0 || (size_t)n >= sizeof res->message)
        return st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->message + n, sizeof res->message - (size_t)n, fmt, ap);
    va_end(ap);
    return st;
}

ms_read_status ms_rd_corrupt_at(ms_reader *r, const char *what)
{
    return ms_rd_fail(r, MS_READ_CORRUPT, r->frame_off, "corrupt log: %s in the frame at byte offset %" PRIu64,
                      what, r->frame_off);
}

ms_read_status ms_rd_stopped(ms_reader *r)
{
    return ms_rd_fail(r, MS_READ_STOPPED, r->frame_off, "reading stopped by the consumer at byte offset %" PRIu64,
                      r->frame_off);
}

ms_read_status ms_rd_nomem(ms_reader *r)
{
    return ms_rd_fail(r, MS_READ_NOMEM, r->frame_off, "out of memory at byte offset %" PRIu64, r->frame_off);
}
