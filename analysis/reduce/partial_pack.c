/* Per-file results as bytes and back: see partial_pack.h. The files travel
 * by wire_file.c; the region parts and call-site rows by the put_X / get_X
 * pairs here, each naming every field of X in the same order. */
#include "partial_pack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire_file.h"

#define CHUNK_MAGIC 0x4b50534du   /* "MSPK" */
#define HEADER_BYTES (4 + 4 + 4 + 8 + 8)
#define BYTES_AT (4 + 4 + 4)      /* where the chunk's length is */

/* A field added to a struct that travels changes its size: these stop the
 * build until the pair below carries it (sizes of LP64 machines). */
#if UINTPTR_MAX == UINT64_MAX && defined(__LP64__)
#define CARRIED(T, n) _Static_assert(sizeof(T) == (n), #T " changed: carry its new fields in " __FILE__)
CARRIED(ms_region_rank, 152);
CARRIED(ms_stats, 128);
CARRIED(ms_sketch, 48);
CARRIED(ms_callsite, 88);
#endif

/* Smallest wire sizes of the items behind counts. */
#define FILE_MIN (8 + 8 + 8 + 8)
#define REGION_MIN (8 + 8)
#define PART_MIN (4 + 8 + 8 + 8 * 10 + 4 + 4 + 8 * 4)
#define SITE_MIN (8 * 6 + 4 * 5 + 8 + 8)

/* ---- region parts and call sites ---- */

static void put_sketch(ms_pbuf *b, const ms_sketch *s)
{
    int32_t len = s->len > 0 ? s->len : 0;
    ms_wire_i32(b, s->lo);
    ms_wire_i32(b, len);
    ms_wire_u64(b, s->zero);
    ms_wire_u64(b, s->n);
    ms_wire_u64(b, s->min);
    ms_wire_u64(b, s->max);
    for (int32_t i = 0; i < len; i++)
        ms_wire_u64(b, s->counts[i]);
}

static void get_sketch(ms_wire_in *r, ms_sketch *s)
{
    s->lo = ms_wire_get_i32(r);
    int32_t len = ms_wire_get_i32(r);
    s->zero = ms_wire_get_u64(r);
    s->n = ms_wire_get_u64(r);
    s->min = ms_wire_get_u64(r);
    s->max = ms_wire_get_u64(r);
    if (len < 0 || len > MS_SKETCH_MAX_INDEX + 1 || (size_t)len > (r->n - r->off) / 8) {
        r->bad |= !r->nomem;
        return;
    }
    if (len == 0 || !ms_wire_ok(r))
        return;
    if (!(s->counts = malloc((size_t)len * sizeof *s->counts))) {
        r->nomem = 1;
        return;
    }
    for (int32_t i = 0; i < len; i++)
        s->counts[i] = ms_wire_get_u64(r);
    s->len = len;
}

static void put_stats(ms_pbuf *b, const ms_stats *s)
{
    ms_wire_u64(b, s->calls);
    ms_wire_u64(b, s->total_ns);
    ms_wire_u64(b, s->min_ns);
    ms_wire_u64(b, s->max_ns);
    ms_wire_f64(b, s->mean_ns);
    ms_wire_f64(b, s->m2);
    ms_wire_i64(b, s->first_start);
    ms_wire_u64(b, s->first_ns);
    ms_wire_i64(b, s->last_end);
    ms_wire_u64(b, s->last_ns);
    put_sketch(b, &s->sketch);
}

static void get_stats(ms_wire_in *r, ms_stats *s)
{
    s->calls = ms_wire_get_u64(r);
    s->total_ns = ms_wire_get_u64(r);
    s->min_ns = ms_wire_get_u64(r);
    s->max_ns = ms_wire_get_u64(r);
    s->mean_ns = ms_wire_get_f64(r);
    s->m2 = ms_wire_get_f64(r);
    s->first_start = ms_wire_get_i64(r);
    s->first_ns = ms_wire_get_u64(r);
    s->last_end = ms_wire_get_i64(r);
    s->last_ns = ms_wire_get_u64(r);
    get_sketch(r, &s->sketch);
}

static void put_part(ms_pbuf *b, const ms_region_rank *x)
{
    ms_wire_u32(b, x->rank_index);
    ms_wire_u64(b, x->window_ns);
    ms_wire_u64(b, x->excl_ns);
    put_stats(b, &x->stats);
}

/* Into *x (zeroed by the caller); its sketch is to be freed, also when r
 * turned bad. */
static void get_part(ms_wire_in *r, ms_region_rank *x)
{
    x->rank_index = ms_wire_get_u32(r);
    x->window_ns = ms_wire_get_u64(r);
    x->excl_ns = ms_wire_get_u64(r);
    get_stats(r, &x->stats);
}

