/* Lock-free handle map: see handle_map.h. */
#include "handle_map.h"

#include <string.h>
#include <sys/mman.h>

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
    if (!m->slots || key <= MS_HMAP_BUSY)
        return NULL;
    uint64_t mask = ((uint64_t)1 << m->bits) - 1;
    uint64_t i = ms_hmap_mix(key) & mask;
    for (uint64_t n = 0; n <= mask; n++, i = (i + 1) & mask) {
        uint64_t k = atomic_load_explicit(&m->slots[i].key, memory_order_acquire);
        if (k == key)
            return &m->slots[i];
        if (k == MS_HMAP_EMPTY)
            return NULL;
    }
    return NULL;
}

ms_hmap_slot *ms_hmap_put(ms_hmap *m, uint64_t key)
{
    ms_hmap_slot *s = ms_hmap_get(m, key);
    return s ? s : ms_hmap_add(m, key, NULL, 0);
}

void ms_hmap_erase_chain(ms_hmap *m, ms_hmap_slot *slot)
{
    uint64_t mask = ((uint64_t)1 << m->bits) - 1;
    uint64_t i = (uint64_t)(slot - m->slots);
    /* The end of a chain: it and the deleted slots before it end the chain
     * earlier now. */
    for (uint64_t n = 0; n <= mask; n++, i = (i - 1) & mask) {
        if (n > 0 && atomic_load_explicit(&m->slots[i].key, memory_order_relaxed) != MS_HMAP_DELETED)
            break;
        atomic_store_explicit(&m->slots[i].key, MS_HMAP_EMPTY, memory_order_release);
    }
}
