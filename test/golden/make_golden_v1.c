/*
 * Writes the golden logs of format version 1 (test/golden/v1/). Kept for the
 * record of what they contain; a released version's golden logs are never
 * regenerated, only read (test/unit/test_golden.c). Built by hand:
 *
 *   cc -std=c11 -D_GNU_SOURCE -Ipreload -Ipmpi -Itest/unit test/golden/make_golden_v1.c \
 *      preload/log_file.c common/region_name.c -lzstd -o /tmp/make_golden_v1
 *   /tmp/make_golden_v1 test/golden/v1
 *
 * Two ranks. Rank 0: two threads, a communicator record, calls of every
 * record kind, finalized. Rank 1: one thread, finalized, a clock 250 ns
 * ahead of rank 0's.
 */
#include "../../common/region_name.h"
#include "synth.h"

static void name(char *buf, size_t cap, const char *op, const char *kind, int64_t bytes, int32_t peer,
                 int32_t root, int32_t tag, int64_t comm, const char *request)
{
    ms_region_fields f = {op, kind, bytes, peer, root, tag, comm, request, 0, 0};
    ms_region_format(buf, cap, &f);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 1;
    }
    char path[512], init[128], fin[128], isend[128], irecv[128], waitall[128], allreduce[128];
    name(init, sizeof init, "init", "other", -1, -1, -1, -1, -1, NULL);
    name(fin, sizeof fin, "finalize", "other", -1, -1, -1, -1, -1, NULL);
    name(allreduce, sizeof allreduce, "allreduce", "collective", 8, -1, -1, -1, 0, NULL);
    name(waitall, sizeof waitall, "waitall", "wait", 2048, -1, -1, -1, -1, "mixed");

    synth s;
    ms_file_header h;
    snprintf(path, sizeof path, "%s/rank-000000.zst", argv[1]);
    synth_header(&h, 0, 2);
    if (synth_open_with(&s, path, &h, "golden-a") != 0)
        return 1;
    name(isend, sizeof isend, "isend", "point-to-point", 1024, 1, -1, 5, 0, NULL);
    name(irecv, sizeof irecv, "irecv", "point-to-point", 1024, 1, -1, 5, 0, NULL);
    synth_region(&s, 0, 0, init);
    synth_region(&s, 0, 1, isend);
    synth_region(&s, 0, 2, irecv);
    synth_region(&s, 0, 3, waitall);
    synth_region(&s, 0, 4, allreduce);
    synth_region(&s, 0, 5, fin);
    synth_event(&s, 0, 0, 1000, 2000);
    int members[] = {0, 1};
    synth_comm(&s, 0, 12345, members, 2);
    for (int i = 0; i < 3; i++) {
        uint64_t t = 10000 + (uint64_t)i * 10000;
        synth_event(&s, 0, 1, t, t + 300);
        synth_event(&s, 0, 2, t + 400, t + 600);
        synth_event(&s, 0, 3, t + 700, t + 1700 + (uint64_t)i * 1000);
        synth_event(&s, 0, 4, t + 5000, t + 5800);
    }
    synth_flush(&s, 0);
    synth_region(&s, 1, 0, "user:io thread");
    synth_event(&s, 1, 0, 15000, 25000);
    synth_event(&s, 1, 0, 26000, 27000);
    synth_flush(&s, 1);
    synth_event(&s, 0, 5, 50000, 51000);
    if (synth_close(&s, 50000) != 0)
        return 1;

    snprintf(path, sizeof path, "%s/rank-000001.zst", argv[1]);
    synth_header(&h, 1, 2);
    h.realtime_ref_ns += 250;
    if (synth_open_with(&s, path, &h, "golden-b") != 0)
        return 1;
    name(isend, sizeof isend, "isend", "point-to-point", 1024, 0, -1, 5, 0, NULL);
    name(irecv, sizeof irecv, "irecv", "point-to-point", 1024, 0, -1, 5, 0, NULL);
    synth_region(&s, 0, 10, init);
    synth_region(&s, 0, 11, irecv);
    synth_region(&s, 0, 12, isend);
    synth_region(&s, 0, 13, waitall);
    synth_region(&s, 0, 14, allreduce);
    synth_region(&s, 0, 15, fin);
    synth_event(&s, 0, 10, 1000, 1500);
    for (int i = 0; i < 3; i++) {
        uint64_t t = 10000 + (uint64_t)i * 10000;
        synth_event(&s, 0, 11, t, t + 250);
        synth_event(&s, 0, 12, t + 300, t + 500);
        synth_event(&s, 0, 13, t + 600, t + 4600);
        synth_event(&s, 0, 14, t + 5000, t + 5400);
    }
    synth_event(&s, 0, 15, 48000, 48500);
    return synth_close(&s, 48000) != 0;
}
