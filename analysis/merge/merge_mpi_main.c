/*
 * mpiscope-merge-mpich: the merge as an MPI program (DESIGN section 6).
 *
 *   mpiexec.mpich -n P mpiscope-merge-mpich [options] DIR
 *
 * The same command line, outputs, messages and exit status as
 * mpiscope-merge (merge_cli.c); also runs without mpiexec (one process).
 *
 *   1. Process 0 lists DIR (reduce_partial.h) and hands out the files by
 *      size, largest first, each to the process with the fewest bytes so
 *      far; it broadcasts the list and who reads what (wire_list.h).
 *   2. Each process reads its files with -j threads (default: the CPUs of
 *      its node shared among the processes on it) and packs the per-file
 *      results (partial_pack.h).
 *   3. The packets go up a binomial tree: at step k a process whose rank has
 *      bit k set sends everything it holds to rank - 2^k, which appends it
 *      to its own. A packet travels as its length, then pieces of at most
 *      PIECE bytes (so packets over 2 GiB are split); every process takes
 *      part whatever happened to it, and failures travel as chunk flags.
 *   4. Then each process in turn, from 1 up, sends process 0 the records of
 *      its logs' wait-state facts in pieces of at most FACTS_PIECE bytes
 *      (wire_facts.h), each synchronous, the next made while process 0
 *      takes the last, so that no process holds more than two pieces;
 *      process 0 spills each as it comes.
 *   5. Process 0 adds every chunk to its partial, assembles the run and
 *      writes the outputs exactly as mpiscope-merge does (outputs that read
 *      the logs again are written by process 0 alone); errors and warnings
 *      are printed by process 0 only. Its exit status is broadcast and
 *      every process exits with it.
 * Waiting processes poll (MPI_Test, MPI_Iprobe) with short sleeps rather
 * than spin, so that the CPUs stay with the processes that still read.
 */
#include <mpi.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "merge_cli.h"
#include "../reduce/partial_pack.h"
#include "../reduce/reduce_partial.h"
#include "../reduce/wire_facts.h"
#include "../reduce/wire_list.h"

#define TAG_LEN 101
#define TAG_PIECE 102
#define TAG_FACTS 103
#define TAG_FACTS_END 104
/* The largest message; the tests build a copy with small pieces. */
#ifndef MS_MERGE_PIECE_BYTES
#define MS_MERGE_PIECE_BYTES ((size_t)64 << 20)
#endif
#define PIECE ((size_t)(MS_MERGE_PIECE_BYTES))
/* The wait-state facts' pieces: 4 MiB, or PIECE when smaller. */
#define FACTS_PIECE (PIECE < MS_FACTS_PIECE_BYTES ? PIECE : MS_FACTS_PIECE_BYTES)

enum { EXIT_USAGE = 1, EXIT_INPUT = 2 };

static void nap(long *ns)
{
    struct timespec ts = {0, *ns};
    nanosleep(&ts, NULL);
    if (*ns < 1000000)
        *ns *= 2;
}

static void wait_req(MPI_Request *req)
{
    long ns = 1000;
    for (;;) {
        int done = 0;
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        nap(&ns);
    }
}

static void wait_msg(int src, int tag, MPI_Status *st)
{
    long ns = 1000;
    for (;;) {
        int there = 0;
        MPI_Iprobe(src, tag, MPI_COMM_WORLD, &there, st);
        if (there)
            return;
        nap(&ns);
    }
}

