/*
 * The collector interface (DESIGN section 7): how the recording core
 * reaches a collector (pmpi/, cupti/, likwid/), and the only way it does.
 * Each collector defines one ms_collector and registers it with
 * MS_COLLECTOR_REGISTER; the Makefile alone decides which collectors are
 * linked into the library, and the core (runtime.c; registry.c for
 * thread_attach) runs the hooks of those
 * it finds, in increasing order:
 *
 *   load           at library load, after the configuration is read
 *   start          once recording is on (after MPI_Init)
 *   stop           before recording stops, recording still on
 *   thread_attach  a thread that calls in gets its state (first call)
 *
 * Any hook may be NULL. A collector records through tstate.h and keeps
 * per-thread state in slots it asks for with ms_thread_slot (at load).
 */
#ifndef MPISCOPE_COLLECTOR_H
#define MPISCOPE_COLLECTOR_H

#include "tstate.h"

typedef struct ms_collector {
    const char *name;
    int order;
    void (*load)(void);
    void (*start)(void);
    void (*stop)(void);
    void (*thread_attach)(ms_thread *t);
} ms_collector;

/* Register collector c (a static const ms_collector) with the core: a
 * pointer to it in the section ms_collectors, which the linker gathers. */
#define MS_COLLECTOR_REGISTER(c)                                                                   \
    static const ms_collector *const ms_collector_entry_##c                                        \
        __attribute__((used, section("ms_collectors"), aligned(sizeof(void *)))) = &c

/* A per-thread slot (an index of ms_thread.slot) for the collector `owner`;
 * -1 when all MS_THREAD_SLOTS are taken (after one warning): the collector
 * must then never index a slot with it. At load. */
MS_HIDDEN int ms_thread_slot(const char *owner);

#endif
