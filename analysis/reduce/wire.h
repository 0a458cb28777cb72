/*
 * The wire format of the MPI merge's packets (partial_pack.h; docs/MERGE_MPI.md
 * "The wire format"): values as bytes that do not depend on the machine, the
 * compiler or the layout of any struct.
 *
 *   u8 u16 u32 u64   unsigned, little-endian, 1, 2, 4 and 8 bytes
 *   i32 i64          two's complement, little-endian, 4 and 8 bytes
 *   f64              an IEEE 754 binary64's bits as u64 (bit for bit: NaNs,
 *                    signed zeros and all)
 *   str              u64 length (UINT64_MAX: no string, NULL), then that many
 *                    bytes, no NUL among them and none after
 *   count            u64, the number of items that follow
 *
 * Writing appends to an ms_pbuf; reading takes values from an ms_wire_in,
 * which turns bad (and then gives zeros and NULLs) at the first value that
 * the bytes left cannot hold. A count is refused when the bytes left cannot
 * hold that many items of their smallest size, so nothing is allocated from a
 * count beyond what the bytes can hold.
 */
#ifndef MPISCOPE_WIRE_H
#define MPISCOPE_WIRE_H

#include <stddef.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define MS_WIRE_NO_STR UINT64_MAX

/* Bytes being written. */
typedef struct ms_pbuf {
    unsigned char *p;
    size_t n, cap;
    int nomem;
} ms_pbuf;

void ms_pbuf_free(ms_pbuf *b);
/* Room for n more bytes: their address, or NULL when out of memory
 * (b->nomem; then every later write is dropped). */
unsigned char *ms_pbuf_room(ms_pbuf *b, size_t n);
/* Append raw bytes; 0, or -1 when out of memory (b->nomem). */
int ms_pbuf_put(ms_pbuf *b, const void *v, size_t n);

/* n (1, 2, 4 or 8) bytes of v at o, little-endian, and back. */
static inline void ms_wire_le(unsigned char *o, uint64_t v, int n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    switch (n) {
    case 1: *o = (unsigned char)v; return;
    case 2: { uint16_t x = (uint16_t)v; memcpy(o, &x, 2); return; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(o, &x, 4); return; }
    case 8: memcpy(o, &v, 8); return;
    }
#endif
    for (int i = 0; i < n; i++)
        o[i] = (unsigned char)(v >> (8 * i));
}

static inline uint64_t ms_wire_from_le(const unsigned char *q, int n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    switch (n) {
    case 1: return *q;
    case 2: { uint16_t x; memcpy(&x, q, 2); return x; }
    case 4: { uint32_t x; memcpy(&x, q, 4); return x; }
    case 8: { uint64_t x; memcpy(&x, q, 8); return x; }
    }
#endif
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)q[i] << (8 * i);
    return v;
}

/* Fixed-size records in bulk (arrays whose count is already checked):
 * store and load at a cursor, which moves on. */
static inline void ms_wire_st(unsigned char **o, uint64_t v, int n)
{
    ms_wire_le(*o, v, n);
    *o += n;
}

static inline uint64_t ms_wire_ld(const unsigned char **q, int n)
{
    uint64_t v = ms_wire_from_le(*q, n);
    *q += n;
    return v;
}

static inline void ms_wire_put_n(ms_pbuf *b, uint64_t v, int n)
{
    unsigned char *o;
    if (b->cap - b->n >= (size_t)n && !b->nomem) {
        o = b->p + b->n;
        b->n += (size_t)n;
    } else if (!(o = ms_pbuf_room(b, (size_t)n)))
        return;
    ms_wire_le(o, v, n);
}

static inline void ms_wire_u8(ms_pbuf *b, uint8_t v) { ms_wire_put_n(b, v, 1); }
static inline void ms_wire_u16(ms_pbuf *b, uint16_t v) { ms_wire_put_n(b, v, 2); }
static inline void ms_wire_u32(ms_pbuf *b, uint32_t v) { ms_wire_put_n(b, v, 4); }
static inline void ms_wire_u64(ms_pbuf *b, uint64_t v) { ms_wire_put_n(b, v, 8); }
static inline void ms_wire_i32(ms_pbuf *b, int32_t v) { ms_wire_put_n(b, (uint32_t)v, 4); }
static inline void ms_wire_i64(ms_pbuf *b, int64_t v) { ms_wire_put_n(b, (uint64_t)v, 8); }
static inline void ms_wire_f64(ms_pbuf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    ms_wire_put_n(b, u, 8);
}
void ms_wire_str(ms_pbuf *b, const char *s);

/* Bytes being read. */
typedef struct ms_wire_in {
    const unsigned char *p;
    size_t n, off;
    int bad;      /* the bytes do not add up */
    int nomem;
} ms_wire_in;

static inline int ms_wire_ok(const ms_wire_in *r)
{
    return !r->bad && !r->nomem;
}

/* n zeroed items of `size` bytes for a count just read (n from
 * ms_wire_get_count, so the bytes left can hold them); NULL when n is 0,
 * the input is already bad, or memory ran out (r->nomem). */
static inline void *ms_wire_alloc(ms_wire_in *r, size_t n, size_t size)
{
    if (!n || !ms_wire_ok(r))
        return NULL;
    void *p = calloc(n, size);
    if (!p)
        r->nomem = 1;
    return p;
}

static inline uint64_t ms_wire_get_n(ms_wire_in *r, int n)
{
    if (r->bad || r->nomem || r->n - r->off < (size_t)n) {
        r->bad |= !r->nomem;
        return 0;
    }
    uint64_t v = ms_wire_from_le(r->p + r->off, n);
    r->off += (size_t)n;
    return v;
}

static inline uint8_t ms_wire_get_u8(ms_wire_in *r) { return (uint8_t)ms_wire_get_n(r, 1); }
static inline uint16_t ms_wire_get_u16(ms_wire_in *r) { return (uint16_t)ms_wire_get_n(r, 2); }
static inline uint32_t ms_wire_get_u32(ms_wire_in *r) { return (uint32_t)ms_wire_get_n(r, 4); }
static inline uint64_t ms_wire_get_u64(ms_wire_in *r) { return ms_wire_get_n(r, 8); }
static inline int32_t ms_wire_get_i32(ms_wire_in *r) { return (int32_t)ms_wire_get_u32(r); }
static inline int64_t ms_wire_get_i64(ms_wire_in *r) { return (int64_t)ms_wire_get_n(r, 8); }
static inline double ms_wire_get_f64(ms_wire_in *r)
{
    uint64_t u = ms_wire_get_n(r, 8);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* The next n bytes (to read with ms_wire_ld), or NULL when there are
 * fewer (r turns bad). */
static inline const unsigned char *ms_wire_take(ms_wire_in *r, size_t n)
{
    if (r->bad || r->nomem || r->n - r->off < n) {
        r->bad |= !r->nomem;
        return NULL;
    }
    r->off += n;
    return r->p + r->off - n;
}

/* A string (malloc'ed), or NULL: none written, or r turned bad or out of
 * memory. */
char *ms_wire_get_str(ms_wire_in *r);
/* A string that may not be NULL (NULL turns r bad). */
char *ms_wire_get_str_nn(ms_wire_in *r);
/* A count of items of at least min_bytes bytes each; 0 when the bytes left
 * cannot hold them (r turns bad). */
size_t ms_wire_get_count(ms_wire_in *r, size_t min_bytes);
/* A u32 that must be at most max (else r turns bad and it is 0). */
uint32_t ms_wire_get_u32_max(ms_wire_in *r, uint32_t max);

#endif