static void put_site(ms_pbuf *b, const ms_callsite *c)
{
    ms_wire_str(b, c->region);
    ms_wire_i32(b, c->rank);
    ms_wire_str(b, c->function);
    ms_wire_str(b, c->file);
    ms_wire_i32(b, c->line);
    ms_wire_str(b, c->text);
    ms_wire_str(b, c->location);
    ms_wire_str(b, c->object);
    ms_wire_i32(b, c->object_changed);
    ms_wire_i32(b, c->object_missing);
    ms_wire_u64(b, c->calls);
    ms_wire_u64(b, c->total_ns);
}

static void get_site(ms_wire_in *r, ms_callsite *c)
{
    c->region = ms_wire_get_str_nn(r);
    c->rank = ms_wire_get_i32(r);
    c->function = ms_wire_get_str_nn(r);
    c->file = ms_wire_get_str_nn(r);
    c->line = ms_wire_get_i32(r);
    c->text = ms_wire_get_str_nn(r);
    c->location = ms_wire_get_str_nn(r);
    c->object = ms_wire_get_str_nn(r);
    c->object_changed = ms_wire_get_i32(r);
    c->object_missing = ms_wire_get_i32(r);
    c->calls = ms_wire_get_u64(r);
    c->total_ns = ms_wire_get_u64(r);
}

static void put_table(ms_pbuf *b, const ms_region_table *t)
{
    size_t n = ms_strtab_count(&t->names);
    ms_wire_u64(b, n);
    for (size_t i = 0; i < n; i++) {
        ms_wire_str(b, ms_strtab_str(&t->names, (uint32_t)i));
        ms_wire_u64(b, t->regs[i].n);
        for (size_t k = 0; k < t->regs[i].n; k++)
            put_part(b, &t->regs[i].parts[k]);
    }
}

static void get_table(ms_wire_in *r, ms_region_table *t)
{
    size_t n = ms_wire_get_count(r, REGION_MIN);
    for (size_t i = 0; i < n && ms_wire_ok(r); i++) {
        char *name = ms_wire_get_str_nn(r);
        size_t nparts = ms_wire_get_count(r, PART_MIN);
        for (size_t k = 0; k < nparts && name && ms_wire_ok(r); k++) {
            ms_region_rank part;
            memset(&part, 0, sizeof part);
            get_part(r, &part);
            if (!ms_wire_ok(r) || ms_region_table_add(t, name, strlen(name), &part) != 0) {
                r->nomem |= ms_wire_ok(r);
                ms_stats_free(&part.stats);
            }
        }
        free(name);
    }
}

static void add_sites(ms_partial *p, ms_wire_in *r)
{
    size_t n = ms_wire_get_count(r, SITE_MIN);
    if (!n || !ms_wire_ok(r))
        return;
    if (p->nsites + n > p->sites_cap) {
        ms_callsite *v = realloc(p->sites, (p->nsites + n) * sizeof *v);
        if (!v) {
            r->nomem = 1;
            return;
        }
        p->sites = v;
        p->sites_cap = p->nsites + n;
    }
    for (size_t i = 0; i < n && ms_wire_ok(r); i++) {
        ms_callsite *c = &p->sites[p->nsites++];  /* (freed with p, whatever arrived) */
        memset(c, 0, sizeof *c);
        get_site(r, c);
    }
}

/* ---- chunks ---- */

static void put_header(ms_pbuf *b, uint32_t flags, uint64_t nfiles)
{
    ms_wire_u32(b, CHUNK_MAGIC);
    ms_wire_u32(b, MS_WIRE_VERSION);
    ms_wire_u32(b, flags);
    ms_wire_u64(b, 0); /* chunk bytes, set at the end */
    ms_wire_u64(b, nfiles);
}

static void set_chunk_bytes(ms_pbuf *b, size_t start)
{
    ms_wire_le(b->p + start + BYTES_AT, b->n - start, 8);
}

int ms_partial_pack(const ms_partial *p, const unsigned char *mine, uint32_t flags, ms_pbuf *b)
{
    size_t start = b->n;
    if (p->nomem)
        flags |= MS_PACK_NOMEM;
    put_header(b, flags, p->nfiles);
    /* (files NULL: a partial that failed before its list, flags only) */
    size_t nlisted = p->files ? p->nfiles : 0;
    uint64_t nmine = 0;
    for (size_t i = 0; i < nlisted; i++)
        nmine += p->files[i].read && (!mine || mine[i]);
    ms_wire_u64(b, nmine);
    for (size_t i = 0; i < nlisted; i++) {
        if (!p->files[i].read || (mine && !mine[i]))
            continue;
        ms_wire_u64(b, i);
        ms_wire_put_file(b, &p->files[i]);
    }
    ms_wire_u64(b, p->ntabs);
    for (size_t i = 0; i < p->ntabs; i++)
        put_table(b, &p->tabs[i]);
    ms_wire_u64(b, p->nsites);
    for (size_t i = 0; i < p->nsites; i++)
        put_site(b, &p->sites[i]);
    if (!b->nomem) {
        set_chunk_bytes(b, start);
        return 0;
    }
    /* Out of memory: the failure alone, in the room there was. */
    b->nomem = 0;
    b->n = start;
    put_header(b, flags | MS_PACK_NOMEM, p->nfiles);
    ms_wire_u64(b, 0);
    ms_wire_u64(b, 0);
    ms_wire_u64(b, 0);
    if (!b->nomem)
        set_chunk_bytes(b, start);
    else
        b->n = start;
    return -1;
}

