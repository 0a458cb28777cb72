/*
 * Summary mode's fold, replayed on a real trace: the data blocks of one
 * rank's log, decompressed (`zstd -dc rank-000000.zst > raw`), handed to
 * ms_sum_consume block by block as the writer thread hands it what the
 * application's threads published, requests matched; then the snapshot
 * ms_sum_write gives. Prints the events folded, those lost, and the
 * snapshot's size and FNV-1a hash, so that two builds can be compared byte
 * for byte, and a pass count so that callgrind's counts of 1 and of 3
 * passes give the instructions per event (docs/PERFORMANCE.md, "Summary
 * mode's writer"). The clock is fixed (ticks, 2.1 a ns), not the log's:
 * the snapshot depends on the records only.
 *
 *   fold_replay RAW [PASSES]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log_format.h"
#include "../preload/summary.h"

/* The snapshot's blocks at most (the writer's default buffer). */
#define BLOCK_MAX (1u << 20)

typedef struct digest {
    uint64_t hash;
    size_t bytes;
} digest;

static void mix(digest *d, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d->hash = (d->hash ^ p[i]) * 1099511628211ull;
    d->bytes += n;
}

static int emit(void *ctx, uint32_t thread, const uint8_t *p, size_t n)
{
    uint8_t t[4];
    memcpy(t, &thread, 4);
    mix(ctx, t, 4);
    mix(ctx, p, n);
    return 0;
}

static uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 20, len = 0;
    uint8_t *b = malloc(cap);
    for (size_t got; b && (got = fread(b + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap) {
            uint8_t *nb = realloc(b, cap *= 2);
            if (!nb)
                free(b);
            b = nb;
        }
    }
    fclose(f);
    *n = len;
    return b;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: fold_replay RAW [PASSES]\n");
        return 2;
    }
    int passes = argc > 2 ? atoi(argv[2]) : 1;
    size_t n;
    uint8_t *raw = read_all(argv[1], &n);
    if (!raw || passes < 1 || passes > 100) {
        fprintf(stderr, "fold_replay: %s\n", raw ? "PASSES out of 1..100" : "cannot read the log");
        return 2;
    }
    for (int pass = 1; pass <= passes; pass++) {
        ms_sum_clock clock = {.ticks = 1, .ticks_ref = 1000, .ns_ref = 5000000, .ticks_per_ns = 2.1};
        ms_sum *s = ms_sum_new(&clock, 0, BLOCK_MAX);
        uint8_t *buf = malloc(BLOCK_MAX);   /* ms_sum_write's: block_max bytes */
        if (!s || !buf || ms_sum_match_requests(s) != 0) {
            fprintf(stderr, "fold_replay: out of memory\n");
            return 1;
        }
        uint64_t lost = 0, blocks = 0;
        for (size_t off = 0; off + sizeof(ms_block_header) <= n;) {
            ms_block_header h;
            memcpy(&h, raw + off, sizeof h);
            if (h.magic != MS_BLOCK_MAGIC || h.length > n - off - sizeof h) {
                fprintf(stderr, "fold_replay: not a decompressed log at byte %zu\n", off);
                return 1;
            }
            if (h.kind == MS_BLOCK_DATA) {
                lost += ms_sum_consume(s, h.thread, raw + off + sizeof h, h.length);
                blocks++;
            }
            off += sizeof h + h.length;
        }
        digest d = {.hash = 1469598103934665603ull, .bytes = 0};
        if (ms_sum_write(s, emit, &d, buf) != 0)
            return 1;
        if (pass == passes)
            printf("events %llu lost %llu blocks %llu snapshot %zu bytes, hash %016llx\n",
                   (unsigned long long)ms_sum_events(s), (unsigned long long)lost, (unsigned long long)blocks,
                   d.bytes, (unsigned long long)d.hash);
        ms_sum_free(s);
        free(buf);
    }
    free(raw);
    return 0;
}
