/* Wait-state facts on the wire: see wire_waits.h. */
#include "wire_waits.h"

#include <stddef.h>
#include <stdlib.h>

#if UINTPTR_MAX == UINT64_MAX && defined(__LP64__)
#define CARRIED(T, n) _Static_assert(sizeof(T) == (n), #T " changed: carry its new fields in " __FILE__)
CARRIED(ms_wait_facts, 640);
CARRIED(ms_wx_end, 64);
CARRIED(ms_wx_span, 32);
#endif

#define NAME_MIN (8 + 8)

/* A record's fields in wire order: where each is in the struct and its
 * size, the same on the wire (signed fields as two's complement). One
 * table serves both directions, so that put and get cannot disagree. */
typedef struct field {
    size_t at;
    int bytes;
} field;

#define F(T, m) {offsetof(T, m), (int)sizeof(((T *)0)->m)}
static const field END_FIELDS[] = {
    F(ms_wx_end, entry), F(ms_wx_end, comm), F(ms_wx_end, ev_start), F(ms_wx_end, ev_end),
    F(ms_wx_end, seq),   F(ms_wx_end, ev),   F(ms_wx_end, region),   F(ms_wx_end, tag),
    F(ms_wx_end, other), F(ms_wx_end, thread), F(ms_wx_end, kind),   F(ms_wx_end, sync),
    F(ms_wx_end, charge),
};
static const field SPAN_FIELDS[] = {
    F(ms_wx_span, start), F(ms_wx_span, end), F(ms_wx_span, region), F(ms_wx_span, ev),
    F(ms_wx_span, thread),
};
#undef F
#define NFIELDS(t) (sizeof(t) / sizeof(t)[0])

/* The fields add up to the wire sizes (a field added to a record and its
 * table but not to the size, or the other way round, stops the build). */
_Static_assert(sizeof(((ms_wx_end *)0)->entry) + sizeof(((ms_wx_end *)0)->comm) +
                       sizeof(((ms_wx_end *)0)->ev_start) + sizeof(((ms_wx_end *)0)->ev_end) +
                       sizeof(((ms_wx_end *)0)->seq) + sizeof(((ms_wx_end *)0)->ev) +
                       sizeof(((ms_wx_end *)0)->region) + sizeof(((ms_wx_end *)0)->tag) +
                       sizeof(((ms_wx_end *)0)->other) + sizeof(((ms_wx_end *)0)->thread) +
                       sizeof(((ms_wx_end *)0)->kind) + sizeof(((ms_wx_end *)0)->sync) +
                       sizeof(((ms_wx_end *)0)->charge) ==
                   MS_WIRE_END_BYTES,
               "END_FIELDS and MS_WIRE_END_BYTES disagree");
_Static_assert(sizeof(((ms_wx_span *)0)->start) + sizeof(((ms_wx_span *)0)->end) +
                       sizeof(((ms_wx_span *)0)->region) + sizeof(((ms_wx_span *)0)->ev) +
                       sizeof(((ms_wx_span *)0)->thread) ==
                   MS_WIRE_SPAN_BYTES,
               "SPAN_FIELDS and MS_WIRE_SPAN_BYTES disagree");

static uint64_t field_ld(const unsigned char *s, int bytes)
{
    switch (bytes) {
    case 1: return *s;
    case 2: { uint16_t v; memcpy(&v, s, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, s, 4); return v; }
    default: { uint64_t v; memcpy(&v, s, 8); return v; }
    }
}

static void field_st(unsigned char *s, uint64_t x, int bytes)
{
    switch (bytes) {
    case 1: *s = (unsigned char)x; return;
    case 2: { uint16_t v = (uint16_t)x; memcpy(s, &v, 2); return; }
    case 4: { uint32_t v = (uint32_t)x; memcpy(s, &v, 4); return; }
    default: memcpy(s, &x, 8); return;
    }
}

static void put_fields(unsigned char **o, const void *x, const field *t, size_t n)
{
    const unsigned char *s = x;
    for (size_t i = 0; i < n; i++)
        ms_wire_st(o, field_ld(s + t[i].at, t[i].bytes), t[i].bytes);
}

static void get_fields(const unsigned char **q, void *x, const field *t, size_t n)
{
    unsigned char *s = x;
    for (size_t i = 0; i < n; i++)
        field_st(s + t[i].at, ms_wire_ld(q, t[i].bytes), t[i].bytes);
}

void ms_wire_put_end(unsigned char **o, const ms_wx_end *x)
{
    put_fields(o, x, END_FIELDS, NFIELDS(END_FIELDS));
}

void ms_wire_get_end(const unsigned char **q, ms_wx_end *x)
{
    get_fields(q, x, END_FIELDS, NFIELDS(END_FIELDS));
}

void ms_wire_put_span(unsigned char **o, const ms_wx_span *x)
{
    put_fields(o, x, SPAN_FIELDS, NFIELDS(SPAN_FIELDS));
}

void ms_wire_get_span(const unsigned char **q, ms_wx_span *x)
{
    get_fields(q, x, SPAN_FIELDS, NFIELDS(SPAN_FIELDS));
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
    if (!ms_wire_ok(r)) {
        ms_wait_facts_free(f);
        free(f);
        return NULL;
    }
    return f;
}
