/*
 * pack_cost: the MPI merge's packets of a directory of logs (partial_pack.h),
 * their size and the time to pack and unpack them (docs/MERGE_MPI.md).
 *
 *   pack_cost [--repeat N] [--out FILE] DIR
 *
 * Reads every log of DIR in one process, packs every per-file result into
 * one chunk and the wait-state facts' records into pieces (wire_facts.h)
 * N times (default 20) and unpacks them N times into a partial with DIR's
 * file list, as process 0 of the MPI merge does. Prints the chunk's and
 * the pieces' bytes and the median pack and unpack times; --out writes the
 * chunk followed by the pieces to FILE (the fuzz corpus's real packets,
 * test/fuzz/make_pack_corpus.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../analysis/reduce/partial_pack.h"
#include "../analysis/reduce/reduce_partial.h"
#include "../test/unit/facts_pieces.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int repeat = 20;
    const char *dir = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = argv[++i];
        else
            dir = argv[i];
    }
    if (!dir || repeat < 1) {
        fprintf(stderr, "usage: %s [--repeat N] [--out FILE] DIR\n", argv[0]);
        return 1;
    }
    ms_run *run = ms_run_new(dir);
    ms_partial p;
    ms_partial_init(&p);
    if (!run || ms_partial_list(&p, dir, run) != MS_REDUCE_OK || ms_partial_read(&p, 1, NULL) != 0) {
        fprintf(stderr, "%s: cannot read %s\n", argv[0], dir);
        return 1;
    }
    const char **names = calloc(p.nfiles ? p.nfiles : 1, sizeof *names);
    for (size_t i = 0; i < p.nfiles; i++)
        names[i] = p.files[i].base;
    double *tp = calloc((size_t)repeat, sizeof *tp), *tu = calloc((size_t)repeat, sizeof *tu);
    size_t bytes = 0, fbytes = 0;
    for (int k = 0; k < repeat; k++) {
        ms_pbuf b = {0}, fb = {0};
        double t0 = now_s();
        if (ms_partial_pack(&p, NULL, 0, &b) != 0 || facts_pack(&p, NULL, MS_FACTS_PIECE_BYTES, &fb) != 0) {
            fprintf(stderr, "%s: out of memory\n", argv[0]);
            return 1;
        }
        double t1 = now_s();
        ms_partial q;
        ms_partial_init(&q);
        if (ms_partial_files(&q, dir, names, p.nfiles) != 0) {
            fprintf(stderr, "%s: out of memory\n", argv[0]);
            return 1;
        }
        uint32_t flags = 0;
        char err[256] = "";
        double t2 = now_s();
        int rc = ms_partial_unpack(&q, b.p, b.n, &flags, err, sizeof err);
        if (rc == 0 && facts_unpack(&q, NULL, 0, fb.p, fb.n, &flags, err, sizeof err) != 1)
            rc = -2;
        double t3 = now_s();
        if (rc != 0) {
            fprintf(stderr, "%s: unpack: %s\n", argv[0], err[0] ? err : "out of memory");
            return 1;
        }
        tp[k] = t1 - t0;
        tu[k] = t3 - t2;
        bytes = b.n;
        fbytes = fb.n;
        FILE *fp = out && k == 0 ? fopen(out, "wb") : NULL;
        if (out && k == 0 &&
            (!fp || fwrite(b.p, 1, b.n, fp) != b.n || fwrite(fb.p, 1, fb.n, fp) != fb.n || fclose(fp) != 0)) {
            fprintf(stderr, "%s: cannot write %s\n", argv[0], out);
            return 1;
        }
        ms_partial_free(&q);
        ms_pbuf_free(&b);
        ms_pbuf_free(&fb);
    }
    printf("files=%zu chunk_bytes=%zu facts_bytes=%zu pack_ms=%.3f unpack_ms=%.3f\n", p.nfiles, bytes, fbytes, 1e3 * median(tp, repeat),
           1e3 * median(tu, repeat));
    free(tp);
    free(tu);
    free(names);
    ms_partial_free(&p);
    ms_run_free(run);
    return 0;
}
