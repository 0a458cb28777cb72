/*
 * Growing an array of the analyses (the wait-state facts and sums, the
 * root causes): doubling, the new room zeroed.
 */
#ifndef MPISCOPE_GROW_H
#define MPISCOPE_GROW_H

#include <stdlib.h>
#include <string.h>

/* *v (of *cap elements of `size` bytes) made room for `need`: 0, or -1
 * when out of memory (*v as it was). */
static inline int ms_grow(void **v, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *p = realloc(*v, c * size);
    if (!p)
        return -1;
    memset((char *)p + *cap * size, 0, (c - *cap) * size);
    *v = p;
    *cap = c;
    return 0;
}

#endif
