/*
 * The writer thread's cost of following a trace (preload/fallback.h): per
 * event, what ms_sum_consume takes to follow the records it writes (time
 * cursors, definitions), what cutting a block at record boundaries takes,
 * and what folding the events into aggregates takes (a full disk, or summary
 * mode). `make bench-follow`; docs/PERFORMANCE.md gives the figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../preload/records.h"
#include "../preload/summary.h"

#define REGIONS 16
#define BLOCK (1u << 20)   /* the default buffer: blocks of up to 1 MiB */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ns per event of one pass over the stream: fold (0 follow, 1 fold), each
 * block cut at record boundaries (ms_sum_records_prefix) when cut is set,
 * consumed unless only_cut. */
static double pass(const uint8_t *buf, size_t hdr, size_t n, uint64_t nev, int fold, int cut, int only_cut)
{
    ms_sum_clock c = {.ticks = 0, .ticks_per_ns = 1.0};
    ms_sum *s = ms_sum_new(&c, 0, BLOCK);
    if (!s)
        exit(1);
    ms_sum_set_folding(s, fold);
    ms_sum_consume(s, 0, buf, hdr);
    double t0 = now();
    for (size_t off = hdr; off < n;) {
        size_t len = ms_sum_records_prefix(buf + off, n - off, BLOCK);
        (void)cut;
        if (!only_cut)
            ms_sum_consume(s, 0, buf + off, len);
        off += len;
    }
    double t1 = now();
    ms_sum_free(s);
    return (t1 - t0) * 1e9 / (double)nev;
}

int main(int argc, char **argv)
{
    size_t cap = (size_t)(argc > 1 ? atoi(argv[1]) : 64) << 20;
    uint8_t *buf = malloc(cap), *p = buf;
    if (!buf)
        return 1;
    p = ms_rec_time(p, 1000);
    for (int r = 0; r < REGIONS; r++) {
        char name[32];
        int len = snprintf(name, sizeof name, "mpi:op%d", r);
        p = ms_rec_region(p, (uint32_t)r, name, (size_t)len);
    }
    size_t hdr = (size_t)(p - buf);
    uint64_t nev = 0;
    while ((size_t)(p - buf) + MS_EVENT_MAX < cap) {
        p = ms_rec_event(p, (uint32_t)(nev % REGIONS), 37 + nev % 100, 250 + nev % 1000);
        nev++;
    }
    size_t n = (size_t)(p - buf);
    double cut = pass(buf, hdr, n, nev, 0, 1, 1);
    double follow_cut = pass(buf, hdr, n, nev, 0, 1, 0);
    double fold_cut = pass(buf, hdr, n, nev, 1, 1, 0);
    printf("%llu events (%.2f bytes each), ns per event:\n", (unsigned long long)nev, (double)(n - hdr) / (double)nev);
    printf("  cut at record boundaries      %6.2f\n", cut);
    printf("  follow (trace mode, always)   %6.2f\n", follow_cut - cut);
    printf("  fold (full disk, summary)     %6.2f\n", fold_cut - cut);
    free(buf);
    return 0;
}
