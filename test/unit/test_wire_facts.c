/*
 * The wait-state facts' records in bounded pieces (analysis/reduce/
 * wire_facts.c, docs/MERGE_MPI.md "Fact pieces"): every record of real
 * logs arrives, in pieces no larger than asked and with the documented
 * header; each stream arrives sorted, so that the receiver keeps one run
 * per stream whatever the sender had; a piece dropped, twice, of another
 * process, of another version or cut is refused with a reason, never a
 * crash; a sender that failed says so in its last piece.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/reduce/partial_pack.h"
#include "../../analysis/reduce/reduce_partial.h"
#include "facts_pieces.h"
#include "synth.h"

#define NRANKS 4

static char *dir;

static void write_rank(int rank)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rank-%06d.zst", dir, rank);
    synth s;
    cr_assert_eq(synth_open(&s, path, rank, NRANKS), 0);
    const char *names[] = {"mpi:init", "mpi:send:bytes=64:peer=1:tag=3:comm=0",
                           "mpi:recv:bytes=64:peer=0:tag=3:comm=0", "mpi:allreduce:bytes=8:op=sum:comm=0",
                           "user:step", "mpi:finalize"};
    for (uint32_t i = 0; i < 6; i++)
        synth_region(&s, 0, i, names[i]);
    synth_event(&s, 0, 0, 1000, 2000);
    uint64_t t = 3000;
    for (int k = 0; k < 300 + 37 * rank; k++) {
        uint32_t r = 1 + (uint32_t)((k + rank) % 4);
        uint64_t d = 100 + (uint64_t)((k * 7919 + rank * 104729) % 5000);
        if (r == 1 || r == 2)
            synth_message(&s, 0, synth_op(r == 1 ? "send" : "recv"), r == 2 ? MS_MESSAGE_RECV : 0, 0, rank ^ 1, 3,
                          64, t);
        synth_event(&s, 0, r, t, t + d);
        t += d + 50;
    }
    synth_event(&s, 0, 5, t, t + 300);
    cr_assert_eq(synth_close(&s, t), 0);
}

/* The run's logs read into *p, an empty partial of the same list into *q
 * with the chunk of every file added. */
static void read_run(ms_partial *p, ms_partial *q)
{
    dir = synth_tmpdir();
    cr_assert(dir);
    for (int r = 0; r < NRANKS; r++)
        write_rank(r);
    ms_run *run = ms_run_new(dir);
    ms_partial_init(p);
    cr_assert_eq(ms_partial_list(p, dir, run), MS_REDUCE_OK);
    cr_assert_eq(ms_partial_read(p, 1, NULL), 0);
    const char *names[NRANKS];
    for (size_t i = 0; i < NRANKS; i++)
        names[i] = p->files[i].base;
    ms_partial_init(q);
    cr_assert_eq(ms_partial_files(q, dir, names, NRANKS), 0);
    ms_pbuf b = {0};
    cr_assert_eq(ms_partial_pack(p, NULL, 0, &b), 0);
    uint32_t flags = 0;
    char err[256] = "";
    cr_assert_eq(ms_partial_unpack(q, b.p, b.n, &flags, err, sizeof err), 0, "%s", err);
    ms_pbuf_free(&b);
    ms_run_free(run);
}

static void done_run(ms_partial *p, ms_partial *q)
{
    ms_partial_free(p);
    ms_partial_free(q);
    synth_rmdir(dir);
    free(dir);
}

static void same_stream(const ms_xsort *a, const ms_xsort *b, const char *what)
{
    cr_assert_eq(ms_xsort_count(a), ms_xsort_count(b), "%s: counts", what);
    ms_xsort_iter x, y;
    cr_assert_eq(ms_xsort_iter_init(&x, a, 64), 0);
    cr_assert_eq(ms_xsort_iter_init(&y, b, 64), 0);
    for (uint64_t i = 0; i < ms_xsort_count(a); i++) {
        const void *u = ms_xsort_next(&x), *v = ms_xsort_next(&y);
        cr_assert(u && v);
        cr_assert_eq(memcmp(u, v, a->file.rec), 0, "%s: record %llu differs", what, (unsigned long long)i);
    }
    ms_xsort_iter_free(&x);
    ms_xsort_iter_free(&y);
    cr_assert_leq(b->nruns, 1, "%s: the receiver merges no runs", what);
}

typedef struct pieces {
    ms_pbuf b;
    size_t max, n, dones;
} pieces;

/* Every piece checked against its documented header, then kept. */
static int keep(void *ctx, const unsigned char *p, size_t n, int done)
{
    pieces *k = ctx;
    const unsigned char head[] = {'M', 'S', 'W', 'F', (unsigned char)MS_WIRE_VERSION, 0, 0, 0};
    cr_assert_eq(memcmp(p, head, sizeof head), 0, "piece header");
    cr_assert_eq(facts_le64(p + 12), n, "piece bytes");
    cr_assert_leq(n, k->max, "a piece of %zu bytes, asked at most %zu", n, k->max);
    cr_assert_eq(done, facts_le64(p + 28) == UINT64_MAX, "the last piece is the sender's last");
    k->n++;
    k->dones += done != 0;
    return ms_pbuf_put(&k->b, p, n);
}

