/* Canonical region names: see region_name.h. */
#include "region_name.h"

#include <inttypes.h>
#include <stdio.h>

size_t ms_region_format(char *buf, size_t cap, const ms_region_fields *f)
{
    int n = snprintf(buf, cap,
                     "mpi:%s kind=%s bytes=%" PRId64 " peer=%" PRId32 " root=%" PRId32
                     " tag=%" PRId32 " comm=%" PRId64 "%s%s",
                     f->op, f->kind, f->bytes, f->peer, f->root, f->tag, f->comm,
                     f->request ? " request=" : "", f->request ? f->request : "");
    if (n < 0)
        return 0;
    if (f->has_file) {
        size_t at = (size_t)n < cap ? (size_t)n : (cap ? cap - 1 : 0);
        int m = snprintf(cap ? buf + at : buf, cap ? cap - at : 0, " file=%" PRId64, f->file);
        if (m > 0)
            n += m;
    }
    return (size_t)n;
}
