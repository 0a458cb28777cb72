/*
 * --spt DIR: one scope-profiler native trace per rank, the files its C and
 * Fortran region APIs write, so that `scope-profiler import-native DIR`
 * turns an mpiscope run into a scope-profiler profile.
 *
 * File DIR/mpiscope_rank<NNNNN>.spt (the C API's "<prefix>_rank%05d.spt"),
 * trace format version 2, little endian:
 *
 *   char[8] "SCOPEPRF"; int32 version = 2; int32 rank; int64 nregions;
 *   per region: int32 name_len; char name[name_len];
 *               int32 src_len; char src[src_len]    (0: unknown);
 *               int32 src_line                       (-1: unknown);
 *               int64 ncalls; int64 starts[ncalls]; int64 ends[ncalls]
 *
 * Times are nanoseconds on the run's common clock (reduce.h), each region's
 * calls in start order. The source of a region is its dominant call site
 * (run->places) when that site has a line.
 *
 * A window (window.h) keeps the calls inside it, and writes the files of
 * the ranks it lists only.
 *
 * The calls come from the replay of the timeline (timeline_replay.h) and
 * are held in memory one rank at a time.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "out_file.h"
#include "report.h"
#include "timeline_replay.h"

#define SPT_VERSION 2

typedef struct spt_call {
    int64_t start, end;
} spt_call;

typedef struct spt_region {
    size_t n, cap;
    spt_call *calls;
    char *name;              /* its name in the log, len bytes */
    size_t len;
} spt_region;

typedef struct spt_ctx {
    const ms_run *run;
    const char *dir;
    size_t nregions;         /* per-file region indices seen */
    spt_region *regions;
    int nomem;
    char *err;
    size_t errlen;
} spt_ctx;

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

static int grow_regions(spt_ctx *c, uint32_t idx)
{
    if (idx < c->nregions)
        return 0;
    size_t n = (size_t)idx + 1;
    spt_region *r = realloc(c->regions, n * sizeof *r);
    if (!r)
        return -1;
    memset(r + c->nregions, 0, (n - c->nregions) * sizeof *r);
    c->regions = r;
    c->nregions = n;
    return 0;
}

static int on_region(void *ctx, uint32_t region, const char *name, size_t len, const ms_region *g)
{
    (void)g;
    spt_ctx *c = ctx;
    if (grow_regions(c, region) != 0) {
        c->nomem = 1;
        return -1;
    }
    spt_region *r = &c->regions[region];
    if (!(r->name = malloc(len + 1))) {
        c->nomem = 1;
        return -1;
    }
    memcpy(r->name, name, len + 1);
    r->len = len;
    return 0;
}

static int on_call(void *ctx, const ms_replay_call *k)
{
    spt_ctx *c = ctx;
    if (grow_regions(c, k->region) != 0) {
        c->nomem = 1;
        return -1;
    }
    if (!k->kept)
        return 0;
    spt_region *r = &c->regions[k->region];
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        spt_call *p = realloc(r->calls, cap * sizeof *p);
        if (!p) {
            c->nomem = 1;
            return -1;
        }
        r->calls = p;
        r->cap = cap;
    }
    /* The reader keeps times within int64. */
    r->calls[r->n].start = k->start_abs;
    r->calls[r->n].end = k->end_abs;
    r->n++;
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const spt_call *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

static void put_u32(FILE *fp, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    fwrite(b, 1, sizeof b, fp);
}

static void put_u64(FILE *fp, uint64_t v)
{
    put_u32(fp, (uint32_t)v);
    put_u32(fp, (uint32_t)(v >> 32));
}

static void put_str(FILE *fp, const char *s, size_t len)
{
    put_u32(fp, (uint32_t)len);
    fwrite(s, 1, len, fp);
}

/* The dominant call site of a region: its file and line, or NULL. */
static const char *region_source(const ms_run *run, const char *name, int *line)
{
    size_t first;
    if (ms_site_places_of(run->places, run->nplaces, name, &first) == 0)
        return NULL;
    const ms_callsite *row = run->places[first].row;
    if (!row || row->line <= 0 || !row->file || !row->file[0])
        return NULL;
    *line = row->line;
    return row->file;
}

static int write_rank(const char *path, const ms_run *run, int32_t rank, spt_ctx *c)
{
    ms_out out;
    FILE *fp = ms_out_open(&out, path);
    if (!fp)
        return -1;
    uint64_t used = 0;
    for (size_t i = 0; i < c->nregions; i++)
        used += c->regions[i].n > 0;
    fwrite("SCOPEPRF", 1, 8, fp);
    put_u32(fp, SPT_VERSION);
    put_u32(fp, (uint32_t)rank);
    put_u64(fp, used);
    for (size_t i = 0; i < c->nregions; i++) {
        spt_region *reg = &c->regions[i];
        if (reg->n == 0)
            continue;
        const char *name = reg->name ? reg->name : "";
        int line = -1;
        const char *src = region_source(run, name, &line);
        qsort(reg->calls, reg->n, sizeof *reg->calls, by_start);
        put_str(fp, name, reg->name ? reg->len : 0);
        put_str(fp, src ? src : "", src ? strlen(src) : 0);
        put_u32(fp, (uint32_t)(src ? line : -1));
        put_u64(fp, reg->n);
        for (size_t k = 0; k < reg->n; k++)
            put_u64(fp, (uint64_t)reg->calls[k].start);
        for (size_t k = 0; k < reg->n; k++)
            put_u64(fp, (uint64_t)reg->calls[k].end);
    }
    int bad = ferror(fp);
    int rc = ms_out_close(&out, !bad);
    if (bad)
        errno = EIO;
    return bad ? -1 : rc;
}

/* Forget the rank's regions. */
static void ctx_reset(spt_ctx *c)
{
    for (size_t i = 0; i < c->nregions; i++) {
        free(c->regions[i].calls);
        free(c->regions[i].name);
    }
    free(c->regions);
    c->regions = NULL;
    c->nregions = 0;
}

/* A rank read: its file written. */
static int on_rank_done(void *ctx, const ms_rank_info *in, ms_read_status st, const char *message)
{
    spt_ctx *c = ctx;
    int rc = -1;
    if (c->nomem || st == MS_READ_NOMEM) {
        fail(c->err, c->errlen, "out of memory reading %s", in->file);
    } else if (st != MS_READ_OK && st != MS_READ_TRUNCATED) {
        fail(c->err, c->errlen, "%s", message);
    } else {
        char path[4096];
        int n = snprintf(path, sizeof path, "%s/mpiscope_rank%05" PRId32 ".spt", c->dir, in->rank);
        if (n < 0 || (size_t)n >= sizeof path)
            fail(c->err, c->errlen, "path too long under %s", c->dir);
        else if (write_rank(path, c->run, in->rank, c) != 0)
            fail(c->err, c->errlen, "cannot write %s: %s", path, strerror(errno));
        else
            rc = 0;
    }
    ctx_reset(c);
    return rc;
}

int ms_report_spt(const char *dir, const ms_run *run, char *err, size_t errlen)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fail(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    /* A window's ranks only: no file for the others. */
    static const ms_replay_ops ops = {.region = on_region, .call = on_call, .rank_done = on_rank_done};
    spt_ctx c = {.run = run, .dir = dir, .err = err, .errlen = errlen};
    int rc = ms_replay_run(run, &ops, &c);
    ctx_reset(&c);
    return rc;
}
