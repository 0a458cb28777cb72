/* The wire format's values: see wire.h. */
#include "wire.h"

#include <stdlib.h>

void ms_pbuf_free(ms_pbuf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

unsigned char *ms_pbuf_room(ms_pbuf *b, size_t n)
{
    if (b->nomem)
        return NULL;
    if (n > b->cap - b->n) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->n < n) {
            if (cap > SIZE_MAX / 2) {
                b->nomem = 1;
                return NULL;
            }
            cap *= 2;
        }
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->nomem = 1;
            return NULL;
        }
        b->p = p;
        b->cap = cap;
    }
    unsigned char *o = b->p + b->n;
    b->n += n;
    return o;
}

int ms_pbuf_put(ms_pbuf *b, const void *v, size_t n)
{
    unsigned char *o = ms_pbuf_room(b, n);
    if (!o)
        return -1;
    if (n)
        memcpy(o, v, n);
    return 0;
}

void ms_wire_str(ms_pbuf *b, const char *s)
{
    if (!s) {
        ms_wire_u64(b, MS_WIRE_NO_STR);
        return;
    }
    size_t n = strlen(s);
    ms_wire_u64(b, n);
    ms_pbuf_put(b, s, n);
}

char *ms_wire_get_str(ms_wire_in *r)
{
    uint64_t n = ms_wire_get_u64(r);
    if (n == MS_WIRE_NO_STR || !ms_wire_ok(r))
        return NULL;
    if (n > r->n - r->off || memchr(r->p + r->off, '\0', (size_t)n)) {
        r->bad = 1;  /* cut short, or a NUL inside: not a string this side wrote */
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->nomem = 1;
        return NULL;
    }
    memcpy(s, r->p + r->off, (size_t)n);
    s[n] = 0;
    r->off += (size_t)n;
    return s;
}

char *ms_wire_get_str_nn(ms_wire_in *r)
{
    char *s = ms_wire_get_str(r);
    if (!s && !r->nomem)
        r->bad = 1;
    return s;
}

size_t ms_wire_get_count(ms_wire_in *r, size_t min_bytes)
{
    uint64_t n = ms_wire_get_u64(r);
    if (!ms_wire_ok(r))
        return 0;
    if (n > (r->n - r->off) / (min_bytes ? min_bytes : 1)) {
        r->bad = 1;
        return 0;
    }
    return (size_t)n;
}

uint32_t ms_wire_get_u32_max(ms_wire_in *r, uint32_t max)
{
    uint32_t v = ms_wire_get_u32(r);
    if (v > max) {
        r->bad = 1;
        return 0;
    }
    return v;
}
