/* Dense ids for keys: see chan_index.h. */
#include "chan_index.h"

#include <stdlib.h>
#include <string.h>

void ms_chan_index_init(ms_chan_index *x)
{
    memset(x, 0, sizeof *x);
}

void ms_chan_index_free(ms_chan_index *x)
{
    free(x->keys);
    free(x->slots);
    memset(x, 0, sizeof *x);
}

static size_t hash(const ms_chan_key *k)
{
    uint64_t h = (uint64_t)k->a * 0x9e3779b97f4a7c15ull;
    h ^= (uint64_t)k->b * 0xc2b2ae3d27d4eb4full;
    h ^= (uint64_t)(uint32_t)k->c * 0x165667b19e3779f9ull;
    h ^= (uint64_t)(uint32_t)k->d * 0x85ebca77c2b2ae63ull;
    return (size_t)(h ^ (h >> 29));
}

static int same(const ms_chan_key *x, const ms_chan_key *y)
{
    return x->a == y->a && x->b == y->b && x->c == y->c && x->d == y->d;
}

static int rehash(ms_chan_index *x, size_t nslots)
{
    uint32_t *s = calloc(nslots, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < x->n; i++) {
        size_t j = hash(&x->keys[i]) & (nslots - 1);
        while (s[j])
            j = (j + 1) & (nslots - 1);
        s[j] = (uint32_t)i + 1;
    }
    free(x->slots);
    x->slots = s;
    x->nslots = nslots;
    return 0;
}

int ms_chan_index_find(const ms_chan_index *x, const ms_chan_key *k, uint32_t *id)
{
    if (!x->nslots)
        return 0;
    for (size_t j = hash(k) & (x->nslots - 1); x->slots[j]; j = (j + 1) & (x->nslots - 1))
        if (same(&x->keys[x->slots[j] - 1], k)) {
            *id = x->slots[j] - 1;
            return 1;
        }
    return 0;
}

int ms_chan_index_id(ms_chan_index *x, const ms_chan_key *k, uint32_t *id)
{
    if (x->nslots) {
        for (size_t j = hash(k) & (x->nslots - 1); x->slots[j]; j = (j + 1) & (x->nslots - 1))
            if (same(&x->keys[x->slots[j] - 1], k)) {
                *id = x->slots[j] - 1;
                return 0;
            }
    }
    if (x->n >= UINT32_MAX - 1)
        return -1;
    if ((x->n + 1) * 2 > x->nslots && rehash(x, x->nslots ? x->nslots * 2 : 64) != 0)
        return -1;
    if (x->n == x->keys_cap) {
        size_t cap = x->keys_cap ? x->keys_cap * 2 : 64;
        ms_chan_key *v = realloc(x->keys, cap * sizeof *v);
        if (!v)
            return -1;
        x->keys = v;
        x->keys_cap = cap;
    }
    x->keys[x->n] = *k;
    size_t j = hash(k) & (x->nslots - 1);
    while (x->slots[j])
        j = (j + 1) & (x->nslots - 1);
    x->slots[j] = (uint32_t)x->n + 1;
    *id = (uint32_t)x->n++;
    return 0;
}
