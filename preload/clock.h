/*
 * The tool clock: CLOCK_MONOTONIC in nanoseconds.
 *
 * Why: it is read through the vDSO (no system call, ~20 ns), never jumps with
 * NTP or settimeofday (unlike CLOCK_REALTIME), is shared by all processes of
 * one host (so ranks on one node compare directly), and keeps counting while
 * a thread sleeps or blocks (unlike per-thread CPU clocks). The log header
 * stores one (CLOCK_MONOTONIC, CLOCK_REALTIME) pair read together, so the
 * merge can place ranks of different hosts on a common time line.
 */
#ifndef MPISCOPE_CLOCK_H
#define MPISCOPE_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t ms_now(void)
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

#endif