/* Broadcast n bytes from process 0 (n known everywhere; below 2 GiB). */
static void bcast_bytes(void *buf, size_t n)
{
    MPI_Request req;
    MPI_Ibcast(buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
    wait_req(&req);
}

/* A number from process 0, as MPI carries a uint64_t (whatever the
 * processes' byte order). */
static void bcast_u64(uint64_t *v)
{
    MPI_Request req;
    MPI_Ibcast(v, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &req);
    wait_req(&req);
}

static void send_packet(const ms_pbuf *b, int dst)
{
    uint64_t n = b->n;
    MPI_Send(&n, 1, MPI_UINT64_T, dst, TAG_LEN, MPI_COMM_WORLD);
    for (size_t off = 0; off < b->n; off += PIECE) {
        size_t len = b->n - off < PIECE ? b->n - off : PIECE;
        MPI_Send(b->p + off, (int)len, MPI_BYTE, dst, TAG_PIECE, MPI_COMM_WORLD);
    }
}

/* Receive a packet from src into *out (malloc'ed, *n bytes). Returns 0; -1
 * when out of memory (the packet is still received, into a scratch piece,
 * and dropped); -2 when a piece is not of the size announced. */
static int recv_packet(int src, unsigned char **out, size_t *n)
{
    MPI_Status st;
    uint64_t len = 0;
    wait_msg(src, TAG_LEN, &st);
    MPI_Recv(&len, 1, MPI_UINT64_T, src, TAG_LEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    unsigned char *buf = len <= SIZE_MAX ? malloc(len ? (size_t)len : 1) : NULL;
    unsigned char *scratch = NULL;
    int rc = 0;
    if (!buf) {
        rc = -1;
        scratch = malloc(PIECE);
        if (!scratch) {
            fprintf(stderr, "%s: out of memory\n", ms_merge_prog);
            MPI_Abort(MPI_COMM_WORLD, EXIT_INPUT);
        }
    }
    for (uint64_t off = 0; off < len; off += PIECE) {
        size_t want = len - off < PIECE ? (size_t)(len - off) : PIECE;
        int count = 0;
        wait_msg(src, TAG_PIECE, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        if (count < 0 || (size_t)count != want) {
            /* Not what was announced: take it and stop here. */
            unsigned char *tmp = malloc(count > 0 ? (size_t)count : 1);
            MPI_Recv(tmp ? tmp : scratch, count, MPI_BYTE, src, TAG_PIECE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            free(tmp);
            rc = -2;
            break;
        }
        MPI_Recv(buf ? buf + off : scratch, count, MPI_BYTE, src, TAG_PIECE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    free(scratch);
    if (rc != 0) {
        free(buf);
        buf = NULL;
        len = 0;
    }
    *out = buf;
    *n = (size_t)len;
    return rc;
}

/* ---- the wait-state facts: every process -> process 0, a piece at a time ---- */

/* A piece in flight: the next is made while process 0 takes this one, so
 * a sender holds two pieces at most. */
typedef struct facts_out {
    unsigned char *buf;
    MPI_Request req;
    int pending;
} facts_out;

static int send_piece(void *ctx, const unsigned char *piece, size_t n, int done)
{
    facts_out *o = ctx;
    if (o->pending)
        wait_req(&o->req);
    memcpy(o->buf, piece, n);
    MPI_Issend(o->buf, (int)n, MPI_BYTE, 0, done ? TAG_FACTS_END : TAG_FACTS, MPI_COMM_WORLD, &o->req);
    o->pending = 1;
    if (done) {
        wait_req(&o->req);
        o->pending = 0;
    }
    return 0;
}

/* Process 0: the pieces of process `from` spilled into p, up to its last,
 * taken whatever happens (once p ran out of memory or a piece did not add
 * up, they are dropped). *damaged and err as for the chunks. */
static void recv_facts(ms_partial *p, const int32_t *owner, int from, unsigned char *buf, uint32_t *flags,
                       int *damaged, char *err, size_t errlen)
{
    ms_facts_in in;
    ms_facts_in_init(&in, owner, from);
    for (int done = 0; !done;) {
        MPI_Status st;
        int count = 0;
        wait_msg(from, MPI_ANY_TAG, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        done = st.MPI_TAG == TAG_FACTS_END;
        if (st.MPI_TAG != TAG_FACTS && !done) {
            fprintf(stderr, "%s: an unexpected message from process %d\n", ms_merge_prog, from);
            MPI_Abort(MPI_COMM_WORLD, EXIT_INPUT);
        }
        int fits = count >= 0 && (size_t)count <= FACTS_PIECE;
        unsigned char *tmp = fits ? NULL : malloc(count > 0 ? (size_t)count : 1);
        if (!fits && !tmp) {
            fprintf(stderr, "%s: out of memory\n", ms_merge_prog);
            MPI_Abort(MPI_COMM_WORLD, EXIT_INPUT);
        }
        MPI_Recv(fits ? buf : tmp, count, MPI_BYTE, from, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        free(tmp);
        if (p->nomem || *damaged)
            continue;
        int r = fits ? ms_facts_unpack(p, &in, buf, (size_t)count, err, errlen) : -2;
        if (!fits)
            snprintf(err, errlen, "a piece of wait-state facts from process %d is larger than a piece", from);
        if (r == -1)
            p->nomem = 1;
        else if (r == -2 || (done && r != 1) || (!done && r == 1)) {
            *damaged = 1;
            if (r != -2)
                snprintf(err, errlen, "the wait-state facts of process %d end out of turn", from);
        } else if (r == 1)
            *flags |= in.flags;
    }
}

/* ---- the file list: process 0 -> all ---- */

typedef struct file_size {
    size_t index;
    uint64_t bytes;
} file_size;

static int size_desc(const void *a, const void *b)
{
    const file_size *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* owner[i]: the process that reads file i. Largest files first, each to the
 * process with the fewest bytes so far (the lowest rank on ties). */
static int assign_files(const ms_partial *p, int nprocs, int32_t *owner)
{
    file_size *fs = malloc((p->nfiles ? p->nfiles : 1) * sizeof *fs);
    uint64_t *load = calloc((size_t)nprocs, sizeof *load);
    if (!fs || !load) {
        free(fs);
        free(load);
        return -1;
    }
    for (size_t i = 0; i < p->nfiles; i++) {
        struct stat sb;
        fs[i].index = i;
        fs[i].bytes = stat(p->files[i].path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    }
    qsort(fs, p->nfiles, sizeof *fs, size_desc);
    for (size_t i = 0; i < p->nfiles; i++) {
        int best = 0;
        for (int r = 1; r < nprocs; r++)
            if (load[r] < load[best])
                best = r;
        owner[fs[i].index] = best;
        load[best] += fs[i].bytes + 1;
    }
    free(fs);
    free(load);
    return 0;
}

/* Threads per process: the node's CPUs over the processes on the node. */
static unsigned default_jobs(void)
{
    MPI_Comm node;
    int local = 1;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_size(node, &local);
        MPI_Comm_free(&node);
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1)
        cpus = 1;
    long j = cpus / (local > 0 ? local : 1);
    return j < 1 ? 1u : (unsigned)j;
}

static int finish_all(int rank, int rc)
{
    uint64_t v = (uint64_t)rc;
    bcast_u64(&v);
    (void)rank;
    MPI_Finalize();
    return (int)v;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, nprocs = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    ms_merge_prog = "mpiscope-merge-mpich";

    /* Every process parses the same command line; process 0 speaks. */
    ms_merge_opts o;
    int rc = ms_merge_parse(argc, argv, rank != 0, &o);
    if (rc >= 0) {
        MPI_Finalize();
        return rc;
    }
    unsigned jobs = o.jobs ? o.jobs : default_jobs();

    /* 1. The list. */
    ms_partial p;
    ms_partial_init(&p);
    ms_run *run = NULL;
    ms_reduce_status st = MS_REDUCE_OK;
    int32_t *owner = NULL;
    ms_pbuf list = {0};
    uint64_t list_len = 0;
    if (rank == 0) {
        run = ms_run_new(o.dir);
        st = run ? ms_partial_list(&p, o.dir, run) : MS_REDUCE_NOMEM;
        owner = st == MS_REDUCE_OK ? malloc((p.nfiles ? p.nfiles : 1) * sizeof *owner) : NULL;
        if (st == MS_REDUCE_OK && (!owner || assign_files(&p, nprocs, owner) != 0))
            st = MS_REDUCE_NOMEM;
        if (st == MS_REDUCE_OK && ms_wire_put_list(&list, &p, owner) != 0)
            st = MS_REDUCE_NOMEM;
        if (st == MS_REDUCE_OK && list.n > INT_MAX) {
            fprintf(stderr, "%s: %s: too many logs for one list (%zu bytes of names)\n", ms_merge_prog, o.dir,
                    list.n);
            ms_pbuf_free(&list);
            ms_run_free(run);
            ms_partial_free(&p);
            free(owner);
            uint64_t none = 0;
            bcast_u64(&none);
            return finish_all(rank, EXIT_USAGE);
        }
        list_len = st == MS_REDUCE_OK ? list.n : 0;
    }
    bcast_u64(&list_len);
    if (list_len == 0) {
        /* Process 0 could not list: it reports why. */
        if (rank == 0)
            rc = ms_merge_finish(st, run, &o);
        ms_partial_free(&p);
        free(owner);
        return finish_all(rank, rc);
    }
    /* The memory guard: process 0 decides (it holds the analysis), every
     * process follows. */
    uint64_t skip_waits = 0;
    if (rank == 0) {
        const char **paths = malloc((p.nfiles ? p.nfiles : 1) * sizeof *paths);
        if (paths) {
            for (size_t i = 0; i < p.nfiles; i++)
                paths[i] = p.files[i].path;
            skip_waits = (uint64_t)ms_merge_guard(&o, paths, p.nfiles);
            free(paths);
        }
    }
    bcast_u64(&skip_waits);
    if (skip_waits)
        ms_reduce_set_waits(0);
    if (rank != 0 && !(list.p = malloc((size_t)list_len))) {
        fprintf(stderr, "%s: out of memory\n", ms_merge_prog);
        MPI_Abort(MPI_COMM_WORLD, EXIT_INPUT);
    }
    bcast_bytes(list.p, (size_t)list_len);
    if (rank != 0) {
        size_t nlisted = 0;
        char err[256] = "";
        int urc = ms_wire_get_list(list.p, (size_t)list_len, nprocs, o.dir, &p, &owner, &nlisted, err, sizeof err);
        if (urc == -2) {
            fprintf(stderr, "%s: the list of logs arrived damaged: %s\n", ms_merge_prog, err);
            MPI_Abort(MPI_COMM_WORLD, EXIT_INPUT);
        }
        if (urc != 0) {
            /* Out of memory: this process reads nothing and says so. */
            ms_partial_free(&p);
            free(owner);
            owner = NULL;
            p.nfiles = nlisted;
            p.nomem = 1;
        }
    }
    ms_pbuf_free(&list);

    /* 2. This process's files. */
    unsigned char *mine = p.files ? calloc(p.nfiles ? p.nfiles : 1, 1) : NULL;
    if (!mine)
        p.nomem = 1;
    for (size_t i = 0; mine && owner && i < p.nfiles; i++)
        mine[i] = owner[i] == rank;
    if (rank != 0) {
        free(owner);
        owner = NULL;
    }
    if (!p.nomem)
        ms_partial_read(&p, jobs, mine);

    /* 3. Up the tree. */
    ms_pbuf b = {0};
    uint32_t flags = 0;
    char err[256] = "";
    int damaged = 0, packed = 0;
    if (rank != 0)
        packed = ms_partial_pack(&p, mine, 0, &b);
    for (int mask = 1; mask < nprocs; mask <<= 1) {
        if (rank & mask) {
            send_packet(&b, rank - mask);
            break;
        }
        if (rank + mask >= nprocs)
            continue;
        unsigned char *got = NULL;
        size_t n = 0;
        int r = recv_packet(rank + mask, &got, &n);
        if (rank == 0) {
            /* Process 0 adds the chunks to its partial as they come. */
            if (r == -1)
                p.nomem = 1;
            else if (r == -2 || (r == 0 && ms_partial_unpack(&p, got, n, &flags, err, sizeof err) == -2)) {
                damaged = 1;
                if (!err[0])
                    snprintf(err, sizeof err, "a packet from process %d is not of the size announced", rank + mask);
            }
        } else {
            /* Others append the packet; a failure becomes a chunk flag. */
            if (r == 0)
                ms_pbuf_put(&b, got, n);
            if (r != 0 || b.nomem) {
                b.nomem = 0;
                ms_partial p0;
                ms_partial_init(&p0);
                p0.nfiles = p.nfiles;
                ms_partial_pack(&p0, NULL, r == -2 ? MS_PACK_FAILED : MS_PACK_NOMEM, &b);
            }
        }
        free(got);
    }
    ms_pbuf_free(&b);

    /* 4. The wait-state facts, one process after the other. */
    if (rank != 0) {
        facts_out fo = {.buf = malloc(FACTS_PIECE)};
        if (!fo.buf) {
            fprintf(stderr, "%s: out of memory\n", ms_merge_prog);
            MPI_Abort(MPI_COMM_WORLD, EXIT_INPUT);
        }
        ms_facts_pack(&p, mine, packed != 0 || !mine ? MS_PACK_NOMEM : 0, FACTS_PIECE, send_piece, &fo);
        free(fo.buf);
    } else {
        unsigned char *piece = malloc(FACTS_PIECE);
        if (!piece) {
            fprintf(stderr, "%s: out of memory\n", ms_merge_prog);
            MPI_Abort(MPI_COMM_WORLD, EXIT_INPUT);
        }
        for (int q = 1; q < nprocs; q++)
            recv_facts(&p, owner, q, piece, &flags, &damaged, err, sizeof err);
        free(piece);
    }
    free(mine);
    free(owner);

    /* 5. The run, at process 0. */
    if (rank == 0) {
        if (flags & MS_PACK_NOMEM)
            p.nomem = 1;
        if (damaged || (flags & MS_PACK_FAILED)) {
            fprintf(stderr, "%s: %s\n", ms_merge_prog, err[0] ? err : "a process could not pass on its results");
            ms_run_free(run);
            run = NULL;
            rc = EXIT_INPUT;
        } else {
            st = ms_partial_assemble(&p, run);
            if (st == MS_REDUCE_NOMEM) {
                ms_run_free(run);
                run = NULL;
            }
            rc = ms_merge_finish(st, run, &o);
        }
    }
    ms_partial_free(&p);
    return finish_all(rank, rc);
}
