/*
 * A lock-free map from MPI handles (requests, communicators) to small
 * records, shared by all threads. Open addressing with linear probing;
 * keys are the handle's bits, 0 to 2 are reserved (empty, deleted, busy).
 * A key is inserted by one thread and looked up or erased by threads that
 * received the handle from it through the application's own synchronization,
 * so the value needs no atomics of its own.
 *
 * No limit: a key lies within MS_HMAP_PROBE slots of its home slot in one
 * of a chain of levels, each twice the size of the one before. An insertion
 * that finds the first MS_HMAP_PROBE slots of a level taken goes on to the
 * next level, which the first thread to need it maps (zero-filled: pages
 * never touched cost nothing). So a probe is bounded, the common case (the
 * first level, a short chain) is as before, and the memory grows with what
 * is live at once, never with the run's length. Only a failed mapping
 * fails an insertion (callers fall back, documented per use).
 *
 * A key may also be held by several slots at once (ms_hmap_add): MPI
 * libraries give one handle to many requests that completed at once. All
 * of them share the windows of their key's home slots, so a map caps how
 * many one key can have (ms_hmap_add_upto): the request table keeps the
 * rest in a second map by handle and address (requests.c).
 */
#ifndef MPISCOPE_HANDLE_MAP_H
#define MPISCOPE_HANDLE_MAP_H

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "../preload/tstate.h"

#define MS_HMAP_VALUE 56u   /* a slot is 64 bytes, one cache line */
#define MS_HMAP_PROBE 64u   /* slots a key may lie from its home in a level */
#define MS_HMAP_LEVELS 24u  /* levels at most: 2^bits x (2^24 - 1) slots */

typedef struct ms_hmap_slot {
    _Atomic uint64_t key;
    uint64_t value[MS_HMAP_VALUE / 8];
} ms_hmap_slot;

typedef struct ms_hmap {
    ms_hmap_slot *slots;     /* the first level: 1 << bits slots */
    uint32_t bits;
    /* level k >= 1: 1 << (bits + k) slots, mapped when first needed */
    _Atomic(ms_hmap_slot *) more[MS_HMAP_LEVELS];
} ms_hmap;

/* Maps the first level (zero-filled: pages never touched cost nothing). */
MS_HIDDEN int ms_hmap_init(ms_hmap *m, uint32_t bits);

/* The slot holding key, or NULL. */
MS_HIDDEN ms_hmap_slot *ms_hmap_get(ms_hmap *m, uint64_t key);

/* The slot for key: the existing one, else a newly claimed one (value
 * zeroed). NULL only when no memory is left. */
MS_HIDDEN ms_hmap_slot *ms_hmap_put(ms_hmap *m, uint64_t key);

/* The next level's slots, mapped now if no thread did yet; NULL when it
 * cannot be. */
MS_HIDDEN ms_hmap_slot *ms_hmap_grow(ms_hmap *m, uint32_t level);

/* Empty `slot` and the deleted slots before it (ms_hmap_erase). */
MS_HIDDEN void ms_hmap_erase_chain(ms_hmap_slot *slots, uint64_t mask, ms_hmap_slot *slot);

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

/* Level `level`'s slots (NULL: not mapped yet) and its index mask. */
static inline ms_hmap_slot *ms_hmap_level(ms_hmap *m, uint32_t level, uint64_t *mask)
{
    *mask = ((uint64_t)1 << (m->bits + level)) - 1;
    return level ? atomic_load_explicit(&m->more[level - 1], memory_order_acquire) : m->slots;
}

/* How many slots from its home a key may lie in a level of mask + 1. */
static inline uint64_t ms_hmap_probe(uint64_t mask)
{
    return mask < MS_HMAP_PROBE ? mask + 1 : MS_HMAP_PROBE;
}

/* The first level's index mask, and key's home slot there. */
static inline uint64_t ms_hmap_first_mask(const ms_hmap *m)
{
    return ((uint64_t)1 << m->bits) - 1;
}

static inline ms_hmap_slot *ms_hmap_home(const ms_hmap *m, uint64_t key)
{
    return &m->slots[ms_hmap_mix(key) & ms_hmap_first_mask(m)];
}

/* Whether slot was free (empty or deleted) and is now claimed as busy. */
static inline int ms_hmap_try_claim(ms_hmap_slot *slot)
{
    uint64_t k = atomic_load_explicit(&slot->key, memory_order_relaxed);
    return (k == MS_HMAP_EMPTY || k == MS_HMAP_DELETED) &&
           atomic_compare_exchange_strong_explicit(&slot->key, &k, MS_HMAP_BUSY, memory_order_acq_rel,
                                                   memory_order_relaxed);
}

/* As ms_hmap_claim_upto (below), past the first `tried` slots of the
 * first level, which the caller found taken. */
static inline ms_hmap_slot *ms_hmap_claim_after(ms_hmap *m, uint64_t key, uint32_t levels, uint64_t tried)
{
    if (!m->slots || key <= MS_HMAP_BUSY)
        return NULL;
    uint64_t h = ms_hmap_mix(key);
    for (uint32_t level = 0; level <= levels && level <= MS_HMAP_LEVELS; level++) {
        uint64_t mask;
        ms_hmap_slot *s = ms_hmap_level(m, level, &mask);
        if (!s && !(s = ms_hmap_grow(m, level)))
            return NULL;
        uint64_t n = level ? 0 : tried;
        uint64_t i = (h + n) & mask;
        for (uint64_t probe = ms_hmap_probe(mask); n < probe; n++, i = (i + 1) & mask)
            if (ms_hmap_try_claim(&s[i]))
                return &s[i];
    }
    return NULL;
}

