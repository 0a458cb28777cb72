/*
 * Writes the logs of a synthetic two-rank run for the HTML report test
 * (test/html/run.sh): region names and a host name full of markup, quotes,
 * U+2028 and a byte that is not UTF-8; GPU regions (cuda:kernel,
 * cuda:memcpy); and more calls on rank 0 than the timeline keeps, with
 * distinct durations 1 .. LONG_CALLS ns, so that the kept ones can be
 * checked to be the longest (every other call lasts at least 1 us).
 *
 *   hostile_run DIR      DIR must exist and be empty
 */
#include <stdio.h>

#include "synth.h"

#define LONG_CALLS 5000   /* more than MS_HTML_TIMELINE_EVENTS */

static const char *const NAMES[] = {
    "mpi:send kind=point-to-point bytes=64 peer=1 root=-1 tag=0 comm=0",
    "mpi:recv kind=point-to-point bytes=64 peer=0 root=-1 tag=0 comm=0",
    "</script><img id=\"injected\" src=x onerror=\"document.title='pwned'\">&amp;'\"",
    "cuda:kernel saxpy<float>(int, float*)",
    "cuda:memcpy HtoD bytes=1048576",
    "user \xe2\x80\xa8 line\xff break",
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: hostile_run DIR\n");
        return 2;
    }
    for (int rank = 0; rank < 2; rank++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/rank-%06d.zst", argv[1], rank);
        ms_file_header h;
        synth_header(&h, rank, 2);
        synth s;
        if (synth_open_with(&s, path, &h, "evil<b>host</b>&\"'") != 0) {
            fprintf(stderr, "hostile_run: cannot write %s\n", path);
            return 1;
        }
        for (uint32_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
            synth_region(&s, 0, i, NAMES[i]);
        uint64_t t = 10000;
        uint32_t p2p = rank == 0 ? 0 : 1;
        for (uint32_t i = 0; i < 20; i++) {
            synth_event(&s, 0, p2p, t, t + 2000 + 100 * i);
            t += 5000;
            for (uint32_t r = 2; r < sizeof NAMES / sizeof NAMES[0]; r++) {
                synth_event(&s, 0, r, t, t + 1000 * (r + rank));
                t += 10000;
            }
        }
        /* Durations 1 .. LONG_CALLS in a shuffled order (7919 is prime to
         * LONG_CALLS), so that neither the first nor the last calls are the
         * longest. */
        if (rank == 0)
            for (uint32_t i = 0; i < LONG_CALLS; i++) {
                uint64_t d = (uint64_t)i * 7919 % LONG_CALLS + 1;
                synth_event(&s, 0, 0, t, t + d);
                t += d + 10;
                if ((i + 1) % 1000 == 0 && synth_flush(&s, 0) != 0)
                    return 1;
            }
        if (synth_close(&s, t + 1000) != 0) {
            fprintf(stderr, "hostile_run: cannot finish %s\n", path);
            return 1;
        }
    }
    return 0;
}
