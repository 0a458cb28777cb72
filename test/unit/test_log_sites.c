/* Call sites and the load map in logs (format version 3): what the reader
 * delivers, what it rejects, and the merge's call-site rows. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../../analysis/read/log_reader.h"
#include "../../analysis/reduce/reduce.h"
#include "synth.h"

static char *dir;
static ms_reader *reader;

static void setup(void)
{
    dir = synth_tmpdir();
    reader = ms_reader_create();
    cr_assert_not_null(reader);
}

static void teardown(void)
{
    ms_reader_destroy(reader);
    synth_rmdir(dir);
    free(dir);
}

TestSuite(log_sites, .init = setup, .fini = teardown);

static void put_site(synth *s, int thread, uint32_t id, const uint64_t *pc, unsigned n)
{
    s->len[thread] = (size_t)(ms_rec_site(s->buf[thread] + s->len[thread], id, pc, n) - s->buf[thread]);
}

static void put_object(synth *s, int thread, uint64_t base, uint64_t lo, uint64_t hi, const char *path)
{
    static const uint8_t id[4] = {0xde, 0xad, 0xbe, 0xef};
    s->len[thread] = (size_t)(ms_rec_object(s->buf[thread] + s->len[thread], base, lo, hi, path, strlen(path), id,
                                            sizeof id) -
                              s->buf[thread]);
}

/* Raw bytes appended to a thread's records (for malformed records). */
static void put_raw(synth *s, int thread, const uint8_t *b, size_t n)
{
    memcpy(s->buf[thread] + s->len[thread], b, n);
    s->len[thread] += n;
}

typedef struct seen {
    uint32_t sites[8];
    unsigned nev;
    unsigned nsite_cb;
    uint64_t first_pc[8];
    unsigned frames[8];
    unsigned nobj;
    char obj_path[2][64];
    uint64_t obj_lo[2], obj_hi[2];
    uint32_t obj_idlen[2];
} seen;

static int on_event(void *ctx, const ms_read_event *ev)
{
    seen *s = ctx;
    if (s->nev < 8)
        s->sites[s->nev] = ev->site;
    s->nev++;
    return 0;
}

static int on_site(void *ctx, uint32_t site, const uint64_t *pc, uint32_t n)
{
    seen *s = ctx;
    cr_expect_eq(site, s->nsite_cb, "sites are numbered densely");
    if (site < 8) {
        s->first_pc[site] = pc[0];
        s->frames[site] = n;
    }
    s->nsite_cb++;
    return 0;
}

static int on_object(void *ctx, const ms_object *o)
{
    seen *s = ctx;
    if (s->nobj < 2) {
        snprintf(s->obj_path[s->nobj], sizeof s->obj_path[0], "%s", o->path);
        s->obj_lo[s->nobj] = o->lo;
        s->obj_hi[s->nobj] = o->hi;
        s->obj_idlen[s->nobj] = o->build_id_len;
    }
    s->nobj++;
    return 0;
}

static const ms_read_callbacks callbacks = {.event = on_event, .site = on_site, .object = on_object};

Test(log_sites, sites_and_objects_round_trip)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/rank-000000.zst", dir);
    synth s;
    cr_assert_eq(synth_open(&s, path, 0, 1), 0);
    put_object(&s, 0, 0x400000, 0x400000, 0x480000, "/bin/app");
    put_object(&s, 0, 0x7f0000000000, 0x7f0000001000, 0x7f0000100000, "/lib/libx.so");
    uint64_t a[] = {0x401234}, b[] = {0x405678, 0x40aaaa};
    synth_region(&s, 0, 1, "mpi:barrier");
    put_site(&s, 0, 1, a, 1);
    synth_region(&s, 0, 2, "mpi:barrier");
    put_site(&s, 0, 2, b, 2);
    synth_region(&s, 0, 3, "mpi:send");
    synth_event(&s, 0, 1, 100, 200);
    synth_event(&s, 0, 2, 300, 400);
    synth_event(&s, 0, 3, 500, 600);
    /* Another thread with the first chain: the same site index. */
    synth_region(&s, 1, 7, "mpi:barrier");
    put_site(&s, 1, 7, a, 1);
    synth_event(&s, 1, 7, 100, 150);
    cr_assert_eq(synth_flush(&s, 0), 0);
    cr_assert_eq(synth_flush(&s, 1), 0);
    cr_assert_eq(synth_close(&s, 1000), 0);

    seen got = {0};
    ms_read_result res;
    cr_assert_eq(ms_reader_read(reader, path, &callbacks, &got, &res), MS_READ_OK, "%s", res.message);
    cr_assert_eq(got.nev, 4);
    cr_expect_eq(got.sites[0], 0);
    cr_expect_eq(got.sites[1], 1);
    cr_expect_eq(got.sites[2], MS_SITE_NONE);
    cr_expect_eq(got.sites[3], 0);
    cr_expect_eq(got.nsite_cb, 2);
    cr_expect_eq(got.first_pc[0], 0x401234);
    cr_expect_eq(got.frames[1], 2);
    cr_expect_eq(got.first_pc[1], 0x405678);
    cr_assert_eq(got.nobj, 2);
    cr_expect_str_eq(got.obj_path[1], "/lib/libx.so");
    cr_expect_eq(got.obj_lo[1], 0x7f0000001000);
    cr_expect_eq(got.obj_hi[1], 0x7f0000100000);
    cr_expect_eq(got.obj_idlen[0], 4);
    const ms_site_table *t = ms_reader_sites(reader);
    cr_expect_eq(t->nsites, 2);
    cr_expect_eq(t->nobjects, 2);
}

