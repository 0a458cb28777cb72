/*
 * Test-only clock skew:
 * MPISCOPE_TEST_CLOCK_SKEW="<offset_ns>,<drift_ppm>[,<ranks_per_host>]"
 * simulates hosts of ranks_per_host consecutive ranks each (1 when not
 * given): the clock of rank r, on simulated host h = r / ranks_per_host,
 * looks h x offset_ns ahead and h x drift_ppm faster than it is, to
 * everything the log says about time, and the clock synchronization
 * (pmpi/clock_sync.c) groups ranks by simulated host within each real one,
 * so that the merge's clock alignment (analysis/reduce/clock_align.h) and
 * the tree of host leaders can be tested on one host.
 * Only tests set it; it is not part of the configuration (DESIGN section 3).
 *
 * The log clock itself (ms_now, the hot path) is never touched: the skew
 * applies where the log clock is related to CLOCK_MONOTONIC and
 * CLOCK_REALTIME (header, clock blocks, end record) and to the rank-0
 * readings of the clock-sync exchange:
 *
 *   mono' = mono + off + drift (mono - base),  realtime' = realtime + (mono' - mono)
 *
 * with base the CLOCK_MONOTONIC reading when the skew was set up. A reader
 * that maps the log clock through these readings sees every event time
 * skewed the same way. Unset (the normal case), every function returns its
 * argument after one predictable branch.
 */
#ifndef MPISCOPE_CLOCK_SKEW_H
#define MPISCOPE_CLOCK_SKEW_H

#include <stdint.h>

extern __attribute__((visibility("hidden"))) int ms_skew_on;

/* Read the variable (once; later calls do nothing) and set this rank's
 * skew. A malformed value is ignored with one warning. */
__attribute__((visibility("hidden"))) void ms_skew_setup(int rank);

/* The simulated host of a rank (after ms_skew_setup), or -1 when the
 * variable is unset (ranks are grouped by real host only). */
__attribute__((visibility("hidden"))) long ms_skew_host(int rank);

/* mono' - mono for a CLOCK_MONOTONIC reading. Async-signal-safe. */
__attribute__((visibility("hidden"))) int64_t ms_skew_delta(uint64_t mono_ns);

/* The rate of the skewed clock against the true one: 1 + drift. */
__attribute__((visibility("hidden"))) double ms_skew_rate(void);

static inline uint64_t ms_skew_mono(uint64_t mono_ns)
{
    return ms_skew_on ? (uint64_t)((int64_t)mono_ns + ms_skew_delta(mono_ns)) : mono_ns;
}

static inline int64_t ms_skew_realtime(int64_t realtime_ns, uint64_t mono_ns)
{
    return ms_skew_on ? realtime_ns + ms_skew_delta(mono_ns) : realtime_ns;
}

#endif