/* The header of the chunk at r->off; its end, or 0 with err set. */
static size_t chunk_header(ms_partial *p, ms_wire_in *r, uint32_t *flags, char *err, size_t errlen)
{
    size_t start = r->off;
    uint32_t magic = ms_wire_get_u32(r), version = ms_wire_get_u32(r), fl = ms_wire_get_u32(r);
    uint64_t bytes = ms_wire_get_u64(r), nfiles = ms_wire_get_u64(r);
    if (magic != CHUNK_MAGIC) {
        snprintf(err, errlen, "not a chunk of per-file results at byte %zu", start);
        return 0;
    }
    if (r->n - start >= 8 && version != MS_WIRE_VERSION) {
        snprintf(err, errlen,
                 "a chunk of per-file results in wire format version %u; this program reads version %u "
                 "(every process must run the same mpiscope)",
                 version, MS_WIRE_VERSION);
        return 0;
    }
    if (r->bad || bytes < HEADER_BYTES || bytes > r->n - start) {
        snprintf(err, errlen, "a chunk of per-file results is cut short (%llu bytes announced, %zu there)",
                 (unsigned long long)bytes, r->n - start);
        return 0;
    }
    if (nfiles != p->nfiles) {
        snprintf(err, errlen, "a chunk of per-file results for %llu files, the directory has %zu",
                 (unsigned long long)nfiles, p->nfiles);
        return 0;
    }
    *flags |= fl;
    return start + (size_t)bytes;
}

/* The files of a chunk; 0, or -2 with err set for a file index twice or
 * beyond the list (c->bad or c->nomem for the rest). */
static int get_files(ms_partial *p, ms_wire_in *c, char *err, size_t errlen)
{
    size_t nf = ms_wire_get_count(c, FILE_MIN);
    for (size_t i = 0; i < nf && ms_wire_ok(c); i++) {
        uint64_t idx = ms_wire_get_u64(c);
        if (c->bad || idx >= p->nfiles || p->files[idx].read) {
            snprintf(err, errlen, "a chunk of per-file results holds file %llu %s", (unsigned long long)idx,
                     c->bad ? "cut short" : idx >= p->nfiles ? "beyond the list" : "a second time");
            return -2;
        }
        ms_file_job j;
        memset(&j, 0, sizeof j);
        ms_wire_get_file(c, &j);
        if (!ms_wire_ok(c) || j.read != 1) {
            c->bad |= !c->nomem;
            ms_wire_file_free(&j);
            return 0;
        }
        ms_wire_file_free(&p->files[idx]);
        p->files[idx] = j;
    }
    return 0;
}

static int unpack_chunk(ms_partial *p, ms_wire_in *r, uint32_t *flags, char *err, size_t errlen)
{
    size_t start = r->off, end = chunk_header(p, r, flags, err, errlen);
    if (!end)
        return -2;
    ms_wire_in c = {.p = r->p, .n = end, .off = r->off};
    if (get_files(p, &c, err, errlen) != 0)
        return -2;
    size_t ntabs = ms_wire_get_count(&c, 8);
    for (size_t i = 0; i < ntabs && ms_wire_ok(&c); i++) {
        ms_region_table *t = ms_partial_add_table(p);
        if (!t)
            c.nomem = 1;
        else
            get_table(&c, t);
    }
    if (ms_wire_ok(&c))
        add_sites(p, &c);
    if (c.nomem)
        return -1;
    if (c.bad || c.off != c.n) {
        snprintf(err, errlen, "a chunk of per-file results does not add up (at byte %zu of %zu)", c.off - start,
                 end - start);
        return -2;
    }
    r->off = end;
    return 0;
}

int ms_partial_unpack(ms_partial *p, const void *buf, size_t n, uint32_t *flags, char *err, size_t errlen)
{
    ms_wire_in r = {.p = buf, .n = n, .off = 0};
    while (r.off < r.n) {
        int rc = unpack_chunk(p, &r, flags, err, errlen);
        if (rc != 0) {
            if (rc == -1)
                p->nomem = 1;
            return rc;
        }
    }
    return 0;
}
