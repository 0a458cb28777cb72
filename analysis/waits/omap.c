/* The replay's small tables: see omap.h. */
#include "omap.h"

#include <stdlib.h>
#include <string.h>

static size_t ohash(const ms_okey *k)
{
    uint64_t h = (uint64_t)k->a * 0x9e3779b97f4a7c15ull;
    h ^= (uint64_t)k->b * 0xc2b2ae3d27d4eb4full;
    h ^= (uint64_t)k->c * 0x165667b19e3779f9ull;
    return (size_t)(h ^ (h >> 31));
}

static int osame(const ms_okey *x, const ms_okey *y)
{
    return x->a == y->a && x->b == y->b && x->c == y->c;
}

void ms_omap_free(ms_omap *m)
{
    free(m->k);
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* Where k is, or the empty place where it would go. */
static size_t ofind(const ms_omap *m, const ms_okey *k)
{
    size_t j = ohash(k) & (m->cap - 1);
    while (m->v[j] && !osame(&m->k[j], k))
        j = (j + 1) & (m->cap - 1);
    return j;
}

static int ogrow(ms_omap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    ms_okey *k = malloc(cap * sizeof *k);
    uint32_t *v = calloc(cap, sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    ms_omap old = *m;
    m->k = k;
    m->v = v;
    m->cap = cap;
    for (size_t i = 0; i < old.cap; i++)
        if (old.v[i]) {
            size_t j = ofind(m, &old.k[i]);
            m->k[j] = old.k[i];
            m->v[j] = old.v[i];
        }
    free(old.k);
    free(old.v);
    return 0;
}

uint32_t ms_omap_get(const ms_omap *m, const ms_okey *k)
{
    if (!m->cap)
        return UINT32_MAX;
    size_t j = ofind(m, k);
    return m->v[j] ? m->v[j] - 1 : UINT32_MAX;
}

int ms_omap_put(ms_omap *m, const ms_okey *k, uint32_t slot)
{
    if ((m->n + 1) * 2 > m->cap && ogrow(m) != 0)
        return -1;
    size_t j = ofind(m, k);
    m->n += !m->v[j];
    m->k[j] = *k;
    m->v[j] = slot + 1;
    return 0;
}

void ms_omap_del(ms_omap *m, const ms_okey *k)
{
    size_t mask = m->cap - 1, i = ofind(m, k);
    m->v[i] = 0;
    m->n--;
    for (size_t j = (i + 1) & mask; m->v[j]; j = (j + 1) & mask) {
        size_t h = ohash(&m->k[j]) & mask;
        /* Move j to i when its home is not in (i, j]. */
        if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
            m->k[i] = m->k[j];
            m->v[i] = m->v[j];
            m->v[j] = 0;
            i = j;
        }
    }
}

uint32_t ms_pool_take(ms_pool *p)
{
    if (p->nfree)
        return p->free[--p->nfree];
    if (p->n == p->cap) {
        size_t c = p->cap ? p->cap * 2 : 64;
        void *v = realloc(p->v, c * p->size);
        if (!v)
            return UINT32_MAX;
        p->v = v;
        p->cap = c;
    }
    memset((char *)p->v + p->n * p->size, 0, p->size);
    return (uint32_t)p->n++;
}

int ms_pool_give(ms_pool *p, uint32_t i)
{
    if (p->nfree == p->free_cap) {
        size_t c = p->free_cap ? p->free_cap * 2 : 64;
        uint32_t *v = realloc(p->free, c * sizeof *v);
        if (!v)
            return -1;
        p->free = v;
        p->free_cap = c;
    }
    p->free[p->nfree++] = i;
    memset((char *)p->v + (size_t)i * p->size, 0, p->size);
    return 0;
}

void ms_pool_free(ms_pool *p)
{
    free(p->v);
    free(p->free);
    memset(p, 0, sizeof *p);
}
