/*
 * synth-logs: writes the logs of a synthetic run through the real writer
 * (preload/log_file.c) and record encoders (preload/records.h), for merge
 * scaling measurements and tests. Test-only: not installed.
 *
 *   synth-logs [--ranks N] [--events E] [--regions R] [--threads T]
 *              [--seed S] [--jobs J] DIR
 *
 * DIR must not exist; it gets rank-000000.zst .. rank-<N-1>.zst of one run
 * (one run id, header as the runtime writes it, zstd level 1). E events in
 * all (default 1,000,000) are shared out over the ranks (the first E mod N
 * ranks get one more). Each rank runs steps of a halo exchange on a ring,
 * one event per line:
 *
 *   <phase k>                  a user region, k = step mod R (R >= 1)
 *   mpi:isend  to the right, tag 1   mpi:irecv from the left, tag 1
 *   mpi:isend  to the left,  tag 2   mpi:irecv from the right, tag 2
 *   mpi:waitall  (the four requests)
 *   mpi:allreduce  8 bytes
 *
 * plus mpi:init first and mpi:finalize last, whose events count towards E;
 * the last step is cut short where the rank's share ends. Events go to
 * threads round-robin by step (T threads, at most 4). Durations are drawn
 * from a fixed pseudo-random sequence (seed S), so the same arguments give
 * the same logs. On stdout: one line "ranks=N events=E bytes=B" (B: the
 * total size of the logs written).
 */
#define SYNTH_LEVEL 1
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../unit/synth.h"

#define STEP_EVENTS 7u
#define BYTES 65536

typedef struct opts {
    long ranks, regions, threads, jobs;
    unsigned long long events, seed;
    const char *dir;
} opts;

static uint64_t rnd(uint64_t *x)
{
    /* xorshift64* */
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 0x2545f4914f6cdd1dull;
}

/* A duration around base ns: base x (0.5 .. 2.5), skewed by the top bits. */
static uint64_t dur(uint64_t *x, uint64_t base)
{
    uint64_t r = rnd(x);
    return base / 2 + (base * (r >> 44)) / (1ull << 19) + ((r & 0xff) == 0 ? base * 20 : 0);
}

static int flush_full(synth *s, int thread)
{
    return s->len[thread] + 4096 > SYNTH_BUF ? synth_flush(s, thread) : 0;
}

/* What the waitall of a step completed: the four requests of the step, as
 * the library records them (ops of pmpi/calls.tbl: isend 6, irecv 7). */
static void waitall_messages(synth *s, int t, long rank, long ranks, const uint64_t posted[4])
{
    long right = (rank + 1) % ranks, left = (rank + ranks - 1) % ranks;
    synth_message(s, t, 6, 0, 0, right, 1, BYTES, posted[0]);
    synth_message(s, t, 7, MS_MESSAGE_RECV, 0, left, 1, BYTES, posted[1]);
    synth_message(s, t, 6, 0, 0, left, 2, BYTES, posted[2]);
    synth_message(s, t, 7, MS_MESSAGE_RECV, 0, right, 2, BYTES, posted[3]);
}

static int write_rank(const opts *o, long rank, const char *run_id)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/rank-%06ld.zst", o->dir, rank);
    unsigned long long share = o->events / (unsigned long long)o->ranks +
                               ((unsigned long long)rank < o->events % (unsigned long long)o->ranks);
    ms_file_header h;
    synth_header(&h, (int)rank, (int)o->ranks);
    h.pid = 10000 + rank;
    char host[32];
    snprintf(host, sizeof host, "node%ld", rank / 64);
    synth s;
    if (synth_open_run(&s, path, &h, host, run_id) != 0)
        return -1;
    uint64_t x = (o->seed + 1) * 0x9e3779b97f4a7c15ull + (uint64_t)rank * 0xbf58476d1ce4e5b9ull;
    if (x == 0)
        x = 1;
    long left = (rank + o->ranks - 1) % o->ranks, right = (rank + 1) % o->ranks;
    char name[256];
    /* Region ids per thread: 0 init, 1 finalize, 2..7 the step's MPI calls,
     * 8.. the phases. */
    const char *fmt[6] = {
        "mpi:isend kind=point-to-point bytes=%d peer=%ld root=-1 tag=1 comm=0",
        "mpi:irecv kind=point-to-point bytes=-1 peer=%ld root=-1 tag=1 comm=0",
        "mpi:isend kind=point-to-point bytes=%d peer=%ld root=-1 tag=2 comm=0",
        "mpi:irecv kind=point-to-point bytes=-1 peer=%ld root=-1 tag=2 comm=0",
        "mpi:waitall kind=wait bytes=%d peer=-1 root=-1 tag=-1 comm=0 request=mixed",
        "mpi:allreduce kind=collective bytes=8 peer=-1 root=-1 tag=-1 comm=0",
    };
    int nthreads = (int)o->threads;
    for (int t = 0; t < nthreads; t++) {
        if (t == 0) {
            synth_region(&s, 0, 0, "mpi:init kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=-1");
            synth_region(&s, 0, 1, "mpi:finalize kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=-1");
        }
        snprintf(name, sizeof name, fmt[0], BYTES, right);
        synth_region(&s, t, 2, name);
        snprintf(name, sizeof name, fmt[1], left);
        synth_region(&s, t, 3, name);
        snprintf(name, sizeof name, fmt[2], BYTES, left);
        synth_region(&s, t, 4, name);
        snprintf(name, sizeof name, fmt[3], right);
        synth_region(&s, t, 5, name);
        snprintf(name, sizeof name, fmt[4], 4 * BYTES);
        synth_region(&s, t, 6, name);
        synth_region(&s, t, 7, fmt[5]);
        for (long k = 0; k < o->regions; k++) {
            snprintf(name, sizeof name, "phase %ld", k);
            synth_region(&s, t, (uint32_t)(8 + k), name);
        }
    }
    uint64_t now = 5000;
    unsigned long long left_events = share;
    int rc = 0;
    if (left_events > 0) {
        synth_event(&s, 0, 0, h.init_start_ns, h.init_end_ns);  /* mpi:init */
        left_events--;
    }
    int has_finalize = left_events > 0;
    if (has_finalize)
        left_events--;
    static const uint64_t base[6] = {300, 250, 300, 250, 4000, 2500};
    for (uint64_t step = 0; left_events > 0 && rc == 0; step++) {
        int t = (int)(step % (uint64_t)nthreads);
        uint64_t d = dur(&x, 50000);
        synth_event(&s, t, (uint32_t)(8 + step % (uint64_t)o->regions), now, now + d);
        now += d + 100;
        left_events--;
        uint64_t posted[4] = {0};
        for (uint32_t i = 0; i < 6 && left_events > 0; i++, left_events--) {
            d = dur(&x, base[i]);
            if (i == 4)
                waitall_messages(&s, t, rank, o->ranks, posted);
            if (i < 4)
                posted[i] = now;
            synth_event(&s, t, 2 + i, now, now + d);
            now += d + 50;
        }
        rc = flush_full(&s, t);
    }
    uint64_t fin = now + 1000;
    if (has_finalize) {
        synth_event(&s, 0, 1, fin, fin + 30000);
        now = fin + 30000;
    }
    rc |= synth_close(&s, has_finalize ? fin : 0);
    return rc;
}

