/* Region name parsing: see region_parse.h. */
#include "region_parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ms_region_is_mpi(const char *name, size_t len)
{
    return len >= 4 && memcmp(name, "mpi:", 4) == 0;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int copy_field(char *dst, const char *s, size_t len)
{
    if (len >= MS_FIELD_MAX)
        return -1;
    memcpy(dst, s, len);
    dst[len] = '\0';
    return 0;
}

/* A decimal integer with an optional sign, the whole of s[0..len). */
static int parse_int(const char *s, size_t len, int64_t lo, int64_t hi, int64_t *out)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    size_t i = (buf[0] == '-' || buf[0] == '+') ? 1 : 0;
    if (buf[i] == '\0')
        return -1;
    for (size_t k = i; buf[k]; k++)
        if (buf[k] < '0' || buf[k] > '9')
            return -1;
    errno = 0;
    char *end;
    long long v = strtoll(buf, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

enum { F_KIND = 1, F_BYTES = 2, F_PEER = 4, F_ROOT = 8, F_TAG = 16, F_COMM = 32,
       F_REQUIRED = 63 };

static int parse_fields(const char *name, ms_region_info *o)
{
    const char *p = name + 4;
    const char *e = p;
    while (*e && !is_space(*e))
        e++;
    if (copy_field(o->op, p, (size_t)(e - p)) != 0)
        return -1;
    unsigned seen = 0;
    o->file = -1;
    for (p = e;;) {
        while (*p && is_space(*p))
            p++;
        if (!*p)
            break;
        e = p;
        while (*e && !is_space(*e))
            e++;
        const char *eq = memchr(p, '=', (size_t)(e - p));
        if (!eq)
            return -1;
        size_t klen = (size_t)(eq - p);
        const char *v = eq + 1;
        size_t vlen = (size_t)(e - v);
#define KEY(k) (klen == sizeof(k) - 1 && memcmp(p, k, klen) == 0)
        int rc = 0;
        if (KEY("kind")) {
            rc = copy_field(o->kind, v, vlen);
            seen |= F_KIND;
        } else if (KEY("bytes")) {
            rc = parse_int(v, vlen, INT64_MIN, INT64_MAX, &o->bytes);
            seen |= F_BYTES;
        } else if (KEY("peer")) {
            rc = parse_int(v, vlen, INT32_MIN, INT32_MAX, &o->peer);
            seen |= F_PEER;
        } else if (KEY("root")) {
            rc = parse_int(v, vlen, INT32_MIN, INT32_MAX, &o->root);
            seen |= F_ROOT;
        } else if (KEY("tag")) {
            rc = parse_int(v, vlen, INT32_MIN, INT32_MAX, &o->tag);
            seen |= F_TAG;
        } else if (KEY("comm")) {
            rc = parse_int(v, vlen, INT64_MIN, INT64_MAX, &o->comm);
            seen |= F_COMM;
        } else if (KEY("request")) {
            rc = copy_field(o->request, v, vlen);
        } else if (KEY("file")) {
            rc = parse_int(v, vlen, 0, INT32_MAX, &o->file);
        }
#undef KEY
        if (rc != 0)
            return -1;
        p = e;
    }
    return seen == F_REQUIRED ? 0 : -1;
}

int ms_region_parse(const char *name, ms_region_info *out)
{
    memset(out, 0, sizeof *out);
    if (!ms_region_is_mpi(name, strlen(name)))
        return 0;
    if (parse_fields(name, out) != 0) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    out->is_mpi = 1;
    return 1;
}
