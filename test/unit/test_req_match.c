/* Requests as raw facts (control record 15, format version 6): the matcher
 * (common/req_match.h) on its own, and request records written with
 * preload/records.h and read back: completions named as the application
 * named them before version 6, their messages delivered before their
 * event, damaged records rejected. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/read/log_reader.h"
#include "../../common/req_match.h"
#include "read_back.h"
#include "synth.h"

/* ---- the matcher ---- */

static const ms_rq_facts ISEND = {.op = 6, .dir = 0, .comm = 0, .peer = 1, .tag = 7, .bytes = 800};
static const ms_rq_facts IRECV = {.op = 7, .dir = 1, .comm = 0, .peer = 1, .tag = 7, .bytes = -1};

static ms_rq_facts facts(ms_rq_facts f, int64_t peer, int64_t bytes)
{
    f.peer = peer;
    f.bytes = bytes;
    return f;
}

static const ms_rq_status NO_STATUS = {.has = 0};

static ms_rq_status status(int64_t peer, int64_t tag, int64_t bytes)
{
    return (ms_rq_status){.has = 1, .cancelled = 0, .peer = peer, .tag = tag, .bytes = bytes};
}

/* One call completing `n` requests: its fold. */
static ms_rq_fold done(ms_rq_table *t, uint32_t thread, int n, const uint64_t *h, const uint64_t *w,
                       const ms_rq_status *st, ms_rq_message *msgs)
{
    ms_rq_call(t);
    ms_rq_fold f = ms_rq_fold_init();
    for (int i = 0; i < n; i++) {
        ms_rq_message m[2];
        int k = ms_rq_take(t, MS_REQ_DONE, thread, h[i], w[i], &st[i], 900, &f, m);
        cr_assert_eq(k, 1);
        if (msgs)
            msgs[i] = m[0];
    }
    return f;
}

Test(req_match, waitall_of_receives_and_sends)
{
    ms_rq_table *t = ms_rq_create();
    cr_assert_not_null(t);
    cr_assert_eq(ms_rq_new(t, 0, 0x10, 0x1000, &IRECV, 100), 0);
    cr_assert_eq(ms_rq_new(t, 0, 0x11, 0x1008, &ISEND, 200), 0);
    cr_expect_eq(ms_rq_live(t), 2);
    uint64_t h[2] = {0x10, 0x11}, w[2] = {0x1000, 0x1008};
    ms_rq_status st[2] = {status(3, 9, 64), status(0, 0, 12345)};
    ms_rq_message m[2];
    ms_rq_fold f = done(t, 0, 2, h, w, st, m);
    cr_expect_eq(f.n, 2);
    cr_expect_eq(f.req_op, MS_RQ_OP_MIXED);
    cr_expect_eq(f.bytes, 64 + 800, "a receive's bytes from its status, a send's from its creation");
    cr_expect_eq(f.peer, -1);
    cr_expect_eq(f.tag, -1);
    cr_expect_eq(f.comm, 0);
    cr_expect_eq(m[0].op, 7);
    cr_expect_eq(m[0].flags, MS_MESSAGE_RECV | MS_MESSAGE_POSTED);
    cr_expect_eq(m[0].peer, 3);
    cr_expect_eq(m[0].tag, 9);
    cr_expect_eq(m[0].bytes, 64);
    cr_expect_eq(m[0].post_ns, 100);
    cr_expect_eq(m[1].flags, MS_MESSAGE_POSTED);
    cr_expect_eq(m[1].peer, 1, "a send's status says nothing");
    cr_expect_eq(m[1].bytes, 800);
    cr_expect_eq(m[1].post_ns, 200);
    cr_expect_eq(ms_rq_live(t), 0);
    ms_rq_destroy(t);
}

/* One handle value for many requests (sends that completed at creation):
 * each completion takes the request returned to its address, else the
 * oldest not yet taken by the call. */
