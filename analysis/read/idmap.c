/* 64-bit key -> 32-bit value map: see idmap.h. */
#include "idmap.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint64_t key, size_t mask)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

void ms_idmap_init(ms_idmap *m)
{
    memset(m, 0, sizeof *m);
}

void ms_idmap_free(ms_idmap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static int grow(ms_idmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 16;
    uint64_t *keys = malloc(cap * sizeof *keys);
    uint32_t *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    memset(vals, 0xff, cap * sizeof *vals);
    size_t mask = cap - 1;
    for (size_t k = 0; k < m->cap; k++) {
        if (m->vals[k] == MS_IDMAP_NONE)
            continue;
        size_t i = slot_of(m->keys[k], mask);
        while (vals[i] != MS_IDMAP_NONE)
            i = (i + 1) & mask;
        keys[i] = m->keys[k];
        vals[i] = m->vals[k];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

int ms_idmap_put(ms_idmap *m, uint64_t key, uint32_t val)
{
    if (val == MS_IDMAP_NONE)
        return -1;
    if ((m->n + 1) * 2 > m->cap && grow(m) != 0)
        return -1;
    size_t mask = m->cap - 1;
    size_t i = slot_of(key, mask);
    while (m->vals[i] != MS_IDMAP_NONE) {
        if (m->keys[i] == key) {
            m->vals[i] = val;
            return 0;
        }
        i = (i + 1) & mask;
    }
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
    return 0;
}
