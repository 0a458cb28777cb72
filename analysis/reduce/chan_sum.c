/* Channels summed by key: see chan_sum.h. */
#include "chan_sum.h"

#include <stdlib.h>
#include <string.h>

void ms_chan_sum_init(ms_chan_sum *s)
{
    memset(s, 0, sizeof *s);
}

void ms_chan_sum_free(ms_chan_sum *s)
{
    free(s->v);
    free(s->slots);
    ms_chan_sum_init(s);
}

static size_t hash(const ms_p2p_chan *c)
{
    uint64_t h = ((uint64_t)(uint32_t)c->rank << 32 | (uint32_t)c->dir) * 0x9e3779b97f4a7c15ull;
    h ^= (uint64_t)c->comm * 0xc2b2ae3d27d4eb4full;
    h ^= (uint64_t)c->peer * 0x165667b19e3779f9ull;
    h ^= (uint64_t)c->tag * 0x85ebca77c2b2ae63ull;
    return (size_t)(h ^ (h >> 29));
}

static int same(const ms_p2p_chan *x, const ms_p2p_chan *y)
{
    return x->rank == y->rank && x->dir == y->dir && x->comm == y->comm && x->peer == y->peer && x->tag == y->tag;
}

static int rehash(ms_chan_sum *s, size_t nslots)
{
    uint32_t *t = calloc(nslots, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        size_t j = hash(&s->v[i]) & (nslots - 1);
        while (t[j])
            j = (j + 1) & (nslots - 1);
        t[j] = (uint32_t)i + 1;
    }
    free(s->slots);
    s->slots = t;
    s->nslots = nslots;
    return 0;
}

int ms_chan_sum_add(ms_chan_sum *s, const ms_p2p_chan *c)
{
    size_t j = 0;
    if (s->nslots) {
        for (j = hash(c) & (s->nslots - 1); s->slots[j]; j = (j + 1) & (s->nslots - 1)) {
            ms_p2p_chan *e = &s->v[s->slots[j] - 1];
            if (same(e, c)) {
                e->calls += c->calls;
                e->bytes += c->bytes;
                return 0;
            }
        }
    }
    if (s->n >= UINT32_MAX - 1)
        return -1;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        ms_p2p_chan *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    if ((s->n + 1) * 2 > s->nslots) {
        if (rehash(s, s->nslots ? s->nslots * 2 : 32) != 0)
            return -1;
        for (j = hash(c) & (s->nslots - 1); s->slots[j]; j = (j + 1) & (s->nslots - 1)) {
        }
    }
    s->v[s->n] = *c;
    s->slots[j] = (uint32_t)++s->n;
    return 0;
}
