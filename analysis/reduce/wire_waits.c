/* Wait-state facts on the wire: see wire_waits.h. */
#include "wire_waits.h"

#include <stdlib.h>

#if UINTPTR_MAX == UINT64_MAX && defined(__LP64__)
#define CARRIED(T, n) _Static_assert(sizeof(T) == (n), #T " changed: carry its new fields in " __FILE__)
CARRIED(ms_wait_facts, 640);
CARRIED(ms_wx_end, 64);
CARRIED(ms_wx_span, 32);
#endif

#define END_BYTES (8 * 4 + 4 * 5 + 2 + 1 + 1 + 1)
#define SPAN_BYTES (8 + 8 + 4 + 4 + 2)
#define NAME_MIN (8 + 8)
/* Records read back from disk at a time. */
#define BATCH 4096

static void put_end(unsigned char **o, const ms_wx_end *x)
{
    ms_wire_st(o, (uint64_t)x->entry, 8);
    ms_wire_st(o, (uint64_t)x->comm, 8);
    ms_wire_st(o, (uint64_t)x->ev_start, 8);
    ms_wire_st(o, (uint64_t)x->ev_end, 8);
    ms_wire_st(o, x->seq, 4);
    ms_wire_st(o, x->ev, 4);
    ms_wire_st(o, x->region, 4);
    ms_wire_st(o, (uint32_t)x->tag, 4);
    ms_wire_st(o, (uint32_t)x->other, 4);
    ms_wire_st(o, x->thread, 2);
    ms_wire_st(o, x->kind, 1);
    ms_wire_st(o, x->sync, 1);
    ms_wire_st(o, x->charge, 1);
}

static void get_end(const unsigned char **q, ms_wx_end *x)
{
    x->entry = (int64_t)ms_wire_ld(q, 8);
    x->comm = (int64_t)ms_wire_ld(q, 8);
    x->ev_start = (int64_t)ms_wire_ld(q, 8);
    x->ev_end = (int64_t)ms_wire_ld(q, 8);
    x->seq = (uint32_t)ms_wire_ld(q, 4);
    x->ev = (uint32_t)ms_wire_ld(q, 4);
    x->region = (uint32_t)ms_wire_ld(q, 4);
    x->tag = (int32_t)(uint32_t)ms_wire_ld(q, 4);
    x->other = (int32_t)(uint32_t)ms_wire_ld(q, 4);
    x->thread = (uint16_t)ms_wire_ld(q, 2);
    x->kind = (uint8_t)ms_wire_ld(q, 1);
    x->sync = (uint8_t)ms_wire_ld(q, 1);
    x->charge = (uint8_t)ms_wire_ld(q, 1);
}

static void put_span(unsigned char **o, const ms_wx_span *x)
{
    ms_wire_st(o, (uint64_t)x->start, 8);
    ms_wire_st(o, (uint64_t)x->end, 8);
    ms_wire_st(o, x->region, 4);
    ms_wire_st(o, x->ev, 4);
    ms_wire_st(o, x->thread, 2);
}

static void get_span(const unsigned char **q, ms_wx_span *x)
{
    x->start = (int64_t)ms_wire_ld(q, 8);
    x->end = (int64_t)ms_wire_ld(q, 8);
    x->region = (uint32_t)ms_wire_ld(q, 4);
    x->ev = (uint32_t)ms_wire_ld(q, 4);
    x->thread = (uint16_t)ms_wire_ld(q, 2);
}

/* The count of a sort's records, then each, read back from its file. */
static void put_sorted(ms_pbuf *b, const ms_xsort *s, size_t wire, void (*put)(unsigned char **, const void *))
{
    uint64_t n = ms_xsort_count(s);
    ms_wire_u64(b, n);
    unsigned char *o = n ? ms_pbuf_room(b, (size_t)n * wire) : NULL;
    size_t rec = s->file.rec;
    unsigned char *buf = n ? malloc(BATCH * rec) : NULL;
    if (n && (!o || !buf)) {
        b->nomem = 1;
        free(buf);
        return;
    }
    for (uint64_t at = 0; at < n; at += BATCH) {
        size_t k = n - at < BATCH ? (size_t)(n - at) : BATCH;
        if (ms_spill_read(&s->file, at, k, buf) != 0) {
            b->nomem = 1;
            break;
        }
        for (size_t i = 0; i < k; i++)
            put(&o, buf + i * rec);
    }
    free(buf);
}

