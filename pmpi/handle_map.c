/* Lock-free handle map: see handle_map.h. */
#include "handle_map.h"

#include <string.h>
#include <sys/mman.h>

#define EMPTY 0u
#define DELETED 1u

static inline uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

int ms_hmap_init(ms_hmap *m, uint32_t bits)
{
    size_t bytes = sizeof(ms_hmap_slot) << bits;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        m->slots = NULL;
        return -1;
    }
    m->slots = p;
    m->bits = bits;
    return 0;
}

ms_hmap_slot *ms_hmap_get(ms_hmap *m, uint64_t key)
{
    if (!m->slots || key <= DELETED)
        return NULL;
    uint64_t mask = ((uint64_t)1 << m->bits) - 1;
    uint64_t i = mix(key) & mask;
    for (uint64_t n = 0; n <= mask; n++, i = (i + 1) & mask) {
        uint64_t k = atomic_load_explicit(&m->slots[i].key, memory_order_acquire);
        if (k == key)
            return &m->slots[i];
        if (k == EMPTY)
            return NULL;
    }
    return NULL;
}

ms_hmap_slot *ms_hmap_add(ms_hmap *m, uint64_t key)
{
    if (!m->slots || key <= DELETED)
        return NULL;
    uint64_t mask = ((uint64_t)1 << m->bits) - 1;
    uint64_t i = mix(key) & mask;
    for (uint64_t n = 0; n <= mask; n++, i = (i + 1) & mask) {
        uint64_t k = atomic_load_explicit(&m->slots[i].key, memory_order_relaxed);
        if (k != EMPTY && k != DELETED)
            continue;
        if (atomic_compare_exchange_strong_explicit(&m->slots[i].key, &k, key, memory_order_acq_rel,
                                                    memory_order_relaxed)) {
            memset(m->slots[i].value, 0, sizeof m->slots[i].value);
            return &m->slots[i];
        }
    }
    return NULL;
}

ms_hmap_slot *ms_hmap_put(ms_hmap *m, uint64_t key)
{
    ms_hmap_slot *s = ms_hmap_get(m, key);
    return s ? s : ms_hmap_add(m, key);
}

ms_hmap_slot *ms_hmap_scan(ms_hmap *m, uint64_t key, uint64_t *cursor)
{
    if (!m->slots || key <= DELETED)
        return NULL;
    uint64_t mask = ((uint64_t)1 << m->bits) - 1;
    uint64_t start = mix(key) & mask;
    for (uint64_t n = *cursor; n <= mask; n++) {
        uint64_t i = (start + n) & mask;
        uint64_t k = atomic_load_explicit(&m->slots[i].key, memory_order_acquire);
        if (k == EMPTY)
            break;
        if (k == key) {
            *cursor = n + 1;
            return &m->slots[i];
        }
    }
    *cursor = mask + 1;
    return NULL;
}

void ms_hmap_erase(ms_hmap_slot *slot)
{
    atomic_store_explicit(&slot->key, DELETED, memory_order_release);
}
