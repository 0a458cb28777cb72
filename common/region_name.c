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
    return n < 0 ? 0 : (size_t)n;
}
