/* Shared by the benchmark programs: a wall clock and argument parsing. */
#ifndef MPISCOPE_BENCH_UTIL_H
#define MPISCOPE_BENCH_UTIL_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* argv[1] as a positive count, else `def`. */
static inline long bench_count(int argc, char **argv, long def)
{
    long n = argc > 1 ? atol(argv[1]) : def;
    return n > 0 ? n : def;
}

#endif
