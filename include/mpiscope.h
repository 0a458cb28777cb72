/*
 * mpiscope's C API: user regions.
 *
 *   #include <mpiscope.h>
 *
 *   mpiscope_region_begin("solve");
 *   ...
 *   mpiscope_region_end("solve");
 *
 *   MPISCOPE_REGION("halo") {          portable C: a one-pass loop; leave
 *       exchange();                    it at its end, never with break,
 *   }                                  return or goto (the end is skipped)
 *
 *   void step(void) {
 *       MPISCOPE_SCOPE("step");        GCC and Clang: the region ends when
 *       ...                            the enclosing block is left, also
 *   }                                  by return, break or goto
 *
 * Link with -lmpiscope-api (build/lib/libmpiscope-api.so, a library of
 * empty functions): the program then runs unchanged without the tool. Under
 * the preload library (LD_PRELOAD), whose functions of the same names come
 * first in symbol lookup, each region is recorded per thread, with its name
 * as given, as one event from its begin to its end, on the rank's timeline
 * beside the MPI calls made inside it. The merge reports its inclusive time
 * and its exclusive time (without the time of the regions and MPI calls
 * recorded directly inside it on the same thread).
 *
 * Rules (README.md, "Marking regions"):
 * - Regions nest per thread: end closes the innermost open region of that
 *   name. Names are compared as strings; the pointer may differ between
 *   begin and end. A NULL name is ignored.
 * - An end whose name is not open on the thread, or that closes a region
 *   that is not the innermost, is reported once per cause on stderr
 *   (prefixed "mpiscope:"); the program carries on. An out-of-order end
 *   still records its region.
 * - Regions the calling thread of MPI_Finalize still has open are closed
 *   at the start of MPI_Finalize (one diagnostic); those of other threads,
 *   and regions open when a process ends without MPI_Finalize, are not
 *   recorded.
 * - Only what happens while the tool records (from MPI_Init to
 *   MPI_Finalize) is in the log; a region begun before MPI_Init and ended
 *   after it is recorded from its begin.
 * - MPI_Pcontrol(1, "name") and MPI_Pcontrol(-1, "name") begin and end the
 *   same regions.
 */
#ifndef MPISCOPE_H
#define MPISCOPE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Begin the region `name` on the calling thread. */
void mpiscope_region_begin(const char *name);

/* End the innermost open region `name` of the calling thread. */
void mpiscope_region_end(const char *name);

#define MPISCOPE_CAT_(a, b) a##b
#define MPISCOPE_CAT(a, b) MPISCOPE_CAT_(a, b)

/* A name unique within the translation unit where the compiler counts
 * (GCC, Clang and others), else per line. */
#ifdef __COUNTER__
#define MPISCOPE_UNIQUE __COUNTER__
#else
#define MPISCOPE_UNIQUE __LINE__
#endif

/* MPISCOPE_REGION(name) { ... }: the block is one region. `name` is
 * evaluated once. */
#define MPISCOPE_REGION(name) MPISCOPE_REGION_(name, MPISCOPE_UNIQUE)
#define MPISCOPE_REGION_(name, n) MPISCOPE_REGION__(name, MPISCOPE_CAT(mpiscope_name_, n), MPISCOPE_CAT(mpiscope_once_, n))
#define MPISCOPE_REGION__(name, nm, once)                                                      \
    for (const char *nm = (name), *once = (mpiscope_region_begin(nm), ""); once;               \
         mpiscope_region_end(nm), once = (const char *)0)

#if defined(__GNUC__) || defined(__clang__)
static inline const char *mpiscope_scope_begin_(const char *name)
{
    mpiscope_region_begin(name);
    return name;
}

static inline void mpiscope_scope_end_(const char *const *name)
{
    mpiscope_region_end(*name);
}

/* MPISCOPE_SCOPE(name);: from here to the end of the enclosing block is
 * one region (GCC and Clang: the cleanup attribute). */
#define MPISCOPE_SCOPE(name)                                                                   \
    const char *MPISCOPE_CAT(mpiscope_scope_, MPISCOPE_UNIQUE)                                 \
        __attribute__((cleanup(mpiscope_scope_end_), unused)) = mpiscope_scope_begin_(name)
#endif

#ifdef __cplusplus
}
#endif

#endif
