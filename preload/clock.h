/*
 * The tool clock.
 *
 * Events are stamped with the processor's time-stamp counter (rdtsc, about
 * 8 ns here against about 23 ns for clock_gettime) where it is invariant:
 * constant rate, never stopping, synchronized across cores (CPUID
 * 0x80000007 EDX bit 8). Elsewhere the tool clock is CLOCK_MONOTONIC in
 * nanoseconds. The log keeps the raw values and says which unit it uses
 * (ms_clock_info); it maps them to CLOCK_MONOTONIC with samples of both
 * clocks read together: one at start, one before each flush, one at the
 * end. The merge interpolates between them, so the counter's exact rate
 * need not be known at run time and the mapping does not drift.
 *
 * CLOCK_MONOTONIC is the reference because it is read through the vDSO,
 * never jumps with NTP or settimeofday (unlike CLOCK_REALTIME), is shared by
 * all processes of one host (so ranks of a node compare directly), and keeps
 * counting while a thread blocks. The header also stores one CLOCK_REALTIME
 * reading, so the merge can place ranks of different hosts on one time line.
 */
#ifndef MPISCOPE_CLOCK_H
#define MPISCOPE_CLOCK_H

#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define MS_HAVE_TSC 1
#else
#define MS_HAVE_TSC 0
#endif

/* 1 when the tool clock is the time-stamp counter (set once, at load). */
extern __attribute__((visibility("hidden"))) int ms_clock_tsc;

/* Decide the tool clock; called once from the library's constructor. */
__attribute__((visibility("hidden"))) void ms_clock_init(void);

static inline uint64_t ms_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int64_t ms_realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + (int64_t)ts.tv_nsec;
}

/* The tool clock: the log clock's unit (ticks or ns). */
static inline uint64_t ms_now(void)
{
#if MS_HAVE_TSC
    if (__builtin_expect(ms_clock_tsc, 1))
        return __rdtsc();
#endif
    return ms_mono_ns();
}

#endif