static void put_end_v(unsigned char **o, const void *x)
{
    put_end(o, x);
}

static void put_span_v(unsigned char **o, const void *x)
{
    put_span(o, x);
}

void ms_wire_put_waits(ms_pbuf *b, const ms_wait_facts *f)
{
    ms_wire_u8(b, f != NULL);
    if (!f)
        return;
    ms_wire_u64(b, f->messages_read);
    ms_wire_u32(b, f->has_records);
    ms_wire_u32(b, f->nev);
    ms_wire_u64(b, f->nnames);
    for (size_t i = 0; i < f->nnames; i++) {
        ms_wire_str(b, f->names[i]);
        ms_wire_str(b, f->places ? f->places[i] : NULL);
    }
    put_sorted(b, &f->spill.ends, END_BYTES, put_end_v);
    put_sorted(b, &f->spill.lane, SPAN_BYTES, put_span_v);
    put_sorted(b, &f->spill.user, SPAN_BYTES, put_span_v);
}

/* Spans of the count that follows into sort s; each checked against the
 * names and events. */
static void get_spans(ms_wire_in *r, ms_wait_facts *f, int is_mpi)
{
    size_t n = ms_wire_get_count(r, SPAN_BYTES);
    const unsigned char *q = ms_wire_ok(r) ? ms_wire_take(r, n * SPAN_BYTES) : NULL;
    for (size_t i = 0; q && i < n && ms_wire_ok(r); i++) {
        ms_wx_span x = {0};
        get_span(&q, &x);
        r->bad |= x.region >= f->nnames || x.ev >= f->nev;
        if (ms_wire_ok(r) && ms_wx_spill_span(&f->spill, is_mpi, &x) != 0)
            r->nomem = 1;
    }
}

ms_wait_facts *ms_wire_get_waits(ms_wire_in *r)
{
    uint8_t present = ms_wire_get_u8(r);
    if (!present || !ms_wire_ok(r)) {
        r->bad |= present > 1;
        return NULL;
    }
    ms_wait_facts *f = calloc(1, sizeof *f);
    if (!f) {
        r->nomem = 1;
        return NULL;
    }
    ms_wait_facts_init(f);
    f->messages_read = ms_wire_get_u64(r);
    f->has_records = ms_wire_get_u32(r);
    f->nev = ms_wire_get_u32(r);
    size_t nnames = ms_wire_get_count(r, NAME_MIN);
    if (ms_wire_ok(r) && (!(f->names = calloc(nnames + 1, sizeof *f->names)) ||
                          !(f->places = calloc(nnames + 1, sizeof *f->places))))
        r->nomem = 1;
    for (size_t i = 0; i < nnames && ms_wire_ok(r); i++) {
        f->nnames = f->names_cap = i + 1;
        f->names[i] = ms_wire_get_str_nn(r);
        f->places[i] = ms_wire_get_str(r);
    }
    size_t n = ms_wire_ok(r) ? ms_wire_get_count(r, END_BYTES) : 0;
    const unsigned char *q = ms_wire_ok(r) ? ms_wire_take(r, n * END_BYTES) : NULL;
    for (size_t i = 0; q && i < n && ms_wire_ok(r); i++) {
        ms_wx_end x = {0};
        get_end(&q, &x);
        r->bad |= x.kind > MS_WX_END_COLL || (x.ev != MS_WX_NONE && (x.ev >= f->nev || x.region >= f->nnames));
        if (ms_wire_ok(r) && ms_wx_spill_end(&f->spill, &x) != 0)
            r->nomem = 1;
        f->spill.nseq = x.seq >= f->spill.nseq ? x.seq + 1 : f->spill.nseq;
    }
    if (ms_wire_ok(r))
        get_spans(r, f, 1);
    if (ms_wire_ok(r))
        get_spans(r, f, 0);
    if (ms_wire_ok(r) && ms_wx_spill_finish(&f->spill) != 0)
        r->nomem = 1;
    if (!ms_wire_ok(r)) {
        ms_wait_facts_free(f);
        free(f);
        return NULL;
    }
    return f;
}