Test(req_match, shared_handle_by_address_then_oldest)
{
    ms_rq_table *t = ms_rq_create();
    for (int i = 0; i < 4; i++)
        cr_assert_eq(ms_rq_new(t, 0, 0x6c000001, 0x2000 + 8u * (unsigned)i, &(ms_rq_facts){.op = 6, .comm = 0,
                     .peer = i, .tag = 1, .bytes = 8 * (i + 1)}, 10), 0);
    /* In reverse order, by address. */
    for (int i = 3; i >= 2; i--) {
        uint64_t h = 0x6c000001, w = 0x2000 + 8u * (unsigned)i;
        ms_rq_status st = status(0, 0, 0);
        ms_rq_fold f = done(t, 0, 1, &h, &w, &st, NULL);
        cr_expect_eq(f.peer, i);
        cr_expect_eq(f.bytes, 8 * (i + 1));
        cr_expect_eq(f.req_op, 6);
    }
    /* The handles moved: the oldest, then the next, in one call. */
    uint64_t h[2] = {0x6c000001, 0x6c000001}, w[2] = {0x9000, 0x9000};
    ms_rq_status st[2] = {NO_STATUS, NO_STATUS};
    ms_rq_message m[2];
    ms_rq_fold f = done(t, 0, 2, h, w, st, m);
    cr_expect_eq(f.bytes, 8 + 16);
    cr_expect_eq(m[0].peer, 0);
    cr_expect_eq(m[1].peer, 1);
    cr_expect_eq(ms_rq_live(t), 0);
    ms_rq_destroy(t);
}

/* MPI_Pready* on a partitioned send of 4 partitions (its NEW record says
 * 4): each reports the bytes of the partitions it names; one without a
 * count (a log before version 9), the whole request's. */
Test(req_match, pready_names_partitions)
{
    ms_rq_table *t = ms_rq_create();
    const ms_rq_facts psend = {.op = 210, .dir = 0, .persistent = 1, .comm = 0, .peer = 1, .tag = 90,
                               .bytes = 48, .root = -1, .parts = 4};
    cr_assert_eq(ms_rq_new(t, 0, 0x60, 0x2000, &psend, 10), 0);
    const int64_t named[4] = {1, 2, 4, 0}, want[4] = {12, 24, 48, 48};
    for (int i = 0; i < 4; i++) {
        ms_rq_call(t);
        ms_rq_fold f = ms_rq_fold_init();
        ms_rq_status st = {.has = 0, .named = named[i]};
        cr_expect_eq(ms_rq_take(t, MS_REQ_REF, 0, 0x60, 0x2000, &st, 20, &f, NULL), 0);
        cr_expect_eq(f.bytes, want[i], "%d partitions named: %lld bytes", (int)named[i], (long long)f.bytes);
        cr_expect_eq(f.req_op, 210);
    }
    /* A start still reports the whole request. */
    ms_rq_call(t);
    ms_rq_fold f = ms_rq_fold_init();
    ms_rq_message m[2];
    cr_expect_eq(ms_rq_take(t, MS_REQ_START, 0, 0x60, 0x2000, NULL, 30, &f, m), 1);
    cr_expect_eq(f.bytes, 48);
    cr_expect_eq(m[0].bytes, 48);
    ms_rq_destroy(t);
}

/* A persistent rooted collective's root, from the name of the call that
 * created it, travels with its starts and completions. */
Test(req_match, persistent_collective_root)
{
    ms_rq_table *t = ms_rq_create();
    const ms_rq_facts bcast = {.op = 85, .dir = 0, .persistent = 1, .comm = 0, .peer = -1, .tag = -1,
                               .bytes = 8, .root = 3};
    cr_assert_eq(ms_rq_new(t, 0, 0x61, 0x2008, &bcast, 10), 0);
    ms_rq_call(t);
    ms_rq_fold f = ms_rq_fold_init();
    ms_rq_message m[2];
    cr_expect_eq(ms_rq_take(t, MS_REQ_START, 0, 0x61, 0x2008, NULL, 30, &f, m), 1);
    cr_expect_eq(m[0].root, 3);
    ms_rq_call(t);
    ms_rq_status st = status(-1, -1, 0);
    cr_expect_eq(ms_rq_take(t, MS_REQ_DONE, 0, 0x61, 0x2008, &st, 40, &f, m), 1);
    cr_expect_eq(m[0].root, 3);
    cr_expect_eq(ms_rq_take(t, MS_REQ_DONE, 0, 0x99, 0x2010, &st, 40, &f, m), 1);
    cr_expect_eq(m[0].root, -1, "a request not seen created has no root");
    ms_rq_destroy(t);
}

