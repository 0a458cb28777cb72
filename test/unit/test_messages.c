/* Message records (control record 13, format version 5): encoded with
 * preload/records.h, read back exactly through the reader, rejected when
 * damaged or in an older log; and followed by the writer's full-disk
 * fall-back (preload/summary.h) without being cut from their event. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../analysis/read/log_reader.h"
#include "../../preload/summary.h"
#include "read_back.h"
#include "synth.h"

#define T0 5000000ull   /* the thread's first time record (ns) */

typedef struct seen {
    int n;                       /* callbacks so far */
    char order[64];              /* 'M' message, 'E' event */
    ms_read_message msg[16];
    int nmsg;
    ms_read_event ev[8];
    int nev;
} seen;

static int on_message(void *ctx, const ms_read_message *m)
{
    seen *s = ctx;
    if (s->nmsg < 16)
        s->msg[s->nmsg++] = *m;
    if (s->n < 63)
        s->order[s->n++] = 'M';
    return 0;
}

static int on_event(void *ctx, const ms_read_event *ev)
{
    seen *s = ctx;
    if (s->nev < 8)
        s->ev[s->nev++] = *ev;
    if (s->n < 63)
        s->order[s->n++] = 'E';
    return 0;
}

/* Write [rec, rec + n) as thread 0's records of a log of `version`, and
 * read it back into *s. */
static ms_read_status read_records(uint32_t version, const uint8_t *rec, size_t n, seen *s, char *msg, size_t cap)
{
    memset(s, 0, sizeof *s);
    ms_read_callbacks cb = {.event = on_event, .message = on_message};
    return read_back(version, T0 + 100000, rec, n, &cb, s, msg, cap);
}

/* A region, a time record, then what `tail` holds. */
static size_t prologue(uint8_t *p0)
{
    const char *name = "mpi:waitall kind=wait bytes=24 peer=-1 root=-1 tag=-1 comm=0 request=mixed";
    uint8_t *p = ms_rec_region(p0, 0, name, strlen(name));
    p = ms_rec_time(p, T0);
    return (size_t)(p - p0);
}

Test(messages, round_trip)
{
    uint8_t rec[1024];
    size_t n = prologue(rec);
    uint8_t *p = rec + n;
    /* Three requests of one waitall: a receive with its actual source, a
     * send, one of an unrecorded creator; then the event. */
    p = ms_rec_message(p, 7, MS_MESSAGE_RECV | MS_MESSAGE_POSTED, 0, 3, 17, 4096, 2500);
    p = ms_rec_message(p, 6, MS_MESSAGE_POSTED, 41, 2, 0, 8, 1200);
    p = ms_rec_message(p, 0, 0, -1, -1, -1, -1, 0);
    p = ms_rec_event(p, 0, 100, 50);
    /* A cancelled receive, a start posted after the cursor (the start's own
     * t0), the largest values a record may hold; then the second event. */
    p = ms_rec_message(p, 7, MS_MESSAGE_RECV | MS_MESSAGE_CANCELLED | MS_MESSAGE_POSTED, 0, 1, 5, 0, 10);
    p = ms_rec_message(p, 30, MS_MESSAGE_STARTED | MS_MESSAGE_POSTED, 0, 1, 8, 16, -30);
    p = ms_rec_message(p, MS_MESSAGE_MAX_OP, MS_MESSAGE_FLAGS, INT64_MAX - 1, INT32_MAX, INT32_MAX, INT64_MAX,
                       (int64_t)(T0 + 150));
    p = ms_rec_event(p, 0, 30, 20);
    seen s;
    char msg[512];
    cr_assert_eq(read_records(MS_FORMAT_VERSION, rec, (size_t)(p - rec), &s, msg, sizeof msg), MS_READ_OK, "%s", msg);
    cr_assert_str_eq(s.order, "MMMEMMME");
    cr_assert_eq(s.nmsg, 6);
    cr_assert_eq(s.nev, 2);
    const ms_read_message *m = s.msg;
    cr_expect_eq(m[0].thread, 0);
    cr_expect_eq(m[0].op, 7);
    cr_expect_eq(m[0].flags, MS_MSG_RECV | MS_MSG_POSTED);
    cr_expect_eq(m[0].comm, 0);
    cr_expect_eq(m[0].peer, 3);
    cr_expect_eq(m[0].tag, 17);
    cr_expect_eq(m[0].bytes, 4096);
    cr_expect_eq(m[0].post_ns, T0 - 2500);
    cr_expect_eq(m[1].op, 6);
    cr_expect_eq(m[1].flags, MS_MSG_POSTED);
    cr_expect_eq(m[1].comm, 41);
    cr_expect_eq(m[1].peer, 2);
    cr_expect_eq(m[1].tag, 0);
    cr_expect_eq(m[1].bytes, 8);
    cr_expect_eq(m[1].post_ns, T0 - 1200);
    cr_expect_eq(m[2].op, 0);
    cr_expect_eq(m[2].flags, 0);
    cr_expect_eq(m[2].comm, -1);
    cr_expect_eq(m[2].peer, -1);
    cr_expect_eq(m[2].tag, -1);
    cr_expect_eq(m[2].bytes, -1);
    cr_expect_eq(m[2].post_ns, 0);
    /* After the first event the cursor is its end. */
    uint64_t cursor = T0 + 150;
    cr_expect_eq(s.ev[0].start_ns, T0 + 100);
    cr_expect_eq(s.ev[0].end_ns, cursor);
    cr_expect_eq(m[3].flags, MS_MSG_RECV | MS_MSG_CANCELLED | MS_MSG_POSTED);
    cr_expect_eq(m[3].bytes, 0);
    cr_expect_eq(m[3].peer, 1);
    cr_expect_eq(m[3].tag, 5);
    cr_expect_eq(m[3].post_ns, cursor - 10);
    cr_expect_eq(m[4].op, 30);
    cr_expect_eq(m[4].flags, MS_MSG_STARTED | MS_MSG_POSTED);
    cr_expect_eq(m[4].bytes, 16);
    cr_expect_eq(m[4].post_ns, cursor + 30);
    cr_expect_eq(s.ev[1].start_ns, cursor + 30, "the start's own event starts at its post time");
    cr_expect_eq(m[5].op, MS_MESSAGE_MAX_OP);
    cr_expect_eq(m[5].flags, MS_MSG_RECV | MS_MSG_CANCELLED | MS_MSG_STARTED | MS_MSG_POSTED);
    cr_expect_eq(m[5].comm, INT64_MAX - 1);
    cr_expect_eq(m[5].peer, INT32_MAX);
    cr_expect_eq(m[5].tag, INT32_MAX);
    cr_expect_eq(m[5].bytes, INT64_MAX);
    cr_expect_eq(m[5].post_ns, 0);
}

