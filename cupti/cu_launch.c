/* Correlation ids -> launching thread and time: see cu_launch.h. */
#include "cu_launch.h"

#include <stdatomic.h>

#include "../preload/clock.h"

#define CORR_SLOTS (1u << 16)
typedef struct corr_slot {
    _Atomic uint32_t id;          /* correlation id + 1; 0 empty or being written */
    _Atomic uint32_t thread;      /* host thread index + 1 */
    _Atomic uint64_t t;           /* tool clock */
} corr_slot;
static corr_slot corr[CORR_SLOTS];

void cu_launch_note(uint32_t id)
{
    corr_slot *s = &corr[id & (CORR_SLOTS - 1)];
    /* A runtime call and the driver call inside it may share the id: the
     * outer one's time stands. */
    if (atomic_load_explicit(&s->id, memory_order_relaxed) == id + 1)
        return;
    ms_thread *t = ms_tls_thread;
    if (!t && atomic_load_explicit(&ms_active, memory_order_relaxed))
        t = ms_thread_attach();
    /* A sequence lock: the id is cleared while the slot is rewritten. */
    atomic_store_explicit(&s->id, 0, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&s->thread, t ? t->index + 1 : 0, memory_order_relaxed);
    atomic_store_explicit(&s->t, ms_now(), memory_order_relaxed);
    atomic_store_explicit(&s->id, id + 1, memory_order_release);
}

int cu_launch_lookup(uint32_t id, uint32_t *thread, uint64_t *t)
{
    corr_slot *s = &corr[id & (CORR_SLOTS - 1)];
    if (atomic_load_explicit(&s->id, memory_order_acquire) != id + 1)
        return 0;
    *thread = atomic_load_explicit(&s->thread, memory_order_relaxed);
    *t = atomic_load_explicit(&s->t, memory_order_relaxed);
    /* A slot rewritten meanwhile is not trusted. */
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit(&s->id, memory_order_relaxed) == id + 1;
}
