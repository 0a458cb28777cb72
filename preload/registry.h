/*
 * The thread registry (registry.c): which threads the log has, by index,
 * and the count of calls neither written nor counted. tstate.c adds the
 * threads; the writer (writer.c) and the sinks (sink_trace.c,
 * sink_summary.c) read them by index. It knows a thread's state only by
 * its address; collectors never include this header.
 */
#ifndef MPISCOPE_REGISTRY_H
#define MPISCOPE_REGISTRY_H

#include <stdint.h>

#define MS_HIDDEN __attribute__((visibility("hidden")))

/* Most threads one process records; calls of further threads are counted as
 * dropped in the end record. */
#define MS_MAX_THREADS 1024u

typedef struct ms_thread ms_thread;

/* Threads that asked for a buffer, including those refused one. */
extern MS_HIDDEN _Atomic uint32_t ms_nthreads;

/* A new index for a thread of the log (at or past MS_MAX_THREADS when
 * there is no room: the caller counts its calls as dropped). */
MS_HIDDEN uint32_t ms_registry_claim(void);

/* The thread t at index i (one ms_registry_claim gave), now readable by
 * the writer. */
MS_HIDDEN void ms_registry_put(uint32_t i, ms_thread *t);

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

#endif
