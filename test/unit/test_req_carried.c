/*
 * Requests carried over a gap of the trace (docs/FORMAT.md, "Requests
 * carried over a gap"): on a full disk the writer folds what it cannot
 * write (preload/fallback.h); where a thread's trace goes on, the requests
 * it created in the gap and that are still live are written as carried
 * request records, so that the trace's later completions are named and
 * matched as if nothing had been folded. Here the writer's side
 * (preload/summary.c following, folding and ending the gap) writes a real
 * log, and the merge's reader reads it back; and the reader rejects
 * carried records it cannot trust.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/read/log_reader.h"
#include "../../common/req_match.h"
#include "../../preload/summary.h"
#include "read_back.h"
#include "synth.h"

#define T0 5000000ull
#define IRECV "mpi:irecv kind=point-to-point bytes=-1 peer=1 root=-1 tag=2 comm=0"
#define ISEND "mpi:isend kind=point-to-point bytes=8 peer=1 root=-1 tag=1 comm=0"
#define SEND_INIT "mpi:send_init kind=point-to-point bytes=4 peer=1 root=-1 tag=3 comm=0"
#define WAITALL "mpi:waitall kind=wait bytes=-1 peer=-1 root=-1 tag=-1 comm=-1"
#define START "mpi:start kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=-1"
#define WAIT "mpi:wait kind=wait bytes=-1 peer=-1 root=-1 tag=-1 comm=-1"

typedef struct seen {
    rb_regions regions;     /* first: rb_on_region's */
    char names[16][256];    /* event names, in order */
    uint64_t starts[16];
    int nev;
    ms_read_message msg[8];
    int nmsg;
    char sum_names[8][256]; /* summarized regions, and their calls */
    uint64_t sum_calls[8];
    int nsum;
} seen;

static int on_event(void *ctx, const ms_read_event *ev)
{
    seen *s = ctx;
    if (s->nev < 16 && ev->region < 64) {
        s->starts[s->nev] = ev->start_ns;
        strcpy(s->names[s->nev++], s->regions.name[ev->region]);
    }
    return 0;
}

static int on_message(void *ctx, const ms_read_message *m)
{
    seen *s = ctx;
    if (s->nmsg < 8)
        s->msg[s->nmsg++] = *m;
    return 0;
}


static void region(synth_recs *r, uint32_t id, const char *name)
{
    r->p = ms_rec_region(r->p, id, name, strlen(name));
}

#define H1 0xac000001u   /* MPICH-like handles */
#define H2 0xac000002u
#define H3 0xac000003u
#define W0 0x7ffc0000u   /* &req[0], &req[1], &req[2] */
#define W1 0x7ffc0008u
#define W2 0x7ffc0010u