/* A log whose thread 0 holds `bytes` after a region definition of id 1. */
static ms_read_result read_with(const uint8_t *bytes, size_t n)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/rank-000000.zst", dir);
    remove(path);
    synth s;
    cr_assert_eq(synth_open(&s, path, 0, 1), 0);
    synth_region(&s, 0, 1, "mpi:barrier");
    synth_event(&s, 0, 1, 100, 200);
    put_raw(&s, 0, bytes, n);
    cr_assert_eq(synth_flush(&s, 0), 0);
    cr_assert_eq(synth_close(&s, 1000), 0);
    ms_read_result res;
    ms_reader_read(reader, path, &callbacks, &(seen){0}, &res);
    return res;
}

#define CTL(c) ((uint8_t)(((c) << 2) | MS_REC_CONTROL))

static void expect_corrupt(const uint8_t *bytes, size_t n, const char *why)
{
    ms_read_result res = read_with(bytes, n);
    cr_expect_eq(res.status, MS_READ_CORRUPT, "%s: status %s", why, ms_read_status_str(res.status));
    cr_expect(strstr(res.message, why) != NULL, "\"%s\" not in \"%s\"", why, res.message);
    cr_expect(strstr(res.message, "byte offset") != NULL, "%s", res.message);
}

Test(log_sites, malformed_site_records_are_corrupt)
{
    const uint8_t undefined[] = {CTL(MS_CTL_SITE), 9, 1, 0x10};
    expect_corrupt(undefined, sizeof undefined, "call site of an undefined region");
    const uint8_t none[] = {CTL(MS_CTL_SITE), 1, 0};
    expect_corrupt(none, sizeof none, "frame count");
    const uint8_t too_many[] = {CTL(MS_CTL_SITE), 1, 17};
    expect_corrupt(too_many, sizeof too_many, "frame count");
    const uint8_t cut[] = {CTL(MS_CTL_SITE), 1, 2, 0x10};
    expect_corrupt(cut, sizeof cut, "runs past its block");
}

Test(log_sites, malformed_object_records_are_corrupt)
{
    const uint8_t empty_range[] = {CTL(MS_CTL_OBJECT), 0, 5, 5, 1, 'a', 0};
    expect_corrupt(empty_range, sizeof empty_range, "empty address range");
    const uint8_t nul[] = {CTL(MS_CTL_OBJECT), 0, 1, 5, 2, 'a', 0, 0};
    expect_corrupt(nul, sizeof nul, "NUL");
    const uint8_t no_path[] = {CTL(MS_CTL_OBJECT), 0, 1, 5, 0, 0};
    expect_corrupt(no_path, sizeof no_path, "object path");
    const uint8_t long_id[] = {CTL(MS_CTL_OBJECT), 0, 1, 5, 1, 'a', 65};
    expect_corrupt(long_id, sizeof long_id, "build-id");
}

Test(log_sites, merge_rows_per_region_rank_and_site)
{
    for (int rank = 0; rank < 2; rank++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
        synth s;
        cr_assert_eq(synth_open(&s, path, rank, 2), 0);
        /* An object that is not on this machine: object+offset. */
        put_object(&s, 0, 0x10000, 0x10000, 0x20000, "/nonexistent/mpiscope-test-app");
        uint64_t a[] = {0x11000}, b[] = {0x12000}, outside[] = {0x90000};
        synth_region(&s, 0, 1, "mpi:barrier kind=collective bytes=-1 peer=-1 root=-1 tag=-1 comm=0");
        put_site(&s, 0, 1, a, 1);
        synth_region(&s, 0, 2, "mpi:barrier kind=collective bytes=-1 peer=-1 root=-1 tag=-1 comm=0");
        put_site(&s, 0, 2, b, 1);
        synth_region(&s, 0, 3, "mpi:barrier kind=collective bytes=-1 peer=-1 root=-1 tag=-1 comm=0");
        put_site(&s, 0, 3, outside, 1);
        uint64_t t = 1000;
        for (int i = 0; i < 3 + rank; i++, t += 100)
            synth_event(&s, 0, 1, t, t + 10);
        synth_event(&s, 0, 2, t, t + 50);
        synth_event(&s, 0, 3, t + 100, t + 110);
        cr_assert_eq(synth_flush(&s, 0), 0);
        cr_assert_eq(synth_close(&s, t + 1000), 0);
    }
    ms_run *run;
    cr_assert_eq(ms_reduce_dir(dir, 2, &run), MS_REDUCE_OK);
    cr_assert_eq(run->ncallsites, 6);
    /* Sorted by region, rank, total time: per rank the 0x2000 site (50 ns),
     * then 0x1000 (30 or 40 ns), then the address in no object (10 ns). */
    for (int rank = 0; rank < 2; rank++) {
        const ms_callsite *c = &run->callsites[3 * rank];
        cr_expect_eq(c[0].rank, rank);
        cr_expect_str_eq(c[0].file, "mpiscope-test-app+0x2000");
        cr_expect_eq(c[0].calls, 1);
        cr_expect_str_eq(c[1].file, "mpiscope-test-app+0x1000");
        cr_expect_eq(c[1].calls, 3 + rank);
        cr_expect_eq(c[1].total_ns, 10u * (3 + rank));
        cr_expect_eq(c[1].line, 0);
        cr_expect(c[1].object_missing);
        cr_expect_str_eq(c[2].file, "0x90000");
        cr_expect_str_eq(c[2].object, "");
    }
    /* Over ranks: three places, and one warning for the missing object. */
    cr_expect_eq(run->nplaces, 3);
    cr_expect_eq(run->nwarnings, 1);
    cr_expect(strstr(run->warnings[0], "mpiscope-test-app") && strstr(run->warnings[0], "missing"), "%s",
              run->warnings[0]);
    ms_run_free(run);
}
