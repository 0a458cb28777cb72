/* The wait-state facts' records in bounded pieces: see wire_facts.h. */
#include "wire_facts.h"

#include <stdio.h>
#include <stdlib.h>

#include "partial_pack.h"
#include "wire_waits.h"

#define HEADER_BYTES (4 + 4 + 4 + 8 + 8 + 8 + 1)
#define BYTES_AT (4 + 4 + 4)          /* where the piece's length is */
#define LAST_AT (HEADER_BYTES - 1)    /* where its last flag is */
#define COUNTS_BYTES (3 * 8)
#define DONE UINT64_MAX
/* What the readers of one sort's runs hold together, about. */
#define RUN_BUFFERS ((size_t)1 << 20)

enum { ENDS, LANE, USER, NSTREAMS };

static const size_t WIRE_BYTES[NSTREAMS] = {MS_WIRE_END_BYTES, MS_WIRE_SPAN_BYTES, MS_WIRE_SPAN_BYTES};

static void put_header(ms_pbuf *b, uint32_t flags, uint64_t seq, uint64_t file)
{
    b->n = 0;
    ms_wire_u32(b, MS_FACTS_MAGIC);
    ms_wire_u32(b, MS_WIRE_VERSION);
    ms_wire_u32(b, flags);
    ms_wire_u64(b, 0); /* piece bytes, set at the end */
    ms_wire_u64(b, seq);
    ms_wire_u64(b, file);
    ms_wire_u8(b, 0);  /* last, set at the end */
}

static int finish_piece(ms_pbuf *b, int last, ms_facts_emit emit, void *ctx, int done)
{
    if (b->nomem)
        return -1;
    b->p[LAST_AT] = (unsigned char)(last != 0);
    ms_wire_le(b->p + BYTES_AT, b->n, 8);
    return emit(ctx, b->p, b->n, done) != 0 ? -2 : 0;
}

/* Records each run's reader holds: RUN_BUFFERS over the runs, 64 to 4,096. */
static size_t run_buf(const ms_xsort *s)
{
    size_t per = RUN_BUFFERS / s->file.rec / (s->nruns ? s->nruns : 1);
    return per < 64 ? 64 : per > 4096 ? 4096 : per;
}

static void put_record(unsigned char **o, const void *x, int stream)
{
    if (stream == ENDS)
        ms_wire_put_end(o, x);
    else
        ms_wire_put_span(o, x);
}

/* File idx's records, each stream in its sorted order, piece after piece.
 * 0, -1 (a spill not read back, memory), -2 (emit stopped). */
static int send_file(const ms_wait_facts *f, uint64_t idx, size_t piece_bytes, uint64_t *seq, ms_pbuf *b,
                     ms_facts_emit emit, void *ctx)
{
    const ms_xsort *sorts[NSTREAMS] = {&f->spill.ends, &f->spill.lane, &f->spill.user};
    ms_xsort_iter it[NSTREAMS];
    uint64_t left[NSTREAMS];
    int rc = 0, made = 0;
    for (; made < NSTREAMS && rc == 0; made++) {
        left[made] = ms_xsort_count(sorts[made]);
        if (ms_xsort_iter_init(&it[made], sorts[made], run_buf(sorts[made])) != 0)
            rc = -1;
    }
    if (rc != 0)
        made--;
    for (int last = 0; rc == 0 && !last;) {
        put_header(b, 0, (*seq)++, idx);
        size_t room = piece_bytes - HEADER_BYTES - COUNTS_BYTES;
        for (int k = 0; k < NSTREAMS && rc == 0; k++) {
            uint64_t take = room / WIRE_BYTES[k] < left[k] ? room / WIRE_BYTES[k] : left[k];
            ms_wire_u64(b, take);
            unsigned char *o = take ? ms_pbuf_room(b, (size_t)take * WIRE_BYTES[k]) : NULL;
            for (uint64_t i = 0; o && i < take && rc == 0; i++) {
                const void *x = ms_xsort_next(&it[k]);
                if (!x)
                    rc = -1;
                else
                    put_record(&o, x, k);
            }
            left[k] -= take;
            room -= (size_t)take * WIRE_BYTES[k];
        }
        last = !left[ENDS] && !left[LANE] && !left[USER];
        if (rc == 0)
            rc = finish_piece(b, last, emit, ctx, 0);
    }
    for (int k = 0; k < made; k++)
        ms_xsort_iter_free(&it[k]);
    return rc;
}

