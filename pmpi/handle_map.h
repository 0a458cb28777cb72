/*
 * A fixed-size, lock-free map from MPI handles (requests, communicators) to
 * small records, shared by all threads. Open addressing with linear probing;
 * keys are the handle's bits, 0 to 2 are reserved (empty, deleted, busy).
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
#include <string.h>

#include "../preload/tstate.h"

#define MS_HMAP_VALUE 56u   /* a slot is 64 bytes, one cache line */

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

#define MS_HMAP_EMPTY 0u
#define MS_HMAP_DELETED 1u
#define MS_HMAP_BUSY 2u     /* claimed, value being written */

static inline uint64_t ms_hmap_mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

/* A new slot for key even if the key is held already, holding `value`
 * (len bytes, the rest zero). The slot is claimed as busy and gets its key
 * only once the value is written, so a reader that finds the key sees this
 * value, never the previous occupant's. NULL when full. */
static inline ms_hmap_slot *ms_hmap_add(ms_hmap *m, uint64_t key, const void *value, size_t len)
{
    if (!m->slots || key <= MS_HMAP_BUSY || len > MS_HMAP_VALUE)
        return NULL;
    uint64_t mask = ((uint64_t)1 << m->bits) - 1;
    uint64_t i = ms_hmap_mix(key) & mask;
    for (uint64_t n = 0; n <= mask; n++, i = (i + 1) & mask) {
        uint64_t k = atomic_load_explicit(&m->slots[i].key, memory_order_relaxed);
        if (k != MS_HMAP_EMPTY && k != MS_HMAP_DELETED)
            continue;
        if (atomic_compare_exchange_strong_explicit(&m->slots[i].key, &k, MS_HMAP_BUSY, memory_order_acq_rel,
                                                    memory_order_relaxed)) {
            memset(m->slots[i].value, 0, sizeof m->slots[i].value);
            if (len)
                memcpy(m->slots[i].value, value, len);
            atomic_store_explicit(&m->slots[i].key, key, memory_order_release);
            return &m->slots[i];
        }
    }
    return NULL;
}

/* The slots holding key, one per call: start with *cursor = 0; NULL at the
 * end. */
static inline ms_hmap_slot *ms_hmap_scan(ms_hmap *m, uint64_t key, uint64_t *cursor)
{
    if (!m->slots || key <= MS_HMAP_BUSY)
        return NULL;
    uint64_t mask = ((uint64_t)1 << m->bits) - 1;
    uint64_t start = ms_hmap_mix(key) & mask;
    for (uint64_t n = *cursor; n <= mask; n++) {
        uint64_t i = (start + n) & mask;
        uint64_t k = atomic_load_explicit(&m->slots[i].key, memory_order_acquire);
        if (k == MS_HMAP_EMPTY)
            break;
        if (k == key) {
            *cursor = n + 1;
            return &m->slots[i];
        }
    }
    *cursor = mask + 1;
    return NULL;
}

MS_HIDDEN void ms_hmap_erase_chain(ms_hmap *m, ms_hmap_slot *slot);

/* Free a slot. While one thread alone records (ms_nthreads), a slot at the
 * end of its probe chain (and the deleted slots before it) becomes empty
 * again, so chains stay as short as what is live; with several threads it
 * is marked deleted. A second thread's first recorded call attaches it
 * before it touches a map, so only the window of one erase can overlap. */
static inline void ms_hmap_erase(ms_hmap *m, ms_hmap_slot *slot)
{
    uint64_t mask = ((uint64_t)1 << m->bits) - 1;
    uint64_t next = ((uint64_t)(slot - m->slots) + 1) & mask;
    if (atomic_load_explicit(&ms_nthreads, memory_order_relaxed) > 1 ||
        atomic_load_explicit(&m->slots[next].key, memory_order_relaxed) != MS_HMAP_EMPTY) {
        atomic_store_explicit(&slot->key, MS_HMAP_DELETED, memory_order_release);
        return;
    }
    ms_hmap_erase_chain(m, slot);
}

#endif
