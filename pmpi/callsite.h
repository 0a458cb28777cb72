/*
 * Call sites: where in the application each MPI call was made.
 *
 * At depth 1 (MPISCOPE_CALLSITE_DEPTH, the default) a call's site is the
 * return address of the wrapper: one load of a flag and one move. The site
 * is part of the call's key in the per-thread region cache (call_record.h),
 * so a region id stands for one (call, site) pair and its site is written
 * once, when the id is defined (MS_CTL_SITE), never per event.
 *
 * Two cases leave that fast path:
 *   - the return address lies in a binding layer of the MPI library (MPICH's
 *     Fortran library, the C++ bindings) that calls the C functions for the
 *     application: the stack is walked (_Unwind_Backtrace, bounded) to the
 *     first frame outside those layers, once per pair of wrapper and binding
 *     addresses; later calls read the address where the walk found it;
 *   - a depth above 1: that many frames are walked, and the site's key is a
 *     hash of them.
 * The load map (path, build-id and address range of every ELF object of the
 * process, MS_CTL_OBJECT) is recorded at start and again when a site lies in
 * an object not yet recorded (dlopen), so the merge can symbolize the
 * addresses, with the binaries, after the run.
 */
#ifndef MPISCOPE_CALLSITE_H
#define MPISCOPE_CALLSITE_H

#include <stdatomic.h>
#include <stdint.h>

#include "../preload/tstate.h"

/* How call sites are taken: off (depth 0), the bare return address (depth
 * 1, no binding layer loaded), or through ms_site_slow. */
enum { MS_SITE_OFF = 0, MS_SITE_FAST = 1, MS_SITE_SLOW = 2 };
extern MS_HIDDEN _Atomic int ms_site_mode;

/* The address a generated wrapper returns to, kept by its exported
 * function for its recording body (scripts/gen_wrappers.py). */
extern MS_HIDDEN __thread void *ms_caller __attribute__((tls_model("initial-exec")));

/* The call site (key) of a call whose wrapper returns to ra; 0 when off. */
MS_HIDDEN uint64_t ms_site_slow(void *ra);

MS_HOT uint64_t ms_site(void *ra)
{
    int mode = atomic_load_explicit(&ms_site_mode, memory_order_relaxed);
    if (MS_LIKELY(mode == MS_SITE_FAST))
        return (uint64_t)(uintptr_t)ra;
    return mode == MS_SITE_OFF ? 0 : ms_site_slow(ra);
}

/* Whether pc lies in one of the MPI library's binding layers recorded so far. */
MS_HIDDEN int ms_site_in_binding(uint64_t pc);

/* Frames of a site key, for its definition: the chain ms_site_slow walked
 * for that key on this thread, or the key itself as one frame. */
MS_HIDDEN unsigned ms_site_frames(uint64_t key, uint64_t *pc);

/* Record the load map into t's stream and decide the fast path (at start,
 * after the configuration is read). */
MS_HIDDEN void ms_sites_start(ms_thread *t);

/* Make sure the objects holding pc[0..n) are recorded (dlopen after start). */
MS_HIDDEN void ms_sites_cover(ms_thread *t, const uint64_t *pc, unsigned n);

#endif