int ms_facts_pack(const ms_partial *p, const unsigned char *mine, uint32_t flags, size_t piece_bytes,
                  ms_facts_emit emit, void *ctx)
{
    if (piece_bytes < MS_FACTS_PIECE_MIN)
        piece_bytes = MS_FACTS_PIECE_MIN;
    if (p->nomem)
        flags |= MS_PACK_NOMEM;
    ms_pbuf b = {0};
    uint64_t seq = 0;
    int rc = 0;
    for (size_t i = 0; !flags && p->files && i < p->nfiles && rc == 0; i++) {
        const ms_file_job *j = &p->files[i];
        if (j->read && (!mine || mine[i]) && j->waits)
            rc = send_file(j->waits, i, piece_bytes, &seq, &b, emit, ctx);
    }
    if (rc == -2) {
        ms_pbuf_free(&b);
        return -1;
    }
    if (rc != 0)
        flags |= MS_PACK_NOMEM;
    b.nomem = 0;
    put_header(&b, flags, seq, DONE);
    for (int k = 0; k < NSTREAMS; k++)
        ms_wire_u64(&b, 0);
    if (finish_piece(&b, 1, emit, ctx, 1) != 0)
        rc = -1;
    ms_pbuf_free(&b);
    return rc ? -1 : 0;
}

void ms_facts_in_init(ms_facts_in *in, const int32_t *owner, int32_t from)
{
    in->owner = owner;
    in->from = from;
    in->next = 0;
    in->seq = 0;
    in->open = SIZE_MAX;
    in->flags = 0;
}

/* Whether the sender has to send file i's records. */
static int expects(const ms_partial *p, const ms_facts_in *in, size_t i)
{
    return p->files && p->files[i].read && p->files[i].waits && (!in->owner || in->owner[i] == in->from);
}

/* The first file before `to` (from in->next) that the sender left out;
 * `to` when none. */
static size_t left_out(const ms_partial *p, const ms_facts_in *in, size_t to)
{
    for (size_t i = in->next; i < to; i++)
        if (expects(p, in, i))
            return i;
    return to;
}

static void get_ends(ms_wire_in *r, ms_wait_facts *f)
{
    size_t n = ms_wire_get_count(r, MS_WIRE_END_BYTES);
    const unsigned char *q = ms_wire_ok(r) ? ms_wire_take(r, n * MS_WIRE_END_BYTES) : NULL;
    for (size_t i = 0; q && i < n && ms_wire_ok(r); i++) {
        ms_wx_end x = {0};
        ms_wire_get_end(&q, &x);
        r->bad |= x.kind > MS_WX_END_COLL || (x.ev != MS_WX_NONE && (x.ev >= f->nev || x.region >= f->nnames));
        if (ms_wire_ok(r) && ms_wx_spill_end(&f->spill, &x) != 0)
            r->nomem = 1;
        f->spill.nseq = x.seq >= f->spill.nseq ? x.seq + 1 : f->spill.nseq;
    }
}

static void get_spans(ms_wire_in *r, ms_wait_facts *f, int is_mpi)
{
    size_t n = ms_wire_get_count(r, MS_WIRE_SPAN_BYTES);
    const unsigned char *q = ms_wire_ok(r) ? ms_wire_take(r, n * MS_WIRE_SPAN_BYTES) : NULL;
    for (size_t i = 0; q && i < n && ms_wire_ok(r); i++) {
        ms_wx_span x = {0};
        ms_wire_get_span(&q, &x);
        r->bad |= x.region >= f->nnames || x.ev >= f->nev;
        if (ms_wire_ok(r) && ms_wx_spill_span(&f->spill, is_mpi, &x) != 0)
            r->nomem = 1;
    }
}