Test(req_match, unknown_request)
{
    ms_rq_table *t = ms_rq_create();
    ms_rq_call(t);
    ms_rq_fold f = ms_rq_fold_init();
    ms_rq_message m[2];
    ms_rq_status st = status(1, 2, 3);
    cr_expect_eq(ms_rq_take(t, MS_REQ_DONE, 0, 0x42, 0x10, &st, 5, &f, m), 1);
    cr_expect_eq(f.req_op, MS_RQ_OP_UNKNOWN);
    cr_expect_eq(f.bytes, -1);
    cr_expect_eq(m[0].op, 0);
    cr_expect_eq(m[0].flags, 0);
    cr_expect_eq(m[0].peer, -1);
    cr_expect_eq(ms_rq_take(t, MS_REQ_START, 0, 0x43, 0x10, NULL, 5, &f, m), 1);
    cr_expect_eq(m[0].flags, MS_MESSAGE_STARTED);
    cr_expect_eq(ms_rq_take(t, MS_REQ_FREE, 0, 0x44, 0x10, NULL, 5, &f, m), 0);
    cr_expect_eq(f.n, 3);
    ms_rq_destroy(t);
}

Test(req_match, persistent_start_complete_free)
{
    ms_rq_table *t = ms_rq_create();
    ms_rq_facts recv_init = {.op = 30, .dir = 1, .persistent = 1, .comm = 4, .peer = 2, .tag = 5, .bytes = -1};
    cr_assert_eq(ms_rq_new(t, 0, 0x77, 0x3000, &recv_init, 50), 0);
    for (int round = 0; round < 3; round++) {
        ms_rq_call(t);
        ms_rq_fold f = ms_rq_fold_init();
        ms_rq_message m[2];
        cr_assert_eq(ms_rq_take(t, MS_REQ_START, 0, 0x77, 0x3000, NULL, 1000u * (unsigned)round, &f, m), 1);
        cr_expect_eq(m[0].flags, MS_MESSAGE_STARTED | MS_MESSAGE_POSTED | MS_MESSAGE_RECV);
        cr_expect_eq(m[0].post_ns, 1000u * (unsigned)round);
        cr_expect_eq(f.req_op, 30);
        uint64_t h = 0x77, w = 0x3000;
        ms_rq_status st = status(2, 5, 40 + round);
        ms_rq_fold g = done(t, 0, 1, &h, &w, &st, m);
        cr_expect_eq(g.bytes, 40 + round);
        cr_expect_eq(m[0].post_ns, 1000u * (unsigned)round, "posted by its latest start");
        cr_expect_eq(ms_rq_live(t), 1, "a persistent request lives on");
    }
    /* Inactive: a wait reports it, with the empty status. */
    uint64_t h = 0x77, w = 0x3000;
    ms_rq_status empty = status(-1, -1, 0);
    ms_rq_message m[2];
    ms_rq_fold g = done(t, 0, 1, &h, &w, &empty, m);
    cr_expect_eq(g.bytes, 0);
    cr_expect_eq(m[0].flags, MS_MESSAGE_RECV, "not posted");
    ms_rq_call(t);
    ms_rq_fold f = ms_rq_fold_init();
    cr_expect_eq(ms_rq_take(t, MS_REQ_FREE, 0, 0x77, 0x3000, NULL, 0, &f, m), 0);
    cr_expect_eq(f.req_op, 30);
    cr_expect_eq(ms_rq_live(t), 0);
    ms_rq_destroy(t);
}