static int usage(void)
{
    fputs("usage: synth-logs [--ranks N] [--events E] [--regions R] [--threads T] [--seed S] [--jobs J] DIR\n",
          stderr);
    return 1;
}

static int num(const char *s, unsigned long long lo, unsigned long long hi, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    opts o = {.ranks = 4, .regions = 4, .threads = 1, .jobs = 1, .events = 1000000, .seed = 1};
    for (int i = 1; i < argc; i++) {
        unsigned long long v;
        const char *a = argv[i];
        if (i + 1 < argc && a[0] == '-') {
            const char *val = argv[++i];
            if (!strcmp(a, "--ranks") && num(val, 1, 1000000, &v) == 0)
                o.ranks = (long)v;
            else if (!strcmp(a, "--events") && num(val, 0, 1ull << 40, &v) == 0)
                o.events = v;
            else if (!strcmp(a, "--regions") && num(val, 1, 100000, &v) == 0)
                o.regions = (long)v;
            else if (!strcmp(a, "--threads") && num(val, 1, SYNTH_THREADS, &v) == 0)
                o.threads = (long)v;
            else if (!strcmp(a, "--seed") && num(val, 0, UINT64_MAX, &v) == 0)
                o.seed = v;
            else if (!strcmp(a, "--jobs") && num(val, 1, 256, &v) == 0)
                o.jobs = (long)v;
            else
                return usage();
        } else if (a[0] != '-' && !o.dir) {
            o.dir = a;
        } else {
            return usage();
        }
    }
    if (!o.dir)
        return usage();
    if (mkdir(o.dir, 0777) != 0) {
        fprintf(stderr, "synth-logs: cannot create %s: %s\n", o.dir, strerror(errno));
        return 1;
    }
    char run_id[17];
    snprintf(run_id, sizeof run_id, "%016" PRIx64, (uint64_t)(o.seed * 0x9e3779b97f4a7c15ull + 1));
    /* Ranks are written by J processes, rank r by process r mod J. */
    int failed = 0;
    for (long j = 0; j < o.jobs; j++) {
        pid_t pid = o.jobs > 1 ? fork() : 0;
        if (pid < 0) {
            perror("synth-logs: fork");
            return 1;
        }
        if (pid == 0) {
            int rc = 0;
            for (long r = j; r < o.ranks && rc == 0; r += o.jobs)
                if (write_rank(&o, r, run_id) != 0) {
                    fprintf(stderr, "synth-logs: writing rank %ld: %s\n", r, strerror(errno));
                    rc = 1;
                }
            if (o.jobs > 1)
                _exit(rc);
            failed |= rc;
        }
    }
    for (long j = 0; o.jobs > 1 && j < o.jobs; j++) {
        int st;
        if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            failed = 1;
    }
    if (failed)
        return 1;
    unsigned long long bytes = 0;
    char path[4096];
    for (long r = 0; r < o.ranks; r++) {
        struct stat st;
        snprintf(path, sizeof path, "%s/rank-%06ld.zst", o.dir, r);
        if (stat(path, &st) == 0)
            bytes += (unsigned long long)st.st_size;
    }
    printf("ranks=%ld events=%llu bytes=%llu\n", o.ranks, o.events, bytes);
    return 0;
}
