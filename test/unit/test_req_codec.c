/* Request records through their one codec (common/req_codec.h): every
 * kind, with every field that follows it, written by the encoders and read
 * back by the checked reader (the merge's) and by the unchecked one (the
 * writer thread's) to the same fields; cut anywhere, refused as cut. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "../../common/req_codec.h"

#define HEAD ((uint8_t)(((unsigned)MS_CTL_REQUEST << 2) | MS_REC_CONTROL))

/* One record of the application's path: its fields as they should read. */
typedef struct rq_case {
    const char *what_for;
    uint32_t what;
    uint64_t handle, where;          /* where: absolute */
    int64_t peer, tag, bytes, parts; /* what follows, by its flags */
} rq_case;

static const rq_case cases[] = {
    {"a send created", MS_REQ_NEW, 0x1234, 0x7ffd0000, -1, -1, -1, 0},
    {"a receive created", MS_REQ_NEW | 1u << MS_REQF_DIR_SHIFT, 0x44000001, 0x7ffd0008, -1, -1, -1, 0},
    {"a persistent partitioned receive, its partitions",
     MS_REQ_NEW | 2u << MS_REQF_DIR_SHIFT | MS_REQF_PERSISTENT | MS_REQF_PARTS, UINT64_MAX, 0x7ffcfff0, -1, -1, -1,
     INT32_MAX},
    {"a completion without a status", MS_REQ_DONE, 5, 0x10, -1, -1, -1, 0},
    {"a completion with its status", MS_REQ_DONE | MS_REQF_STATUS, 6, 0x7ffd0008, 3, 77, 1u << 20, 0},
    {"a cancelled completion", MS_REQ_DONE | MS_REQF_STATUS | MS_REQF_CANCELLED, 7, 0x7ffd0010, -1, -1, 0, 0},
    {"a completion of large fields", MS_REQ_DONE | MS_REQF_STATUS, 8, 0x7ffd0018, INT32_MAX, INT32_MAX,
     INT64_MAX, 0},
    {"a start", MS_REQ_START, 9, 0x7ffd0000, -1, -1, -1, 0},
    {"a cancel", MS_REQ_CANCEL, 10, 0x10000, -1, -1, -1, 0},
    {"a free", MS_REQ_FREE, 11, 0x7fff00000000, -1, -1, -1, 0},
    {"a request named", MS_REQ_REF, 12, 0x7fff00000000, -1, -1, -1, 0},
    {"a pready's partitions", MS_REQ_REF | MS_REQF_PARTS, 13, 0x7fff00000040, -1, -1, -1, 1},
};
#define NCASES (sizeof cases / sizeof cases[0])

/* Every case in turn, as a thread's stream: each record's where relative to
 * the one before (the first to 0). Returns the end; ends[i]: case i's. */
static uint8_t *write_cases(uint8_t *p, uint8_t **ends)
{
    uint64_t last = 0;
    for (size_t i = 0; i < NCASES; i++) {
        const rq_case *c = &cases[i];
        p = ms_rec_request(p, c->what, c->handle, (int64_t)(c->where - last));
        last = c->where;
        /* MS_REQF_STATUS is a completion's flag (a creation's direction
         * shares its bit). */
        if ((c->what & MS_REQ_KIND_MASK) == MS_REQ_DONE && (c->what & MS_REQF_STATUS))
            p = ms_rec_request_status(p, c->peer, c->tag, c->bytes);
        if (c->what & MS_REQF_PARTS)
            p = ms_rec_request_parts(p, c->parts);
        ends[i] = p;
    }
    return p;
}

static void same_record(const ms_rq_record *r, const rq_case *c, const char *reader)
{
    cr_expect_eq(r->what, c->what, "%s, %s: what", c->what_for, reader);
    cr_expect_eq(r->handle, c->handle, "%s, %s: handle", c->what_for, reader);
    cr_expect_eq(r->where, c->where, "%s, %s: where", c->what_for, reader);
    cr_expect_eq(r->peer, c->peer, "%s, %s: peer", c->what_for, reader);
    cr_expect_eq(r->tag, c->tag, "%s, %s: tag", c->what_for, reader);
    cr_expect_eq(r->bytes, c->bytes, "%s, %s: bytes", c->what_for, reader);
    cr_expect_eq(r->parts, c->parts, "%s, %s: parts", c->what_for, reader);
}

Test(req_codec, every_kind_of_the_application_reads_back_by_both_readers)
{
    uint8_t buf[NCASES * MS_REQUEST_REC_MAX + MS_REQUEST_REC_MAX], *ends[NCASES];
    memset(buf, 0, sizeof buf);
    uint8_t *end = write_cases(buf, ends);
    const uint8_t *p = buf, *q = buf;
    uint64_t base_p = 0, base_q = 0;
    for (size_t i = 0; i < NCASES; i++) {
        cr_assert_eq(*p, HEAD, "%s: the head", cases[i].what_for);
        cr_assert_eq(*q, HEAD);
        p++;
        q++;
        ms_rq_record r;
        cr_assert_eq(ms_rq_parse(&p, end, &base_p, &r, NULL), MS_RQ_OK, "%s", cases[i].what_for);
        same_record(&r, &cases[i], "checked");
        cr_expect_eq(p, ends[i], "%s: the checked reader ends where it was written", cases[i].what_for);
        q = ms_rq_read_in(q, &base_q, &r);
        same_record(&r, &cases[i], "unchecked");
        cr_expect_eq(q, ends[i], "%s: the unchecked reader ends where it was written", cases[i].what_for);
        cr_expect_leq((size_t)(ends[i] - (i ? ends[i - 1] : buf)), MS_REQUEST_REC_MAX);
    }
}