Test(wire_facts, every_record_arrives_sorted_in_bounded_pieces)
{
    ms_partial p;
    ms_partial q;
    const size_t sizes[] = {MS_FACTS_PIECE_MIN, 1000, MS_FACTS_PIECE_BYTES};
    for (size_t s = 0; s < 3; s++) {
        read_run(&p, &q);
        pieces k = {.max = sizes[s]};
        cr_assert_eq(ms_facts_pack(&p, NULL, 0, sizes[s], keep, &k), 0);
        cr_assert_eq(k.dones, 1);
        cr_assert(s == 2 || k.n > 2 * NRANKS, "%zu pieces of %zu bytes", k.n, sizes[s]);
        char err[256] = "";
        uint32_t flags = 0;
        cr_assert_eq(facts_unpack(&q, NULL, 0, k.b.p, k.b.n, &flags, err, sizeof err), 1, "%s", err);
        cr_assert_eq(flags, 0);
        for (size_t i = 0; i < NRANKS; i++) {
            const ms_wait_facts *a = p.files[i].waits, *b = q.files[i].waits;
            cr_assert(a && b);
            cr_assert_gt(ms_xsort_count(&a->spill.ends), 50, "real message ends: %llu", (unsigned long long)ms_xsort_count(&a->spill.ends));
            same_stream(&a->spill.ends, &b->spill.ends, "ends");
            same_stream(&a->spill.lane, &b->spill.lane, "lane");
            same_stream(&a->spill.user, &b->spill.user, "user");
            cr_assert_eq(a->spill.nseq, b->spill.nseq);
            cr_assert_eq(a->spill.comms.n, b->spill.comms.n);
        }
        ms_pbuf_free(&k.b);
        done_run(&p, &q);
    }
}

/* A sender's runs, many of them (a sort of 4 records a batch, given in
 * reverse), arrive as one. */
Test(wire_facts, a_sender_of_many_runs_gives_one)
{
    ms_partial p, q;
    read_run(&p, &q);
    ms_wait_facts *f = p.files[0].waits;
    uint64_t n = ms_xsort_count(&f->spill.lane);
    ms_wx_span *v = calloc(n, sizeof *v);
    cr_assert_eq(ms_spill_read(&f->spill.lane.file, 0, (size_t)n, v), 0);
    ms_xsort_free(&f->spill.lane);
    ms_xsort_init(&f->spill.lane, sizeof(ms_wx_span), 4, ms_wx_span_cmp);
    for (uint64_t i = n; i-- > 0;)
        cr_assert_eq(ms_xsort_add(&f->spill.lane, &v[i]), 0);
    cr_assert_eq(ms_xsort_finish(&f->spill.lane), 0);
    cr_assert_gt(f->spill.lane.nruns, 10);
    ms_pbuf b = {0};
    cr_assert_eq(facts_pack(&p, NULL, 4096, &b), 0);
    char err[256] = "";
    cr_assert_eq(facts_unpack(&q, NULL, 0, b.p, b.n, NULL, err, sizeof err), 1, "%s", err);
    same_stream(&f->spill.lane, &q.files[0].waits->spill.lane, "lane of many runs");
    free(v);
    ms_pbuf_free(&b);
    done_run(&p, &q);
}

/* Where each piece of b starts; their count. */
static size_t split(const ms_pbuf *b, size_t *at, size_t cap)
{
    size_t n = 0;
    for (size_t off = 0; off < b->n && n < cap; off += (size_t)facts_le64(b->p + off + 12))
        at[n++] = off;
    return n;
}

/* b without piece `drop`, with piece `twice` twice (SIZE_MAX: none). */
static int unpack_edited(const ms_partial *p, const ms_pbuf *b, size_t drop, size_t twice, const int32_t *owner,
                         int32_t from, char *err)
{
    size_t at[4096];
    size_t n = split(b, at, 4096);
    ms_pbuf e = {0};
    for (size_t i = 0; i < n; i++) {
        size_t len = (i + 1 < n ? at[i + 1] : b->n) - at[i];
        if (i != drop)
            ms_pbuf_put(&e, b->p + at[i], len);
        if (i == twice)
            ms_pbuf_put(&e, b->p + at[i], len);
    }
    ms_partial q;
    ms_partial_init(&q);
    const char *names[NRANKS];
    for (size_t i = 0; i < NRANKS; i++)
        names[i] = p->files[i].base;
    cr_assert_eq(ms_partial_files(&q, dir, names, NRANKS), 0);
    ms_pbuf c = {0};
    cr_assert_eq(ms_partial_pack(p, NULL, 0, &c), 0);
    uint32_t flags = 0;
    cr_assert_eq(ms_partial_unpack(&q, c.p, c.n, &flags, err, 256), 0);
    err[0] = 0;
    int rc = facts_unpack(&q, owner, from, e.p, e.n, NULL, err, 256);
    ms_pbuf_free(&c);
    ms_pbuf_free(&e);
    ms_partial_free(&q);
    return rc;
}