/* A receive cancelled with MPI_Cancel: completed with bytes 0 and its
 * posted peer and tag; a request whose status says cancelled without
 * MPI_Cancel (no such thing) is taken as the status says otherwise. */
Test(req_match, cancelled_receive)
{
    ms_rq_table *t = ms_rq_create();
    cr_assert_eq(ms_rq_new(t, 0, 0x20, 0x4000, &IRECV, 10), 0);
    ms_rq_call(t);
    ms_rq_fold f = ms_rq_fold_init();
    ms_rq_message m[2];
    cr_expect_eq(ms_rq_take(t, MS_REQ_CANCEL, 0, 0x20, 0x4000, NULL, 20, &f, m), 0);
    cr_expect_eq(f.req_op, 7);
    uint64_t h = 0x20, w = 0x4000;
    ms_rq_status st = {.has = 1, .cancelled = 1, .peer = 123, .tag = 456, .bytes = 789};
    f = done(t, 0, 1, &h, &w, &st, m);
    cr_expect_eq(f.bytes, 0);
    cr_expect_eq(f.peer, 1);
    cr_expect_eq(f.tag, 7);
    cr_expect_eq(m[0].flags, MS_MESSAGE_RECV | MS_MESSAGE_CANCELLED | MS_MESSAGE_POSTED);
    cr_expect_eq(ms_rq_live(t), 0);
    ms_rq_destroy(t);
}

Test(req_match, isendrecv_is_two_messages)
{
    ms_rq_table *t = ms_rq_create();
    ms_rq_facts pair = {.op = 22, .dir = 0, .pair = 1, .comm = 0, .peer = 1, .tag = 3, .bytes = 16};
    cr_assert_eq(ms_rq_new(t, 0, 0x30, 0x5000, &pair, 10), 0);
    ms_rq_call(t);
    ms_rq_fold f = ms_rq_fold_init();
    ms_rq_message m[2];
    ms_rq_status st = status(1, 4, 24);
    cr_assert_eq(ms_rq_take(t, MS_REQ_DONE, 0, 0x30, 0x5000, &st, 30, &f, m), 2);
    cr_expect_eq(m[0].flags, MS_MESSAGE_POSTED);
    cr_expect_eq(m[0].bytes, 16);
    cr_expect_eq(m[1].flags, MS_MESSAGE_POSTED | MS_MESSAGE_RECV);
    cr_expect_eq(m[1].peer, 1);
    cr_expect_eq(m[1].tag, 4);
    cr_expect_eq(m[1].bytes, 24);
    cr_expect_eq(f.bytes, 16);
    ms_rq_destroy(t);
}

/* Threads: a handle value live on two threads at once goes to the
 * completing thread's own request. */
Test(req_match, threads_keep_their_own)
{
    ms_rq_table *t = ms_rq_create();
    ms_rq_facts a = facts(ISEND, 5, 1), b = facts(ISEND, 6, 2);
    cr_assert_eq(ms_rq_new(t, 0, 0x50, 0x7000, &a, 10), 0);
    cr_assert_eq(ms_rq_new(t, 1, 0x50, 0x8000, &b, 10), 0);
    uint64_t h = 0x50, w = 0x9999;
    ms_rq_status st = NO_STATUS;
    ms_rq_fold f = done(t, 1, 1, &h, &w, &st, NULL);
    cr_expect_eq(f.peer, 6);
    f = done(t, 0, 1, &h, &w, &st, NULL);
    cr_expect_eq(f.peer, 5);
    ms_rq_destroy(t);
}

/* Tens of thousands live at once, completed by one call: every one found,
 * in memory that shrinks back as they complete. */