Test(carried, requests_created_in_a_gap_are_named_where_the_trace_goes_on)
{
    char path[512];
    synth sy;
    char *dir = synth_open_fresh(&sy, path, sizeof path);
    cr_assert_not_null(dir);
    ms_sum_clock clock = {.ticks = 0, .ticks_ref = 0, .ns_ref = 0, .ticks_per_ns = 1.0};
    ms_sum *sum = ms_sum_new(&clock, 0, 1u << 16);
    cr_assert_not_null(sum);
    cr_assert_eq(ms_sum_match_requests(sum), 0);
    ms_sum_set_folding(sum, 0);

    /* Written (and followed): the definitions and an irecv. */
    synth_recs a = {.where = 0};
    a.p = a.b;
    region(&a, 0, IRECV);
    region(&a, 1, ISEND);
    region(&a, 2, WAITALL);
    region(&a, 3, SEND_INIT);
    region(&a, 4, START);
    region(&a, 5, WAIT);
    a.p = ms_rec_time(a.p, T0);
    synth_req(&a, MS_REQ_NEW | 1u << MS_REQF_DIR_SHIFT, H1, W0);
    a.p = ms_rec_event(a.p, 0, 10, 5);                  /* T0+10 .. T0+15 */
    cr_assert_eq(synth_emit_block(&sy, 0, a.b, (size_t)(a.p - a.b)), 0);
    cr_assert_eq(ms_sum_consume(sum, 0, a.b, (size_t)(a.p - a.b)), 0);

    /* Folded (no room): the irecv completes, the same handle at the same
     * address is an irecv again, then an isend and a persistent send. */
    synth_recs b = {.where = a.where};
    b.p = b.b;
    synth_done(&b, H1, W0, 1, 2, 8);
    b.p = ms_rec_event(b.p, 2, 10, 5);                  /* T0+25 .. T0+30 */
    synth_req(&b, MS_REQ_NEW | 1u << MS_REQF_DIR_SHIFT, H1, W0);
    b.p = ms_rec_event(b.p, 0, 70, 5);                  /* T0+100 .. T0+105 */
    synth_req(&b, MS_REQ_NEW, H2, W1);
    b.p = ms_rec_event(b.p, 1, 15, 5);                  /* T0+120 .. T0+125 */
    synth_req(&b, MS_REQ_NEW | MS_REQF_PERSISTENT, H3, W2);
    b.p = ms_rec_event(b.p, 3, 15, 5);                  /* T0+140 .. T0+145 */
    ms_sum_gap_begin(sum, 0);
    ms_sum_set_folding(sum, 1);
    cr_assert_eq(ms_sum_consume(sum, 0, b.b, (size_t)(b.p - b.b)), 0);
    ms_sum_set_folding(sum, 0);

    /* The trace goes on: the gap's definitions and requests, once. */
    cr_assert_eq(ms_sum_gap_end(sum, 0, synth_emit_block, &sy), 0);
    cr_assert_eq(ms_sum_gap_end(sum, 0, synth_emit_block, &sy), 0, "a gap ends once");
    uint64_t cursor;
    cr_assert_eq(ms_sum_cursor(sum, 0, &cursor), 0);
    cr_expect_eq(cursor, T0 + 145);
    synth_recs c = {.where = b.where};
    c.p = ms_rec_time(c.b, cursor);
    synth_done(&c, H1, W0, 1, 2, 8);
    synth_done(&c, H2, W1, 0, 0, 0);
    c.p = ms_rec_event(c.p, 2, 55, 10);                 /* T0+200 .. T0+210 */
    synth_req(&c, MS_REQ_START, H3, W2);
    c.p = ms_rec_event(c.p, 4, 10, 5);                  /* T0+220 .. T0+225 */
    synth_done(&c, H3, W2, 0, 0, 0);
    c.p = ms_rec_event(c.p, 5, 5, 5);                   /* T0+230 .. T0+235 */
    cr_assert_eq(synth_emit_block(&sy, 0, c.b, (size_t)(c.p - c.b)), 0);
    cr_assert_eq(ms_sum_consume(sum, 0, c.b, (size_t)(c.p - c.b)), 0);

    /* The folded calls' aggregates after the trace, as at the end. */
    uint8_t *buf = malloc(1u << 16);
    cr_assert_not_null(buf);
    cr_assert_eq(ms_sum_write(sum, synth_emit_block, &sy, buf), 0);
    sy.has_time[0] = 1;
    sy.events = 4;
    sy.last_end = T0 + 235;
    cr_assert_eq(synth_close(&sy, T0 + 1000), 0);

    seen s;
    memset(&s, 0, sizeof s);
    ms_reader *r = ms_reader_create();
    cr_assert_not_null(r);
    ms_read_callbacks cb = {.event = on_event, .message = on_message, .region = rb_on_region};
    ms_read_result res;
    cr_assert_eq(ms_reader_read(r, path, &cb, &s, &res), MS_READ_OK, "%s", res.message);
    cr_expect_eq(res.summarized, 4, "the gap's calls, from the summary");
    cr_assert_eq(s.nev, 4);
    cr_expect_str_eq(s.names[0], IRECV);
    cr_expect_str_eq(s.names[1], "mpi:waitall kind=wait bytes=16 peer=1 root=-1 tag=-1 comm=0 request=mixed",
                     "the irecv and isend created in the gap, completed after it");
    cr_expect_str_eq(s.names[2], "mpi:start kind=other bytes=4 peer=1 root=-1 tag=3 comm=0 request=send_init");
    cr_expect_str_eq(s.names[3], "mpi:wait kind=wait bytes=4 peer=1 root=-1 tag=3 comm=0 request=send_init");
    cr_assert_eq(s.nmsg, 4);
    /* The receive is the one posted in the gap, not the one before it
     * (same handle, same address) that the gap completed. */
    cr_expect_eq(s.msg[0].op, 7);
    cr_expect_eq(s.msg[0].flags, MS_MSG_RECV | MS_MSG_POSTED);
    cr_expect_eq(s.msg[0].post_ns, T0 + 100, "%llu", (unsigned long long)(s.msg[0].post_ns - T0));
    cr_expect_eq(s.msg[0].bytes, 8);
    cr_expect_eq(s.msg[1].op, 6);
    cr_expect_eq(s.msg[1].post_ns, T0 + 120);
    cr_expect_eq(s.msg[1].bytes, 8);
    cr_expect_eq(s.msg[2].flags, MS_MSG_STARTED | MS_MSG_POSTED, "the persistent send carried inactive");
    cr_expect_eq(s.msg[3].post_ns, T0 + 220, "posted by the start after the gap");
    ms_reader_destroy(r);
    free(buf);
    ms_sum_free(sum);
    synth_rmdir(dir);
    free(dir);
}