/* A new slot for key even if the key is held already, in one of the first
 * levels + 1 levels, claimed as busy: the caller writes its whole value and
 * then gives it its key (ms_hmap_publish), so that a reader that finds the
 * key sees that value, never the previous occupant's. NULL only when no
 * memory is left. */
static inline ms_hmap_slot *ms_hmap_claim_upto(ms_hmap *m, uint64_t key, uint32_t levels)
{
    return ms_hmap_claim_after(m, key, levels, 0);
}

/* A claimed slot, its value written, gets its key. */
static inline void ms_hmap_publish(ms_hmap_slot *slot, uint64_t key)
{
    atomic_store_explicit(&slot->key, key, memory_order_release);
}

/* A new slot for key even if the key is held already, holding `value`
 * (len bytes, the rest zero), as ms_hmap_claim_upto (ms_hmap_add: in any
 * level). NULL only when no memory is left. */
static inline ms_hmap_slot *ms_hmap_add_upto(ms_hmap *m, uint64_t key, const void *value, size_t len,
                                             uint32_t levels)
{
    if (len > MS_HMAP_VALUE)
        return NULL;
    ms_hmap_slot *s = ms_hmap_claim_upto(m, key, levels);
    if (!s)
        return NULL;
    if (len)
        memcpy(s->value, value, len);
    if (len < sizeof s->value)
        memset((char *)s->value + len, 0, sizeof s->value - len);
    ms_hmap_publish(s, key);
    return s;
}

static inline ms_hmap_slot *ms_hmap_add(ms_hmap *m, uint64_t key, const void *value, size_t len)
{
    return ms_hmap_add_upto(m, key, value, len, MS_HMAP_LEVELS);
}

/* Whether slot is one of m's. */
static inline int ms_hmap_holds(ms_hmap *m, const ms_hmap_slot *slot)
{
    for (uint32_t level = 0; level <= MS_HMAP_LEVELS; level++) {
        uint64_t mask;
        ms_hmap_slot *s = ms_hmap_level(m, level, &mask);
        if (!s)
            return 0;
        if (slot >= s && slot <= s + mask)
            return 1;
    }
    return 0;
}

/* The slots holding key, one per call: start with *cursor = 0; NULL at the
 * end. The cursor holds the level (high bits) and the probe position. */
static inline ms_hmap_slot *ms_hmap_scan(ms_hmap *m, uint64_t key, uint64_t *cursor)
{
    if (!m->slots || key <= MS_HMAP_BUSY)
        return NULL;
    uint64_t h = ms_hmap_mix(key);
    for (uint32_t level = (uint32_t)(*cursor >> 32); level <= MS_HMAP_LEVELS; level++) {
        uint64_t mask;
        ms_hmap_slot *s = ms_hmap_level(m, level, &mask);
        if (!s)
            break;
        uint64_t start = h & mask;
        uint64_t n0 = (uint32_t)(*cursor >> 32) == level ? (uint32_t)*cursor : 0;
        for (uint64_t n = n0, probe = ms_hmap_probe(mask); n < probe; n++) {
            uint64_t i = (start + n) & mask;
            uint64_t k = atomic_load_explicit(&s[i].key, memory_order_acquire);
            if (k == MS_HMAP_EMPTY)
                break;
            if (k == key) {
                *cursor = ((uint64_t)level << 32) | (n + 1);
                return &s[i];
            }
        }
    }
    *cursor = (uint64_t)(MS_HMAP_LEVELS + 1) << 32;
    return NULL;
}

/* Free `slot` of the level `s` (index mask `mask`), as ms_hmap_erase. */
static inline void ms_hmap_erase_in(ms_hmap_slot *s, uint64_t mask, ms_hmap_slot *slot)
{
    uint64_t next = ((uint64_t)(slot - s) + 1) & mask;
    if (atomic_load_explicit(&ms_nthreads, memory_order_relaxed) > 1 ||
        atomic_load_explicit(&s[next].key, memory_order_relaxed) != MS_HMAP_EMPTY) {
        atomic_store_explicit(&slot->key, MS_HMAP_DELETED, memory_order_release);
        return;
    }
    atomic_store_explicit(&slot->key, MS_HMAP_EMPTY, memory_order_release);
    ms_hmap_slot *prev = &s[((uint64_t)(slot - s) - 1) & mask];
    if (MS_UNLIKELY(atomic_load_explicit(&prev->key, memory_order_relaxed) == MS_HMAP_DELETED))
        ms_hmap_erase_chain(s, mask, prev);
}

/* Free a slot. While one thread alone records (ms_nthreads), a slot at the
 * end of its probe chain (and the deleted slots before it) becomes empty
 * again, so chains stay as short as what is live; with several threads it
 * is marked deleted. A second thread's first recorded call attaches it
 * before it touches a map, so only the window of one erase can overlap. */
static inline void ms_hmap_erase(ms_hmap *m, ms_hmap_slot *slot)
{
    uint64_t mask = 0;
    ms_hmap_slot *s = NULL;
    for (uint32_t level = 0; level <= MS_HMAP_LEVELS; level++) {
        s = ms_hmap_level(m, level, &mask);
        if (s && slot >= s && slot <= s + mask)
            break;
    }
    ms_hmap_erase_in(s, mask, slot);
}

#endif
