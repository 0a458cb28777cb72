/* Lock-free handle map: see handle_map.h. */
#include "handle_map.h"

#include <string.h>
#include <sys/mman.h>

static ms_hmap_slot *map_slots(uint32_t bits)
{
    void *p = mmap(NULL, sizeof(ms_hmap_slot) << bits, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

int ms_hmap_init(ms_hmap *m, uint32_t bits)
{
    m->bits = bits;
    for (uint32_t k = 0; k < MS_HMAP_LEVELS; k++)
        atomic_store(&m->more[k], NULL);
    m->slots = map_slots(bits);
    return m->slots ? 0 : -1;
}

ms_hmap_slot *ms_hmap_grow(ms_hmap *m, uint32_t level)
{
    if (level == 0 || level > MS_HMAP_LEVELS)
        return NULL;
    uint64_t mask;
    ms_hmap_slot *have = ms_hmap_level(m, level, &mask);
    if (have)
        return have;
    ms_hmap_slot *mine = map_slots(m->bits + level);
    if (!mine)
        return NULL;
    if (atomic_compare_exchange_strong_explicit(&m->more[level - 1], &have, mine, memory_order_acq_rel,
                                                memory_order_acquire))
        return mine;
    munmap(mine, sizeof(ms_hmap_slot) << (m->bits + level));  /* another thread's came first */
    return have;
}

ms_hmap_slot *ms_hmap_get(ms_hmap *m, uint64_t key)
{
    uint64_t cursor = 0;
    return ms_hmap_scan(m, key, &cursor);
}

ms_hmap_slot *ms_hmap_put(ms_hmap *m, uint64_t key)
{
    ms_hmap_slot *s = ms_hmap_get(m, key);
    return s ? s : ms_hmap_add(m, key, NULL, 0);
}

void ms_hmap_erase_chain(ms_hmap_slot *slots, uint64_t mask, ms_hmap_slot *slot)
{
    uint64_t i = (uint64_t)(slot - slots);
    /* The end of a chain: it and the deleted slots before it end the chain
     * earlier now. */
    for (uint64_t n = 0; n <= mask; n++, i = (i - 1) & mask) {
        if (n > 0 && atomic_load_explicit(&slots[i].key, memory_order_relaxed) != MS_HMAP_DELETED)
            break;
        atomic_store_explicit(&slots[i].key, MS_HMAP_EMPTY, memory_order_release);
    }
}