/* One carried record (its varints unchecked) in a log of `version`. */
static ms_read_status read_carried(uint32_t version, const uint64_t *f, int nf, char *msg, size_t cap)
{
    uint8_t rec[512], *p = rec;
    p = ms_rec_region(p, 0, WAIT, strlen(WAIT));
    p = ms_rec_time(p, T0);
    p = ms_put_varint(p, ((uint64_t)MS_CTL_REQUEST << 2) | MS_REC_CONTROL);
    for (int i = 0; i < nf; i++)
        p = ms_put_varint(p, f[i]);
    if (nf == 10 || (nf == 3 && f[0] == MS_REQ_BASE))
        p = ms_rec_event(p, 0, 10, 10);
    ms_read_callbacks cb = {0};
    return read_back(version, T0 + 100000, rec, (size_t)(p - rec), &cb, NULL, msg, cap);
}

static void expect_corrupt(const uint64_t *f, int nf, const char *why)
{
    char msg[512];
    cr_expect_eq(read_carried(MS_FORMAT_VERSION, f, nf, msg, sizeof msg), MS_READ_CORRUPT, "%s: %s", why, msg);
    cr_expect(strstr(msg, why) != NULL, "'%s' in '%s'", why, msg);
}

#define BAD "carried request record with a field out of range"

Test(carried, rejected)
{
    char msg[512];
    /* what, handle, where, op, traits, comm, peer, tag, bytes, posted */
    const uint64_t good[10] = {MS_REQ_CARRIED | 1u << MS_REQF_DIR_SHIFT, H1, W0, 7, 0, 0, 2, 4, 1, T0 + 1};
    cr_assert_eq(read_carried(MS_FORMAT_VERSION, good, 10, msg, sizeof msg), MS_READ_OK, "%s", msg);
    cr_expect_eq(read_carried(6, good, 10, msg, sizeof msg), MS_READ_CORRUPT, "a version-6 log has none");
    cr_expect(strstr(msg, "unknown kind") != NULL, "%s", msg);
    uint64_t f[10];
    for (int i = 3; i < 10; i++) {
        memcpy(f, good, sizeof f);
        expect_corrupt(f, i, "runs past its block");
    }
    struct {
        int field;
        uint64_t value;
        const char *why;
    } bad[] = {
        {0, MS_REQ_CARRIED | 64u, "unknown flags"},
        {0, MS_REQ_CARRIED | 3u << MS_REQF_DIR_SHIFT, "unknown flags"},
        {1, 0, "without a handle"},
        {3, MS_RQ_OP_UNKNOWN, BAD},
        {4, 4, BAD},
        {5, 3, BAD},                 /* comm -2 */
        {6, 1ull << 32, BAD},        /* peer 2^31 */
        {7, 3, BAD},                 /* tag -2 */
        {8, 3, BAD},                 /* bytes -2 */
        {9, UINT64_MAX, BAD},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(f, good, sizeof f);
        f[bad[i].field] = bad[i].value;
        expect_corrupt(f, 10, bad[i].why);
    }
    /* A base record: what, handle 0, where. */
    const uint64_t base[3] = {MS_REQ_BASE, 0, W0};
    cr_expect_eq(read_carried(MS_FORMAT_VERSION, base, 3, msg, sizeof msg), MS_READ_OK, "%s", msg);
    cr_expect_eq(read_carried(6, base, 3, msg, sizeof msg), MS_READ_CORRUPT, "a version-6 log has none");
    expect_corrupt((const uint64_t[]){MS_REQ_BASE, 5, W0}, 3, BAD);
    expect_corrupt((const uint64_t[]){MS_REQ_BASE | 8u, 0, W0}, 3, "unknown flags");
    expect_corrupt((const uint64_t[]){MS_REQ_BASE, 0}, 2, "runs past its block");
}

