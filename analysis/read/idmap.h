/*
 * A map from 64-bit keys to 32-bit values (open addressing, linear probing).
 * Its size follows the number of keys stored, never the keys' magnitude, so
 * ids read from an untrusted file cannot make it allocate much.
 */
#ifndef MPISCOPE_IDMAP_H
#define MPISCOPE_IDMAP_H

#include <stddef.h>
#include <stdint.h>

#define MS_IDMAP_NONE UINT32_MAX   /* never stored as a value */

typedef struct ms_idmap {
    uint64_t *keys;
    uint32_t *vals;    /* MS_IDMAP_NONE marks an empty slot */
    size_t cap;        /* a power of two, or 0 */
    size_t n;
} ms_idmap;

void ms_idmap_init(ms_idmap *m);
void ms_idmap_free(ms_idmap *m);

/* Set key -> val (val != MS_IDMAP_NONE). Returns 0, or -1 when out of memory. */
int ms_idmap_put(ms_idmap *m, uint64_t key, uint32_t val);

/* The value of key, or MS_IDMAP_NONE. */
static inline uint32_t ms_idmap_get(const ms_idmap *m, uint64_t key)
{
    if (m->cap == 0)
        return MS_IDMAP_NONE;
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & mask;; i = (i + 1) & mask) {
        if (m->vals[i] == MS_IDMAP_NONE)
            return MS_IDMAP_NONE;
        if (m->keys[i] == key)
            return m->vals[i];
    }
}

#endif