/* The sender's last piece: no records, and every file it had to send
 * complete unless it failed. */
static int last_piece(ms_partial *p, ms_facts_in *in, ms_wire_in *r, uint32_t flags, char *err, size_t errlen)
{
    for (int k = 0; k < NSTREAMS; k++)
        r->bad |= ms_wire_get_u64(r) != 0;
    if (r->bad || r->off != r->n) {
        snprintf(err, errlen, "the last piece of wait-state facts from process %d does not add up", (int)in->from);
        return -2;
    }
    in->flags = flags;
    if (flags)
        return 1;
    size_t miss = in->open != SIZE_MAX ? in->open : left_out(p, in, p->nfiles);
    if (miss < p->nfiles) {
        snprintf(err, errlen, "the wait-state facts of file %zu %s", miss,
                 in->open != SIZE_MAX ? "end before their last piece" : "never came");
        return -2;
    }
    return 1;
}

int ms_facts_unpack(ms_partial *p, ms_facts_in *in, const void *buf, size_t n, char *err, size_t errlen)
{
    ms_wire_in r = {.p = buf, .n = n, .off = 0};
    uint32_t magic = ms_wire_get_u32(&r), version = ms_wire_get_u32(&r), flags = ms_wire_get_u32(&r);
    uint64_t bytes = ms_wire_get_u64(&r), seq = ms_wire_get_u64(&r), file = ms_wire_get_u64(&r);
    uint8_t last = ms_wire_get_u8(&r);
    if (magic != MS_FACTS_MAGIC) {
        snprintf(err, errlen, "not a piece of wait-state facts");
        return -2;
    }
    if (n >= 8 && version != MS_WIRE_VERSION) {
        snprintf(err, errlen,
                 "a piece of wait-state facts in wire format version %u; this program reads version %u "
                 "(every process must run the same mpiscope)",
                 version, MS_WIRE_VERSION);
        return -2;
    }
    if (r.bad || bytes != n || last > 1) {
        snprintf(err, errlen, "a piece of wait-state facts is cut short or damaged (%llu bytes announced, %zu there)",
                 (unsigned long long)bytes, n);
        return -2;
    }
    if (seq != in->seq) {
        snprintf(err, errlen, "piece %llu of wait-state facts from process %d came as piece %llu",
                 (unsigned long long)seq, (int)in->from, (unsigned long long)in->seq);
        return -2;
    }
    in->seq++;
    if (file == DONE)
        return last_piece(p, in, &r, flags, err, errlen);
    int fits = !flags && file < p->nfiles &&
               (in->open != SIZE_MAX ? file == in->open : file >= in->next && expects(p, in, (size_t)file));
    if (!fits) {
        snprintf(err, errlen, "a piece of wait-state facts for file %llu %s", (unsigned long long)file,
                 flags ? "carries flags" : "out of order, or not of the process that sent it");
        return -2;
    }
    if (in->open == SIZE_MAX) {
        size_t miss = left_out(p, in, (size_t)file);
        if (miss < file) {
            snprintf(err, errlen, "the wait-state facts of file %zu never came", miss);
            return -2;
        }
        in->open = (size_t)file;
    }
    ms_wait_facts *f = p->files[file].waits;
    get_ends(&r, f);
    if (ms_wire_ok(&r))
        get_spans(&r, f, 1);
    if (ms_wire_ok(&r))
        get_spans(&r, f, 0);
    if (r.nomem)
        return -1;
    if (r.bad || r.off != r.n) {
        snprintf(err, errlen, "a piece of wait-state facts for file %llu does not add up (at byte %zu of %zu)",
                 (unsigned long long)file, r.off, r.n);
        return -2;
    }
    if (last) {
        if (ms_wx_spill_finish(&f->spill) != 0)
            return -1;
        in->open = SIZE_MAX;
        in->next = (size_t)file + 1;
    }
    return 0;
}