Test(req_match, seventy_thousand_live)
{
    enum { N = 70000 };
    ms_rq_table *t = ms_rq_create();
    ms_rq_facts f0 = facts(IRECV, 1, -1);
    for (uint64_t i = 0; i < N; i++)
        cr_assert_eq(ms_rq_new(t, 0, 0xac000000u + i, 0x100000 + 8 * i, &f0, 10), 0);
    cr_expect_eq(ms_rq_live(t), N);
    ms_rq_call(t);
    ms_rq_fold f = ms_rq_fold_init();
    for (uint64_t i = 0; i < N; i++) {
        ms_rq_message m[2];
        ms_rq_status st = status(1, 4, 1);
        cr_assert_eq(ms_rq_take(t, MS_REQ_DONE, 0, 0xac000000u + i, 0x100000 + 8 * i, &st, 20, &f, m), 1);
    }
    cr_expect_eq(f.n, N);
    cr_expect_eq(f.req_op, 7);
    cr_expect_eq(f.bytes, N);
    cr_expect_eq(f.peer, 1);
    cr_expect_eq(f.tag, 4);
    cr_expect_eq(ms_rq_live(t), 0);
    /* The table works on after shrinking to nothing. */
    cr_assert_eq(ms_rq_new(t, 0, 0xac000005u, 0x10, &ISEND, 30), 0);
    uint64_t h = 0xac000005u, w = 0x10;
    ms_rq_status st = NO_STATUS;
    cr_expect_eq(done(t, 0, 1, &h, &w, &st, NULL).bytes, 800);
    ms_rq_destroy(t);
}

/* ---- request records through the reader ---- */

#define T0 5000000ull

typedef struct seen {
    rb_regions regions;           /* first: rb_on_region's */
    char order[64];               /* 'M' message, 'E' event */
    int n;
    ms_read_message msg[8];
    int nmsg;
    char names[16][256];          /* event names, in order */
    int nev;
} seen;

static int on_message(void *ctx, const ms_read_message *m)
{
    seen *s = ctx;
    if (s->nmsg < 8)
        s->msg[s->nmsg++] = *m;
    if (s->n < 63)
        s->order[s->n++] = 'M';
    return 0;
}

static int on_event(void *ctx, const ms_read_event *ev)
{
    seen *s = ctx;
    if (s->nev < 16 && ev->region < 64)
        strcpy(s->names[s->nev++], s->regions.name[ev->region]);
    if (s->n < 63)
        s->order[s->n++] = 'E';
    return 0;
}

static ms_read_status read_records(uint32_t version, const uint8_t *rec, size_t n, seen *s, char *msg, size_t cap)
{
    memset(s, 0, sizeof *s);
    ms_read_callbacks cb = {.event = on_event, .message = on_message, .region = rb_on_region};
    return read_back(version, T0 + 100000, rec, n, &cb, s, msg, cap);
}

static uint8_t *region(uint8_t *p, uint32_t id, const char *name)
{
    return ms_rec_region(p, id, name, strlen(name));
}

static uint8_t *request(uint8_t *p, uint32_t what, uint64_t handle, uint64_t *last, uint64_t where)
{
    p = ms_rec_request(p, what, handle, (int64_t)(where - *last));
    *last = where;
    return p;
}

#define WAITALL "mpi:waitall kind=wait bytes=-1 peer=-1 root=-1 tag=-1 comm=-1"