static int on_summary(void *ctx, const ms_summary_rec *rs)
{
    seen *s = ctx;
    if (s->nsum < 8 && rs->region < 64) {
        strcpy(s->sum_names[s->nsum], s->regions.name[rs->region]);
        s->sum_calls[s->nsum++] = rs->agg.calls;
    }
    return 0;
}

/* The writer follows every live request a trace created, however many:
 * a fold that begins later names each one's completion. */
Test(carried, every_followed_request_is_known_to_a_fold)
{
    enum { N = 6000 };
    ms_sum_clock clock = {.ticks = 0, .ticks_ref = 0, .ns_ref = 0, .ticks_per_ns = 1.0};
    ms_sum *sum = ms_sum_new(&clock, 0, 1u << 16);
    cr_assert_not_null(sum);
    cr_assert_eq(ms_sum_match_requests(sum), 0);
    ms_sum_set_folding(sum, 0);
    size_t cap = 64u * N + 4096;
    uint8_t *a = malloc(cap), *p = a;
    cr_assert_not_null(a);
    p = ms_rec_region(p, 0, IRECV, strlen(IRECV));
    p = ms_rec_region(p, 1, WAITALL, strlen(WAITALL));
    p = ms_rec_time(p, T0);
    uint64_t last = 0;
    for (uint64_t i = 0; i < N; i++) {
        p = ms_rec_request(p, MS_REQ_NEW | 1u << MS_REQF_DIR_SHIFT, H1 + i, (int64_t)(W0 + 8 * i - last));
        last = W0 + 8 * i;
        p = ms_rec_event(p, 0, 10, 5);
    }
    cr_assert_eq(ms_sum_consume(sum, 0, a, (size_t)(p - a)), 0);
    p = a;
    for (uint64_t i = 0; i < N; i++) {
        p = ms_rec_request(p, MS_REQ_DONE | MS_REQF_STATUS, H1 + i, (int64_t)(W0 + 8 * i - last));
        last = W0 + 8 * i;
        p = ms_rec_request_status(p, 1, 2, 8);
    }
    p = ms_rec_event(p, 1, 10, 5);
    ms_sum_gap_begin(sum, 0);
    ms_sum_set_folding(sum, 1);
    cr_assert_eq(ms_sum_consume(sum, 0, a, (size_t)(p - a)), 0);
    ms_sum_set_folding(sum, 0);

    char path[512];
    char *dir = read_back_snapshot(sum, T0 + 200000, path, sizeof path);
    seen s;
    memset(&s, 0, sizeof s);
    ms_reader *r = ms_reader_create();
    ms_read_callbacks cb = {.region = rb_on_region, .summary = on_summary};
    ms_read_result res;
    cr_assert_eq(ms_reader_read(r, path, &cb, &s, &res), MS_READ_OK, "%s", res.message);
    cr_assert_eq(s.nsum, 1);
    cr_expect_str_eq(s.sum_names[0], "mpi:waitall kind=wait bytes=48000 peer=1 root=-1 tag=2 comm=0 request=irecv");
    cr_expect_eq(s.sum_calls[0], 1);
    ms_reader_destroy(r);
    free(a);
    ms_sum_free(sum);
    synth_rmdir(dir);
    free(dir);
}