Test(wire_facts, damaged_pieces_are_refused)
{
    ms_partial p, q;
    read_run(&p, &q);
    ms_pbuf b = {0};
    cr_assert_eq(facts_pack(&p, NULL, 1000, &b), 0);
    size_t at[4096];
    size_t n = split(&b, at, 4096);
    cr_assert_gt(n, 8);
    char err[256];
    cr_assert_eq(unpack_edited(&p, &b, SIZE_MAX, SIZE_MAX, NULL, 0, err), 1, "%s", err);
    /* Any piece dropped or twice. */
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(unpack_edited(&p, &b, i, SIZE_MAX, NULL, 0, err), i + 1 == n ? 0 : -2, "piece %zu dropped", i);
        cr_assert(i + 1 == n || err[0]);
        cr_assert_eq(unpack_edited(&p, &b, SIZE_MAX, i, NULL, 0, err), i + 1 == n ? 1 : -2, "piece %zu twice", i);
    }
    /* From a process that did not read the files; and one that read one
     * of them but sent none. */
    int32_t owner[NRANKS] = {1, 1, 1, 1};
    cr_assert_eq(unpack_edited(&p, &b, SIZE_MAX, SIZE_MAX, owner, 2, err), -2);
    cr_assert(strstr(err, "not of the process that sent it"), "%s", err);
    ms_pbuf none = {0};
    cr_assert_eq(ms_facts_pack(&p, (const unsigned char *)"\0\0\0\0", 0, 1000, facts_collect, &none), 0);
    owner[3] = 2;
    cr_assert_eq(unpack_edited(&p, &none, SIZE_MAX, SIZE_MAX, owner, 2, err), -2);
    cr_assert(strstr(err, "of file 3 never came"), "%s", err);
    ms_pbuf_free(&none);
    /* Another version: both named. */
    b.p[at[1] + 4] = (unsigned char)(MS_WIRE_VERSION + 1);
    cr_assert_eq(unpack_edited(&p, &b, SIZE_MAX, SIZE_MAX, NULL, 0, err), -2);
    char want[128];
    snprintf(want, sizeof want, "wire format version %u; this program reads version %u", MS_WIRE_VERSION + 1,
             MS_WIRE_VERSION);
    cr_assert(strstr(err, want), "%s", err);
    b.p[at[1] + 4] = (unsigned char)MS_WIRE_VERSION;
    /* Cut, or a byte overwritten: refused or taken, never a crash. */
    ms_partial r;
    for (size_t cut = 1; cut < at[1]; cut++) {
        ms_partial_init(&r);
        const char *names[NRANKS];
        for (size_t i = 0; i < NRANKS; i++)
            names[i] = p.files[i].base;
        cr_assert_eq(ms_partial_files(&r, dir, names, NRANKS), 0);
        ms_pbuf c = {0};
        cr_assert_eq(ms_partial_pack(&p, NULL, 0, &c), 0);
        uint32_t flags = 0;
        cr_assert_eq(ms_partial_unpack(&r, c.p, c.n, &flags, err, sizeof err), 0);
        ms_facts_in in;
        ms_facts_in_init(&in, NULL, 0);
        cr_assert_eq(ms_facts_unpack(&r, &in, b.p, cut, err, sizeof err), -2, "cut at %zu", cut);
        b.p[cut] ^= 0x5a;
        ms_facts_in_init(&in, NULL, 0);
        int rc = ms_facts_unpack(&r, &in, b.p, at[1], err, sizeof err);
        cr_assert(rc == 0 || rc == -2);
        b.p[cut] ^= 0x5a;
        ms_pbuf_free(&c);
        ms_partial_free(&r);
    }
    ms_pbuf_free(&b);
    done_run(&p, &q);
}

Test(wire_facts, a_failed_sender_says_so)
{
    ms_partial p, q;
    read_run(&p, &q);
    pieces k = {.max = 4096};
    cr_assert_eq(ms_facts_pack(&p, NULL, MS_PACK_NOMEM, 4096, keep, &k), 0);
    cr_assert_eq(k.n, 1, "the last piece alone");
    char err[256] = "";
    uint32_t flags = 0;
    cr_assert_eq(facts_unpack(&q, NULL, 0, k.b.p, k.b.n, &flags, err, sizeof err), 1, "%s", err);
    cr_assert_eq(flags, MS_PACK_NOMEM);
    ms_pbuf_free(&k.b);
    done_run(&p, &q);
}
