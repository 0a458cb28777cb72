/*
 * The thread registry and the rings (registry.c): it implements what
 * tstate.h declares for collectors (thread states, ring waits, the slow
 * path of ms_event, communicator definitions, the writer's wake-up), and
 * declares here, core-internal, what the writer (writer.c) and the sinks
 * (sink_trace.c, sink_summary.c) need of it: the threads' buffers by
 * index, the count of calls dropped, the ring capacity of new threads and
 * waiting on the wake-up semaphore. Collectors never include this header.
 */
#ifndef MPISCOPE_REGISTRY_H
#define MPISCOPE_REGISTRY_H

#include <stdint.h>
#include <time.h>

#include "tstate.h"

/* Before recording starts: the capacity of the ring of each thread from
 * now on (a power of two), and the wake-up semaphore. 0, or -1 when the
 * semaphore cannot be made. */
MS_HIDDEN int ms_registry_setup(uint64_t ring_capacity);

/* The indices in use: threads that asked for a buffer, at most
 * MS_MAX_THREADS. Async-signal-safe. */
MS_HIDDEN uint32_t ms_registry_count(void);

/* The thread at index i (below ms_registry_count()): NULL when it was
 * refused a buffer or is not yet set up. Async-signal-safe. */
MS_HIDDEN ms_thread *ms_registry_thread(uint32_t i);

/* Calls neither written nor counted (the end record's dropped).
 * Async-signal-safe. */
MS_HIDDEN void ms_registry_add_dropped(uint64_t n);
MS_HIDDEN uint64_t ms_registry_dropped(void);

/* The writer thread: wait until a thread wakes it (ms_writer_kick) or the
 * deadline (CLOCK_REALTIME) passes. 0 when woken, else -1. */
MS_HIDDEN int ms_registry_wait(const struct timespec *deadline);

#endif
