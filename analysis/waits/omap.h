/*
 * Small tables of the replay (replay.c): a hash of three integers to a
 * slot, with deletion (linear probing, the run after a deleted key shifted
 * back), and a pool of slots of one size reused once given back.
 */
#ifndef MPISCOPE_OMAP_H
#define MPISCOPE_OMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct ms_okey {
    int64_t a, b, c;
} ms_okey;

typedef struct ms_omap {
    ms_okey *k;
    uint32_t *v;           /* slot + 1; 0 empty */
    size_t n, cap;         /* used, slots (a power of two or 0) */
} ms_omap;

void ms_omap_free(ms_omap *m);
/* The slot of k; UINT32_MAX when absent. */
uint32_t ms_omap_get(const ms_omap *m, const ms_okey *k);
/* k -> slot (k absent or replaced). 0, or -1 when out of memory. */
int ms_omap_put(ms_omap *m, const ms_okey *k, uint32_t slot);
/* Delete k, which is present. */
void ms_omap_del(ms_omap *m, const ms_okey *k);

typedef struct ms_pool {
    void *v;
    size_t size, n, cap;   /* bytes a slot, slots made, room */
    uint32_t *free;
    size_t nfree, free_cap;
} ms_pool;

/* A zeroed slot; UINT32_MAX when out of memory. Slot addresses move when
 * the pool grows. */
uint32_t ms_pool_take(ms_pool *p);
/* Slot i back (zeroed). 0, or -1 when out of memory. */
int ms_pool_give(ms_pool *p, uint32_t i);
void ms_pool_free(ms_pool *p);

#define MS_POOL_AT(p, type, i) (&((type *)(p)->v)[i])

#endif
