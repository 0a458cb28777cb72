/*
 * Synthesizing rank logs for the unit tests, through the real writer
 * (preload/log_file.c) and record encoders (preload/records.h).
 *
 *   synth s;
 *   synth_open(&s, path, rank, size);          header block written
 *   synth_region(&s, thread, id, "name");      records go to a per-thread
 *   synth_event(&s, thread, id, start, end);   buffer; absolute times
 *   synth_flush(&s, thread);                   -> one data block
 *   synth_close(&s, finalize_start_ns);        end block (or none: -1)
 */
#ifndef MPISCOPE_TEST_SYNTH_H
#define MPISCOPE_TEST_SYNTH_H

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../common/op_names.h"
#include "../../preload/log_file.h"
#include "../../preload/records.h"

#define SYNTH_THREADS 4
#define SYNTH_BUF (4u << 20)
#define SYNTH_NO_END UINT64_MAX
#ifndef SYNTH_LEVEL
#define SYNTH_LEVEL 3      /* zstd level; the runtime writes level 1 */
#endif

/* Header values the tests share. */
#define SYNTH_CLOCK_REF 1000000000ull      /* tool clock at calibration */
#define SYNTH_REALTIME_REF 1700000000000000000ll

typedef struct synth {
    ms_log log;
    uint8_t *buf[SYNTH_THREADS];
    size_t len[SYNTH_THREADS];
    uint64_t cursor[SYNTH_THREADS];
    int has_time[SYNTH_THREADS];
    uint64_t events;
    uint64_t last_end;
} synth;

static inline void synth_header(ms_file_header *h, int rank, int size)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, MS_FILE_MAGIC, 8);
    h->version = MS_FORMAT_VERSION;
    h->endian = MS_ENDIAN_MARK;
    h->rank = rank;
    h->size = size;
    h->pid = 4000 + rank;
    h->clock_ref_ns = SYNTH_CLOCK_REF;
    h->realtime_ref_ns = SYNTH_REALTIME_REF;
    h->init_start_ns = 1000;
    h->init_end_ns = 2000;
    h->mode = MS_MODE_TRACE;
}

/* Open with a caller-made header and metadata strings ("key=value"). */
static inline int synth_open_strings(synth *s, const char *path, const ms_file_header *h,
                                     const char *const *strings, uint32_t nstrings)
{
    memset(s, 0, sizeof *s);
    if (ms_log_open(&s->log, path, SYNTH_BUF, SYNTH_LEVEL) != 0)
        return -1;
    for (int i = 0; i < SYNTH_THREADS; i++) {
        s->buf[i] = malloc(SYNTH_BUF);
        if (!s->buf[i])
            return -1;
    }
    return ms_log_write_header(&s->log, h, NULL, strings, nstrings);
}

/* Open with a caller-made header and host name, and the run identity
 * run_id ("run=<run_id>"; NULL: none, as older writers). */
static inline int synth_open_run(synth *s, const char *path, const ms_file_header *h, const char *host,
                                 const char *run_id)
{
    char host_kv[128], run_kv[64];
    snprintf(host_kv, sizeof host_kv, "host=%s", host);
    snprintf(run_kv, sizeof run_kv, "run=%s", run_id ? run_id : "");
    const char *strings[] = {host_kv, "mpi_library=MPICH Version: 4.0.2", "argv0=./app",
                             "run_dir=/tmp/run", "clock=CLOCK_MONOTONIC", run_kv};
    return synth_open_strings(s, path, h, strings, run_id ? 6 : 5);
}

/* Open with a caller-made header and host name. */
static inline int synth_open_with(synth *s, const char *path, const ms_file_header *h, const char *host)
{
    return synth_open_run(s, path, h, host, NULL);
}

static inline int synth_open(synth *s, const char *path, int rank, int size)
{
    ms_file_header h;
    synth_header(&h, rank, size);
    return synth_open_with(s, path, &h, "node0");
}

static inline void synth_region(synth *s, int thread, uint32_t id, const char *name)
{
    s->len[thread] = (size_t)(ms_rec_region(s->buf[thread] + s->len[thread], id, name, strlen(name)) -
                              s->buf[thread]);
}

static inline void synth_time(synth *s, int thread, uint64_t t)
{
    s->len[thread] = (size_t)(ms_rec_time(s->buf[thread] + s->len[thread], t) - s->buf[thread]);
    s->cursor[thread] = t;
    s->has_time[thread] = 1;
}

/* An event at absolute times; a time record first when needed. */
static inline void synth_event(synth *s, int thread, uint32_t id, uint64_t start, uint64_t end)
{
    if (!s->has_time[thread] || start < s->cursor[thread])
        synth_time(s, thread, start);
    uint8_t *p = ms_rec_event(s->buf[thread] + s->len[thread], id, start - s->cursor[thread], end - start);
    s->len[thread] = (size_t)(p - s->buf[thread]);
    s->cursor[thread] = end;
    s->events++;
    if (end > s->last_end)
        s->last_end = end;
}

