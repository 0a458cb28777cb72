/*
 * What one time-stamp read costs on this machine: the floor under the
 * time a wrapper adds to a call, which reads the clock at the call's entry
 * and at its exit (preload/clock.h's ms_now: rdtsc where the time-stamp
 * counter is the log clock, else clock_gettime). No MPI.
 *
 *   clockread [READS] [PASSES]
 *
 * Each pass times READS back-to-back reads of each source, in turn (an
 * empty loop, rdtsc, clock_gettime(CLOCK_MONOTONIC)), and prints the
 * median over the passes, in ns per read, the empty loop's taken off:
 * "rdtsc_ns X", "clock_gettime_ns Y", then "two_reads_ns Z": twice rdtsc's
 * (the library's clock where the time-stamp counter is invariant;
 * MPISCOPE_VERBOSE=1 says which it uses), or twice clock_gettime's on a
 * machine without one.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

#include "bench_util.h"

#define MAX_PASSES 101

static volatile uint64_t sink;

static double per_read(int source, long n)
{
    uint64_t acc = 0;
    double t0 = bench_now();
    for (long i = 0; i < n; i++) {
        if (source == 1) {
#if HAVE_TSC
            acc += __rdtsc();
#endif
        } else if (source == 2) {
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            acc += (uint64_t)ts.tv_nsec;
        } else {
            acc += (uint64_t)i;
            __asm__ volatile("" : "+r"(acc));
        }
    }
    double t1 = bench_now();
    sink = acc;
    return (t1 - t0) / (double)n * 1e9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv)
{
    long reads = bench_count(argc, argv, 10000000);
    long passes = argc > 2 ? atol(argv[2]) : 7;
    if (passes < 1 || passes > MAX_PASSES) {
        fprintf(stderr, "clockread: PASSES must be 1 to %d\n", MAX_PASSES);
        return 2;
    }
    double v[3][MAX_PASSES];
    for (long p = 0; p < passes; p++)
        for (int s = 0; s < 3; s++)
            v[s][p] = per_read(s, reads);
    double loop = median(v[0], (int)passes);
    double tsc = median(v[1], (int)passes) - loop, mono = median(v[2], (int)passes) - loop;
    if (HAVE_TSC)
        printf("rdtsc_ns %.2f\n", tsc);
    printf("clock_gettime_ns %.2f\n", mono);
    printf("two_reads_ns %.2f\n", 2.0 * (HAVE_TSC ? tsc : mono));
    return 0;
}
