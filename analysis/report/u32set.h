/*
 * A small sorted set of 32-bit values (thread indices of a log), grown as
 * values are added: for sets of a few entries, looked up on every event.
 */
#ifndef MPISCOPE_U32SET_H
#define MPISCOPE_U32SET_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct ms_u32set {
    uint32_t *v;       /* ascending */
    size_t n, cap;
} ms_u32set;

/* Add x: 1 when it was new, 0 when already there, -1 when out of memory. */
static inline int ms_u32set_add(ms_u32set *s, uint32_t x)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->n && s->v[lo] == x)
        return 0;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        uint32_t *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    memmove(s->v + lo + 1, s->v + lo, (s->n - lo) * sizeof *s->v);
    s->v[lo] = x;
    s->n++;
    return 1;
}

#endif