Test(messages, zigzag)
{
    const int64_t v[] = {0, -1, 1, -2, 63, -64, 64, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        cr_expect_eq(ms_unzigzag(ms_zigzag(v[i])), v[i], "%lld", (long long)v[i]);
    cr_expect_eq(ms_zigzag(0), 0);
    cr_expect_eq(ms_zigzag(-1), 1);
    cr_expect_eq(ms_zigzag(1), 2);
    cr_expect_eq(ms_zigzag(INT64_MIN), UINT64_MAX);
}

/* One message record (fields as varints, unchecked) before an event. */
static ms_read_status read_raw(uint32_t version, const uint64_t f[7], char *msg, size_t cap)
{
    uint8_t rec[512];
    size_t n = prologue(rec);
    uint8_t *p = rec + n;
    p = ms_put_varint(p, ((uint64_t)MS_CTL_MESSAGE << 2) | MS_REC_CONTROL);
    for (int i = 0; i < 7; i++)
        p = ms_put_varint(p, f[i]);
    p = ms_rec_event(p, 0, 10, 10);
    seen s;
    return read_records(version, rec, (size_t)(p - rec), &s, msg, cap);
}

static void expect_corrupt(const uint64_t f[7], const char *why)
{
    char msg[512];
    cr_expect_eq(read_raw(MS_FORMAT_VERSION, f, msg, sizeof msg), MS_READ_CORRUPT, "%s: %s", why, msg);
    cr_expect(strstr(msg, why) != NULL, "'%s' in '%s'", why, msg);
    cr_expect(strstr(msg, "byte offset") != NULL, "%s", msg);
}

Test(messages, rejected)
{
    char msg[512];
    /* A good record, as a reference for the damaged ones. */
    const uint64_t good[7] = {7, MS_MESSAGE_RECV | MS_MESSAGE_POSTED, 1, ms_zigzag(1), ms_zigzag(3), ms_zigzag(8),
                              ms_zigzag(100)};
    cr_assert_eq(read_raw(MS_FORMAT_VERSION, good, msg, sizeof msg), MS_READ_OK, "%s", msg);
    uint64_t f[7];
    for (uint64_t bit = 16; bit; bit <<= 1) {
        memcpy(f, good, sizeof f);
        f[1] |= bit;
        expect_corrupt(f, "unknown flags");
        if (bit >= 1u << 20)
            break;
    }
    memcpy(f, good, sizeof f);
    f[1] = UINT64_MAX;
    expect_corrupt(f, "unknown flags");
    memcpy(f, good, sizeof f);
    f[0] = MS_MESSAGE_MAX_OP + 1u;
    expect_corrupt(f, "op out of range");
    memcpy(f, good, sizeof f);
    f[3] = ms_zigzag(-2);
    expect_corrupt(f, "out of range");
    memcpy(f, good, sizeof f);
    f[4] = ms_zigzag((int64_t)INT32_MAX + 1);
    expect_corrupt(f, "out of range");
    memcpy(f, good, sizeof f);
    f[5] = ms_zigzag(-7);
    expect_corrupt(f, "out of range");
    /* A post time without the flag, or before the log clock's zero. */
    memcpy(f, good, sizeof f);
    f[1] = MS_MESSAGE_RECV;
    expect_corrupt(f, "no posted flag");
    memcpy(f, good, sizeof f);
    f[6] = ms_zigzag((int64_t)T0 + 1);
    expect_corrupt(f, "post time out of range");
    memcpy(f, good, sizeof f);
    f[6] = ms_zigzag(INT64_MIN);
    expect_corrupt(f, "post time out of range");
}

Test(messages, rejected_before_version_5)
{
    const uint64_t good[7] = {6, MS_MESSAGE_POSTED, 1, ms_zigzag(1), ms_zigzag(3), ms_zigzag(8), ms_zigzag(100)};
    char msg[512];
    cr_assert_eq(read_raw(5, good, msg, sizeof msg), MS_READ_OK, "%s", msg);
    /* (Version 1 headers have another layout.) */
    for (uint32_t v = 2; v < 5; v++) {
        cr_expect_eq(read_raw(v, good, msg, sizeof msg), MS_READ_CORRUPT, "version %u: %s", v, msg);
        cr_expect(strstr(msg, "message record in a log of format version < 5") != NULL, "%s", msg);
    }
}

Test(messages, cut_short_or_before_time)
{
    uint8_t rec[256];
    size_t n = prologue(rec);
    uint8_t *end = ms_rec_message(rec + n, 6, MS_MESSAGE_POSTED, 0, 1, 2, 3, 4);
    seen s;
    char msg[512];
    /* The block ends inside the record. */
    for (uint8_t *cut = rec + n + 1; cut < end; cut++) {
        cr_expect_eq(read_records(MS_FORMAT_VERSION, rec, (size_t)(cut - rec), &s, msg, sizeof msg),
                     MS_READ_CORRUPT, "%s", msg);
        cr_expect(strstr(msg, "message record runs past its block") != NULL, "%s", msg);
    }
    /* A message record before the thread's first time record. */
    uint8_t *p = ms_rec_message(rec, 6, 0, 0, 1, 2, 3, 0);
    cr_expect_eq(read_records(MS_FORMAT_VERSION, rec, (size_t)(p - rec), &s, msg, sizeof msg), MS_READ_CORRUPT);
    cr_expect(strstr(msg, "before the thread's first time record") != NULL, "%s", msg);
}

/* The writer's fall-back (fallback.h) follows message records: it skips
 * them, never cuts between them and their event, and keeps none in a
 * summary of what it folded. */
Test(messages, followed_by_the_fallback)
{
    uint8_t rec[512];
    size_t n = prologue(rec);
    uint8_t *p = rec + n;
    uint8_t *ev1 = p = ms_rec_event(p, 0, 10, 10);
    size_t first = (size_t)(ev1 - rec);
    p = ms_rec_message(p, 7, MS_MESSAGE_RECV | MS_MESSAGE_POSTED, 0, 1, 2, 3, 40);
    p = ms_rec_message(p, 6, MS_MESSAGE_POSTED, 0, 1, 2, 3, 30);
    uint8_t *msgs_end = p;
    p = ms_rec_event(p, 0, 10, 10);
    size_t len = (size_t)(p - rec);
    cr_expect_eq(ms_sum_count_events(rec, len), 2);
    /* Every limit that ends inside the second event's records cuts after
     * the first event. */
    for (size_t max = first; max < len; max++)
        cr_expect_eq(ms_sum_records_prefix(rec, len, max), first, "max %zu", max);
    cr_expect_eq(ms_sum_records_prefix(rec, len, len), len);
    cr_expect(msgs_end > ev1);

    ms_sum_clock clock = {.ticks = 0, .ticks_ref = 0, .ns_ref = 0, .ticks_per_ns = 1.0};
    ms_sum *sum = ms_sum_new(&clock, 0, 1u << 16);
    cr_assert_not_null(sum);
    cr_expect_eq(ms_sum_consume(sum, 0, rec, len), 0);
    cr_expect_eq(ms_sum_events(sum), 2);
    uint64_t cursor;
    cr_assert_eq(ms_sum_cursor(sum, 0, &cursor), 0);
    cr_expect_eq(cursor, T0 + 40);

    /* The snapshot, read back: the region and its aggregate, no message. */
    char path[512];
    char *dir = read_back_snapshot(sum, T0 + 1000, path, sizeof path);
    seen s;
    memset(&s, 0, sizeof s);
    ms_reader *r = ms_reader_create();
    ms_read_callbacks cb = {.event = on_event, .message = on_message};
    ms_read_result res;
    cr_expect_eq(ms_reader_read(r, path, &cb, &s, &res), MS_READ_OK, "%s", res.message);
    cr_expect_eq(s.nmsg, 0);
    cr_expect_eq(res.summarized, 2);
    ms_reader_destroy(r);
    ms_sum_free(sum);
    synth_rmdir(dir);
    free(dir);
}
