/*
 * The thread registry (registry.h): each recording thread's state by its
 * index in the log, published for the writer thread, and the calls
 * dropped. Nothing here allocates, locks or writes the log.
 */
#include "registry.h"

#include <stdatomic.h>

static ms_thread *_Atomic threads[MS_MAX_THREADS];
_Atomic uint32_t ms_nthreads;
static _Atomic uint64_t dropped;

uint32_t ms_registry_claim(void)
{
    return atomic_fetch_add(&ms_nthreads, 1);
}

void ms_registry_put(uint32_t i, ms_thread *t)
{
    atomic_store_explicit(&threads[i], t, memory_order_release);
}

uint32_t ms_registry_count(void)
{
    uint32_t n = atomic_load(&ms_nthreads);
    return n > MS_MAX_THREADS ? MS_MAX_THREADS : n;
}

ms_thread *ms_registry_thread(uint32_t i)
{
    return atomic_load_explicit(&threads[i], memory_order_acquire);
}

void ms_registry_add_dropped(uint64_t n)
{
    atomic_fetch_add(&dropped, n);
}

uint64_t ms_registry_dropped(void)
{
    return atomic_load(&dropped);
}