/* A message record (version 5) for the thread's next event: a request
 * made by op id `op` and posted at absolute time `post` (flags
 * MS_MESSAGE_*; MS_MESSAGE_POSTED is added). A time record first when the
 * thread's stream has none yet. */
static inline void synth_message(synth *s, int thread, uint32_t op, uint32_t flags, int64_t comm, int64_t peer,
                                 int64_t tag, int64_t bytes, uint64_t post)
{
    if (!s->has_time[thread])
        synth_time(s, thread, post);
    uint8_t *p = ms_rec_message(s->buf[thread] + s->len[thread], op, flags | MS_MESSAGE_POSTED, comm, peer, tag,
                                bytes, (int64_t)(s->cursor[thread] - post));
    s->len[thread] = (size_t)(p - s->buf[thread]);
}

/* The calls.tbl op id of an op name, for message records; 0: none. */
static inline uint32_t synth_op(const char *name)
{
    for (uint32_t i = 1; i <= MS_MESSAGE_MAX_OP; i++) {
        const char *n = ms_op_name(i);
        if (!n)
            break;
        if (strcmp(n, name) == 0)
            return i;
    }
    return 0;
}

static inline void synth_comm(synth *s, int thread, uint64_t id, const int *ranks, uint32_t n)
{
    s->len[thread] = (size_t)(ms_rec_comm(s->buf[thread] + s->len[thread], id, ranks, n) - s->buf[thread]);
}

static inline int synth_flush(synth *s, int thread)
{
    if (s->len[thread] == 0)
        return 0;
    int rc = ms_log_write_block(&s->log, MS_BLOCK_DATA, (uint32_t)thread, s->buf[thread], s->len[thread]);
    s->len[thread] = 0;
    return rc;
}

/* Flush every thread, write the end block (unless finalize_start is
 * SYNTH_NO_END) and close. */
static inline int synth_close(synth *s, uint64_t finalize_start)
{
    int rc = 0;
    uint32_t nthreads = 0;
    for (int i = 0; i < SYNTH_THREADS; i++) {
        nthreads += s->has_time[i] != 0;
        rc |= synth_flush(s, i);
        free(s->buf[i]);
    }
    ms_end_record end = {.finalize_start_ns = finalize_start, .end_ns = s->last_end + 10,
                         .events = s->events, .dropped = 0, .nthreads = nthreads,
                         .flags = finalize_start ? MS_END_FINALIZED : 0};
    rc |= ms_log_close(&s->log, finalize_start == SYNTH_NO_END ? NULL : &end);
    return rc;
}

/* A fresh directory under /tmp. */
static inline char *synth_tmpdir(void)
{
    char *d = strdup("/tmp/mpiscope-test-XXXXXX");
    return d && mkdtemp(d) ? d : NULL;
}

static inline int synth_rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Remove a directory made by synth_tmpdir, with what is in it. */
static inline void synth_rmdir(const char *dir)
{
    nftw(dir, synth_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Open rank 0's log of a one-rank run in a fresh directory (returned, NULL
 * on failure; synth_rmdir and free it), its path in path[cap]. */
static inline char *synth_open_fresh(synth *s, char *path, size_t cap)
{
    char *dir = synth_tmpdir();
    if (!dir)
        return NULL;
    snprintf(path, cap, "%s/rank-000000.zst", dir);
    if (synth_open(s, path, 0, 1) != 0) {
        synth_rmdir(dir);
        free(dir);
        return NULL;
    }
    return dir;
}

/* A thread's records as the application's path writes them, where each
 * request record gives the address of the caller's handle as a difference
 * to the previous request record's. */
typedef struct synth_recs {
    uint8_t b[2048];
    uint8_t *p;       /* the end so far: set to b (or a record) first */
    uint64_t where;   /* the previous request record's address */
} synth_recs;

static inline void synth_req(synth_recs *r, uint32_t what, uint64_t handle, uint64_t where)
{
    r->p = ms_rec_request(r->p, what, handle, (int64_t)(where - r->where));
    r->where = where;
}

/* A completed request with its status fields. */
static inline void synth_done(synth_recs *r, uint64_t handle, uint64_t where, int64_t peer, int64_t tag,
                              int64_t bytes)
{
    synth_req(r, MS_REQ_DONE | MS_REQF_STATUS, handle, where);
    r->p = ms_rec_request_status(r->p, peer, tag, bytes);
}

/* An emit callback (the writer's snapshots and gap ends) into s: each
 * block as a data block. */
static inline int synth_emit_block(void *ctx, uint32_t thread, const uint8_t *p, size_t n)
{
    synth *s = ctx;
    return ms_log_write_block(&s->log, MS_BLOCK_DATA, thread, p, n);
}

#endif
