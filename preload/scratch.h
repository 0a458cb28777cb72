/*
 * Per-thread scratch memory of the collectors (arrays a wrapper needs for
 * the length of one call: pending requests, statuses, converted Fortran
 * arguments). Mapped pages, like the thread's ring, not the heap: they live
 * as long as the process, are never shared, and a leak checker does not
 * take them for leaks of the application.
 */
#ifndef MPISCOPE_SCRATCH_H
#define MPISCOPE_SCRATCH_H

#include <stddef.h>

/* Zeroed memory of `size` bytes; NULL when none can be mapped. */
__attribute__((visibility("hidden"))) void *ms_scratch_new(size_t size);

/* Make *arr hold at least n items of `item` bytes (*cap: items it holds now);
 * the contents are kept. Returns 0, or -1 (nothing changed) when no memory. */
__attribute__((visibility("hidden"))) int ms_scratch_reserve(void **arr, size_t *cap, size_t n, size_t item);

#endif