Test(requests, named_and_matched)
{
    uint8_t rec[2048], *p = rec;
    uint64_t last = 0;
    p = region(p, 0, "mpi:irecv kind=point-to-point bytes=-1 peer=1 root=-1 tag=2 comm=0");
    p = region(p, 1, "mpi:isend kind=point-to-point bytes=8 peer=1 root=-1 tag=1 comm=0");
    p = region(p, 2, WAITALL);
    p = region(p, 3, "mpiscope:ring_wait");
    p = ms_rec_time(p, T0);
    p = request(p, MS_REQ_NEW | 1u << MS_REQF_DIR_SHIFT, 0xac000001, &last, 0x7ffc0000);
    p = ms_rec_event(p, 0, 10, 5);
    p = request(p, MS_REQ_NEW, 0x6c000001, &last, 0x7ffc0008);
    p = ms_rec_event(p, 1, 10, 5);
    /* The waitall's records, a tool stall, then its event. */
    p = request(p, MS_REQ_DONE | MS_REQF_STATUS, 0xac000001, &last, 0x7ffc0000);
    p = ms_rec_request_status(p, 1, 2, 8);
    p = request(p, MS_REQ_DONE | MS_REQF_STATUS, 0x6c000001, &last, 0x7ffc0008);
    p = ms_rec_request_status(p, 7777, 8888, 99999);
    p = ms_rec_event(p, 3, 1, 1);
    p = ms_rec_event(p, 2, 10, 50);
    /* A wait on a request never seen created. */
    p = request(p, MS_REQ_DONE, 0x1234, &last, 0x7ffc0010);
    p = ms_rec_event(p, 2, 10, 50);
    /* A waitall that completed nothing. */
    p = ms_rec_event(p, 2, 10, 50);
    seen s;
    char msg[512];
    cr_assert_eq(read_records(MS_FORMAT_VERSION, rec, (size_t)(p - rec), &s, msg, sizeof msg), MS_READ_OK, "%s",
                 msg);
    cr_expect_str_eq(s.order, "EEEMMEMEE", "the messages come right before their event, past the stall");
    cr_assert_eq(s.nev, 6);
    cr_expect_str_eq(s.names[3], "mpi:waitall kind=wait bytes=16 peer=1 root=-1 tag=-1 comm=0 request=mixed");
    cr_expect_str_eq(s.names[4], "mpi:waitall kind=wait bytes=-1 peer=-1 root=-1 tag=-1 comm=-1 request=unknown");
    cr_expect_str_eq(s.names[5], WAITALL);
    cr_assert_eq(s.nmsg, 3);
    cr_expect_eq(s.msg[0].op, 7);
    cr_expect_eq(s.msg[0].flags, MS_MSG_RECV | MS_MSG_POSTED);
    cr_expect_eq(s.msg[0].post_ns, T0 + 10);
    cr_expect_eq(s.msg[1].op, 6);
    cr_expect_eq(s.msg[1].bytes, 8);
    cr_expect_eq(s.msg[1].tag, 1);
    cr_expect_eq(s.msg[1].post_ns, T0 + 25);
    cr_expect_eq(s.msg[2].op, 0);
}

/* One request record (its varints unchecked) before an event. */
static ms_read_status read_raw(uint32_t version, const uint64_t *f, int nf, char *msg, size_t cap)
{
    /* A record cut short ends the block: no event after it. */
    int with_event = nf >= 3 && !((f[0] & MS_REQF_STATUS) && (f[0] & MS_REQ_KIND_MASK) == MS_REQ_DONE && nf < 6);
    uint8_t rec[512], *p = rec;
    p = region(p, 0, WAITALL);
    p = ms_rec_time(p, T0);
    p = ms_put_varint(p, ((uint64_t)MS_CTL_REQUEST << 2) | MS_REC_CONTROL);
    for (int i = 0; i < nf; i++)
        p = ms_put_varint(p, f[i]);
    if (with_event)
        p = ms_rec_event(p, 0, 10, 10);
    seen s;
    return read_records(version, rec, (size_t)(p - rec), &s, msg, cap);
}

static void expect_corrupt(const uint64_t *f, int nf, const char *why)
{
    char msg[512];
    cr_expect_eq(read_raw(MS_FORMAT_VERSION, f, nf, msg, sizeof msg), MS_READ_CORRUPT, "%s: %s", why, msg);
    cr_expect(strstr(msg, why) != NULL, "'%s' in '%s'", why, msg);
}