Test(req_codec, a_record_cut_anywhere_is_refused_as_cut)
{
    uint8_t buf[NCASES * MS_REQUEST_REC_MAX], *ends[NCASES];
    write_cases(buf, ends);
    for (size_t i = 0; i < NCASES; i++) {
        const uint8_t *start = (i ? ends[i - 1] : buf) + 1;
        for (const uint8_t *cut = start; cut < ends[i]; cut++) {
            const uint8_t *p = start;
            uint64_t base = i ? cases[i - 1].where : 0;
            ms_rq_record r;
            cr_expect_eq(ms_rq_parse(&p, cut, &base, &r, NULL), MS_RQ_CUT, "%s cut after %td bytes",
                         cases[i].what_for, cut - start);
        }
    }
}

Test(req_codec, carried_and_base_records_read_back)
{
    const ms_rq_req reqs[] = {
        {.handle = 0x55, .where = 0x7ffd1000, .posted = 1, .post_ns = 123456789,
         .f = {.op = 17, .dir = 1, .persistent = 0, .io = 1, .pair = 0, .comm = 4, .peer = -1, .tag = 99,
               .bytes = -1, .root = -1, .parts = 0}},
        {.handle = UINT64_MAX, .where = 8, .posted = 0, .post_ns = 0,
         .f = {.op = 3, .dir = 2, .persistent = 1, .io = 0, .pair = 1, .comm = -1, .peer = INT32_MAX,
               .tag = -1, .bytes = INT64_MAX, .root = -1, .parts = 0}},
    };
    uint8_t buf[3 * MS_REQUEST_CARRIED_MAX];
    uint8_t *p = buf;
    for (size_t i = 0; i < 2; i++)
        p = ms_rec_request_carried(p, &reqs[i]);
    p = ms_rec_request_base(p, 0x7ffe0000);
    const uint8_t *end = p, *q = buf;
    uint64_t base = 42;
    for (size_t i = 0; i < 2; i++) {
        /* Each read back whole; cut anywhere, refused as cut. */
        cr_assert_eq(*q++, HEAD);
        const uint8_t *start = q;
        ms_rq_record r;
        ms_rq_req c;
        memset(&c, 0, sizeof c);
        cr_assert_eq(ms_rq_parse(&q, end, &base, &r, &c), MS_RQ_OK, "carried %zu", i);
        for (const uint8_t *cut = start; cut < q; cut++) {
            const uint8_t *x = start;
            uint64_t b = 42;
            cr_expect_eq(ms_rq_parse(&x, cut, &b, &r, &c), MS_RQ_CUT, "carried %zu cut after %td bytes", i,
                         cut - start);
        }
        cr_expect_eq(r.what & MS_REQ_KIND_MASK, MS_REQ_CARRIED);
        cr_expect_eq(base, 42, "a carried record leaves the base as it is");
        cr_expect_eq(c.handle, reqs[i].handle);
        cr_expect_eq(c.where, reqs[i].where);
        cr_expect_eq(c.posted, reqs[i].posted);
        cr_expect_eq(c.post_ns, reqs[i].post_ns);
        cr_expect_eq(c.f.op, reqs[i].f.op);
        cr_expect_eq(c.f.dir, reqs[i].f.dir);
        cr_expect_eq(c.f.persistent, reqs[i].f.persistent);
        cr_expect_eq(c.f.io, reqs[i].f.io);
        cr_expect_eq(c.f.pair, reqs[i].f.pair);
        cr_expect_eq(c.f.comm, reqs[i].f.comm);
        cr_expect_eq(c.f.peer, reqs[i].f.peer);
        cr_expect_eq(c.f.tag, reqs[i].f.tag);
        cr_expect_eq(c.f.bytes, reqs[i].f.bytes);
    }
    cr_assert_eq(*q++, HEAD);
    ms_rq_record r;
    ms_rq_req c;
    cr_assert_eq(ms_rq_parse(&q, end, &base, &r, &c), MS_RQ_OK, "base");
    cr_expect_eq(r.what, MS_REQ_BASE);
    cr_expect_eq(base, 0x7ffe0000, "a base record sets the base");
    cr_expect_eq(q, end);
    /* Without a place for carried requests (logs before version 7), both
     * are of an unknown kind. */
    q = buf + 1;
    cr_expect_eq(ms_rq_parse(&q, end, &base, &r, NULL), MS_RQ_BAD_KIND);
}
