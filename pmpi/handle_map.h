/*
 * A fixed-size, lock-free map from MPI handles (requests, communicators) to
 * small records, shared by all threads. Open addressing with linear probing;
 * keys are the handle's bits, 0 and 1 are reserved (empty, deleted).
 * A key is inserted by one thread and looked up or erased by threads that
 * received the handle from it through the application's own synchronization,
 * so the value needs no atomics of its own. Memory is fixed: when the map is
 * full, ms_hmap_put fails and callers fall back (documented per use).
 * A key may also be held by several slots at once (ms_hmap_add): MPI
 * libraries give one handle to many requests that completed at once.
 */
#ifndef MPISCOPE_HANDLE_MAP_H
#define MPISCOPE_HANDLE_MAP_H

#include <stdatomic.h>
#include <stdint.h>

#include "tstate.h"

#define MS_HMAP_VALUE 48u

typedef struct ms_hmap_slot {
    _Atomic uint64_t key;
    uint64_t value[MS_HMAP_VALUE / 8];
} ms_hmap_slot;

typedef struct ms_hmap {
    ms_hmap_slot *slots;     /* 1 << bits slots */
    uint32_t bits;
} ms_hmap;

/* Slots come from a zero-filled mapping: pages never touched cost nothing. */
MS_HIDDEN int ms_hmap_init(ms_hmap *m, uint32_t bits);

/* The slot holding key, or NULL. */
MS_HIDDEN ms_hmap_slot *ms_hmap_get(ms_hmap *m, uint64_t key);

/* The slot for key: the existing one, else a newly claimed one (value
 * zeroed). NULL when the map is full. */
MS_HIDDEN ms_hmap_slot *ms_hmap_put(ms_hmap *m, uint64_t key);

/* A new slot for key even if the key is held already. NULL when full. */
MS_HIDDEN ms_hmap_slot *ms_hmap_add(ms_hmap *m, uint64_t key);

/* The slots holding key, one per call: start with *cursor = 0; NULL at the
 * end. */
MS_HIDDEN ms_hmap_slot *ms_hmap_scan(ms_hmap *m, uint64_t key, uint64_t *cursor);

MS_HIDDEN void ms_hmap_erase(ms_hmap_slot *slot);

#endif