Test(requests, rejected)
{
    char msg[512];
    const uint64_t good[6] = {MS_REQ_DONE | MS_REQF_STATUS, 0x55, 2, 2, 4, 6};
    cr_assert_eq(read_raw(MS_FORMAT_VERSION, good, 6, msg, sizeof msg), MS_READ_OK, "%s", msg);
    cr_expect_eq(read_raw(5, good, 6, msg, sizeof msg), MS_READ_CORRUPT);
    cr_expect(strstr(msg, "format version < 6") != NULL, "%s", msg);
    /* Kinds 6 and 7 (carried requests, test_req_carried.c) are version 7's. */
    cr_expect_eq(read_raw(6, (const uint64_t[]){6, 0x55, 0}, 3, msg, sizeof msg), MS_READ_CORRUPT);
    cr_expect(strstr(msg, "unknown kind") != NULL, "%s", msg);
    expect_corrupt((const uint64_t[]){MS_REQ_START | 8u, 0x55, 0}, 3, "unknown flags");
    expect_corrupt((const uint64_t[]){MS_REQ_NEW | 3u << MS_REQF_DIR_SHIFT, 0x55, 0}, 3, "unknown flags");
    expect_corrupt((const uint64_t[]){MS_REQ_START | MS_REQF_PARTS, 0x55, 0, 1}, 4, "unknown flags");
    /* A partition count (version 9): 1 or more, an int; not in older logs. */
    expect_corrupt((const uint64_t[]){MS_REQ_NEW | MS_REQF_PARTS, 0x55, 0, 0}, 4, "partition count out of range");
    expect_corrupt((const uint64_t[]){MS_REQ_REF | MS_REQF_PARTS, 0x55, 0, 1ull << 31}, 4,
                   "partition count out of range");
    cr_expect_eq(read_raw(8, (const uint64_t[]){MS_REQ_REF | MS_REQF_PARTS, 0x55, 0, 1}, 4, msg, sizeof msg),
                 MS_READ_CORRUPT);
    cr_expect(strstr(msg, "format version < 9") != NULL, "%s", msg);
    expect_corrupt((const uint64_t[]){MS_REQ_DONE, 0, 0}, 3, "without a handle");
    expect_corrupt((const uint64_t[]){MS_REQ_DONE | MS_REQF_STATUS, 0x55, 0, 2}, 4, "runs past its block");
    expect_corrupt((const uint64_t[]){MS_REQ_DONE, 0x55}, 2, "runs past its block");
    /* Status fields the writer never writes: a source or tag below -1 or
     * past an int, bytes below -1. */
    expect_corrupt((const uint64_t[]){MS_REQ_DONE | MS_REQF_STATUS, 0x55, 2, 3, 4, 6}, 6, "status field out of range");
    expect_corrupt((const uint64_t[]){MS_REQ_DONE | MS_REQF_STATUS, 0x55, 2, 2, 1ull << 32, 6}, 6,
                   "status field out of range");
    expect_corrupt((const uint64_t[]){MS_REQ_DONE | MS_REQF_STATUS, 0x55, 2, 2, 4, 3}, 6, "status field out of range");
}

/* A request created by a call whose name says what no message can (a
 * name written by another tool, or damaged): its message says "not
 * known" for those fields. */
Test(requests, fields_a_message_cannot_say)
{
    uint8_t rec[1024], *p = rec;
    uint64_t last = 0;
    p = region(p, 0, "mpi:isend kind=point-to-point bytes=-2 peer=-5 root=-1 tag=-7 comm=-3");
    p = region(p, 1, WAITALL);
    p = ms_rec_time(p, T0);
    p = request(p, MS_REQ_NEW, 0x6c000001, &last, 0x7ffc0000);
    p = ms_rec_event(p, 0, 10, 5);
    p = request(p, MS_REQ_DONE, 0x6c000001, &last, 0x7ffc0000);
    p = ms_rec_event(p, 1, 10, 5);
    seen s;
    char msg[512];
    cr_assert_eq(read_records(MS_FORMAT_VERSION, rec, (size_t)(p - rec), &s, msg, sizeof msg), MS_READ_OK, "%s",
                 msg);
    cr_assert_eq(s.nmsg, 1);
    cr_expect_eq(s.msg[0].bytes, -1);
    cr_expect_eq(s.msg[0].peer, -1);
    cr_expect_eq(s.msg[0].tag, -1);
    cr_expect_eq(s.msg[0].comm, -1);
}
