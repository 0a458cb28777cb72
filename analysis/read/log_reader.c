/* Reading one rank's log: see log_reader.h. */
#include "log_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "idmap.h"
#include "strtab.h"

/* Largest zstd frame header (RFC 8878 section 3.1.1.1). */
#define FRAME_HEADER_MAX 18u
/* The frame header descriptor's Content_Checksum_flag. */
#define FHD_CHECKSUM 0x04u
#define BLOCK_CONTENT_MAX ((size_t)MS_MAX_BLOCK_PAYLOAD + sizeof(ms_block_header))
#define READ_BUF_MIN (256u * 1024u)
/* Bytes at the end of a file searched for the end block's frame. */
#define TAIL_PROBE 512u
#define MAX_TIME ((uint64_t)INT64_MAX)

static const uint8_t zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

/* The thread-local region ids up to this bound are looked up in a plain
 * array; it grows with the ids a thread defines, never past this. */
#define DENSE_IDS 4096u

typedef struct thread_state {
    uint32_t thread;
    int has_time;
    uint64_t cursor;         /* end of the previous event, or a time record */
    uint32_t *dense;         /* id -> file region index, for ids < ndense */
    uint32_t ndense;
    uint32_t ndefs;
    ms_idmap ids;            /* the other ids */
    uint16_t cset[MS_MAX_COUNTER_SETS];  /* set id -> per-file set index + 1 */
} thread_state;

struct ms_reader {
    ZSTD_DCtx *dctx;
    uint8_t *in;
    size_t in_cap;
    uint8_t *out;
    size_t out_cap;
    int32_t *members;
    size_t members_cap;
    char *meta_buf;
    ms_log_meta meta;
    int has_meta;
    int has_end_hint;
    ms_end_record end_hint;  /* as stored (log clock) */
    size_t hint_size;        /* its size in the last frame */
    size_t end_size;         /* the end record's size on disk: by format version */
    uint32_t version;        /* of the file being read */
    uint32_t sync_seen;      /* bit per sync phase read */
    /* Log clock -> CLOCK_MONOTONIC ns: ns = ns0 + (ticks - t0) * ns_per_tick,
     * the rate taken from the latest clock sample, or the end record. */
    int ticks;               /* the log clock is not already ns */
    uint64_t t0, ns0;
    double ns_per_tick;
    int rate_final;          /* fixed by the end record */
    ms_strtab names;
    /* Each definition of a region id binds it to a name and a call site:
     * thread maps hold binding indices. */
    uint32_t *bind_region, *bind_site;
    size_t nbinds, binds_cap;
    ms_site_table sites;
    ms_cset_table csets;     /* counter sets (log_counters.h) */
    uint64_t *sum_counts;    /* a summary record's bucket counts */
    ms_idmap thread_slots;   /* thread index -> position in threads */
    thread_state *threads;
    size_t nthreads, threads_cap;

    /* The read in progress. */
    const char *path;
    const ms_read_callbacks *cb;
    void *ctx;
    ms_read_result *res;
    uint64_t frame_off;      /* file offset of the frame being decoded */
    uint64_t file_size;      /* as seen when the read began */
};

const char *ms_read_status_str(ms_read_status s)
{
    switch (s) {
    case MS_READ_OK: return "ok";
    case MS_READ_TRUNCATED: return "truncated";
    case MS_READ_CORRUPT: return "corrupt";
    case MS_READ_UNSUPPORTED: return "unsupported";
    case MS_READ_IO: return "unreadable";
    case MS_READ_NOMEM: return "out of memory";
    case MS_READ_STOPPED: return "stopped";
    }
    return "unknown";
}

ms_reader *ms_reader_create(void)
{
    ms_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->dctx = ZSTD_createDCtx();
    if (!r->dctx) {
        free(r);
        return NULL;
    }
    ms_strtab_init(&r->names);
    ms_sites_init(&r->sites);
    ms_idmap_init(&r->thread_slots);
    return r;
}

static void reset(ms_reader *r)
{
    for (size_t i = 0; i < r->nthreads; i++) {
        free(r->threads[i].dense);
        ms_idmap_free(&r->threads[i].ids);
    }
    r->nthreads = 0;
    ms_idmap_free(&r->thread_slots);
    ms_strtab_free(&r->names);
    r->nbinds = 0;
    ms_sites_clear(&r->sites);
    ms_cset_clear(&r->csets);
    free(r->meta_buf);
    r->meta_buf = NULL;
    memset(&r->meta, 0, sizeof r->meta);
    r->has_meta = 0;
    r->has_end_hint = 0;
    r->end_size = 0;
    r->version = 0;
    r->sync_seen = 0;
    r->ticks = 0;
    r->t0 = r->ns0 = 0;
    r->ns_per_tick = 1.0;
    r->rate_final = 0;
}

/* ---- the log clock ---- */

static uint64_t to_ns(const ms_reader *r, uint64_t t)
{
    if (!r->ticks)
        return t;
    double d = ((double)t - (double)r->t0) * r->ns_per_tick + (double)r->ns0;
    if (!(d > 0))
        return 0;
    return d >= (double)MAX_TIME ? MAX_TIME : (uint64_t)d;
}

/* A later pair of readings of both clocks fixes the rate between them. */
static void clock_pair(ms_reader *r, uint64_t ticks, uint64_t mono_ns)
{
    if (!r->ticks || ticks <= r->t0 || mono_ns <= r->ns0)
        return;
    /* Too short a span says little about the rate. */
    if (mono_ns - r->ns0 < 1000000u)
        return;
    r->ns_per_tick = (double)(mono_ns - r->ns0) / (double)(ticks - r->t0);
}

/* The end record with its log-clock times in CLOCK_MONOTONIC ns. */
static ms_end_record end_in_ns(const ms_reader *r, const ms_end_record *e)
{
    ms_end_record n = *e;
    if (n.finalize_start_ns)
        n.finalize_start_ns = to_ns(r, n.finalize_start_ns);
    n.end_ticks = n.end_ns;
    return n;
}

void ms_reader_destroy(ms_reader *r)
{
    if (!r)
        return;
    reset(r);
    free(r->bind_region);
    free(r->bind_site);
    ms_sites_free(&r->sites);
    free(r->threads);
    free(r->in);
    free(r->out);
    free(r->members);
    free(r->sum_counts);
    ZSTD_freeDCtx(r->dctx);
    free(r);
}

uint32_t ms_reader_region_count(const ms_reader *r)
{
    return (uint32_t)ms_strtab_count(&r->names);
}

const char *ms_reader_region_name(const ms_reader *r, uint32_t region, size_t *len)
{
    if (region >= ms_strtab_count(&r->names))
        return NULL;
    if (len)
        *len = ms_strtab_len(&r->names, region);
    return ms_strtab_str(&r->names, region);
}

const ms_site_table *ms_reader_sites(const ms_reader *r)
{
    return &r->sites;
}

const ms_log_meta *ms_reader_meta(const ms_reader *r)
{
    return r->has_meta ? &r->meta : NULL;
}

/* ---- outcomes ---- */

__attribute__((format(printf, 4, 5)))
static ms_read_status fail(ms_reader *r, ms_read_status st, uint64_t off, const char *fmt, ...)
{
    ms_read_result *res = r->res;
    res->status = st;
    res->offset = off;
    int n = snprintf(res->message, sizeof res->message, "%s: ", r->path);
    if (n < 0 || (size_t)n >= sizeof res->message)
        return st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->message + n, sizeof res->message - (size_t)n, fmt, ap);
    va_end(ap);
    return st;
}

static ms_read_status corrupt_at(ms_reader *r, const char *what)
{
    return fail(r, MS_READ_CORRUPT, r->frame_off, "corrupt log: %s in the frame at byte offset %" PRIu64,
                what, r->frame_off);
}

static ms_read_status stopped(ms_reader *r)
{
    return fail(r, MS_READ_STOPPED, r->frame_off, "reading stopped by the consumer at byte offset %" PRIu64,
                r->frame_off);
}

static ms_read_status nomem(ms_reader *r)
{
    return fail(r, MS_READ_NOMEM, r->frame_off, "out of memory at byte offset %" PRIu64, r->frame_off);
}

/* ---- varints on the hot path ---- */

static inline int get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
    const uint8_t *p = *pp;
    if (p < end && *p < 0x80) {
        *out = *p;
        *pp = p + 1;
        return 0;
    }
    return ms_get_varint(pp, end, out);
}

/* ---- header block ---- */

static const char **meta_slot(ms_log_meta *m, const char *key, size_t klen)
{
    static const struct { const char *key; size_t off; } keys[] = {
        {"host", offsetof(ms_log_meta, host)},
        {"mpi_library", offsetof(ms_log_meta, mpi_library)},
        {"argv0", offsetof(ms_log_meta, argv0)},
        {"run_dir", offsetof(ms_log_meta, run_dir)},
        {"clock", offsetof(ms_log_meta, clock)},
        {"run", offsetof(ms_log_meta, run_id)},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i].key) == klen && memcmp(keys[i].key, key, klen) == 0)
            return (const char **)((char *)m + keys[i].off);
    return NULL;
}

static ms_read_status parse_header(ms_reader *r, const uint8_t *p, size_t len)
{
    ms_file_header h;
    if (len < 16 || memcmp(p, MS_FILE_MAGIC, 8) != 0)
        return fail(r, MS_READ_CORRUPT, r->frame_off,
                    "not an mpiscope log (bad file magic in the header block at byte offset %" PRIu64 ")",
                    r->frame_off);
    uint32_t version, endian;
    memcpy(&version, p + 8, 4);
    memcpy(&endian, p + 12, 4);
    if (endian != MS_ENDIAN_MARK) {
        if (endian == 0x04030201u)
            return fail(r, MS_READ_UNSUPPORTED, r->frame_off,
                        "log written with the other byte order (header block at byte offset %" PRIu64
                        "); this reader reads little-endian logs",
                        r->frame_off);
        return corrupt_at(r, "bad endian mark in the header block");
    }
    if (version == 0)
        return corrupt_at(r, "format version 0 in the header block");
    if (version > MS_FORMAT_VERSION)
        return fail(r, MS_READ_UNSUPPORTED, r->frame_off,
                    "format version %" PRIu32 " (header block at byte offset %" PRIu64
                    ") is newer than this reader supports (version %u); use a newer mpiscope-merge",
                    version, r->frame_off, MS_FORMAT_VERSION);
    ms_clock_info clock = {.kind = MS_CLOCK_NS, .ticks_per_ns = 1.0};
    size_t fixed = sizeof h + (version >= 2 ? sizeof clock : 0);
    if (len < fixed)
        return corrupt_at(r, "header block too short");
    memcpy(&h, p, sizeof h);
    if (version >= 2) {
        memcpy(&clock, p + sizeof h, sizeof clock);
        if ((clock.kind != MS_CLOCK_NS && clock.kind != MS_CLOCK_TSC) || clock.reserved != 0 ||
            !(clock.ticks_per_ns > 1e-3 && clock.ticks_per_ns < 1e3) || clock.ticks_ref > MAX_TIME)
            return corrupt_at(r, "bad clock description in the header block");
    } else {
        clock.ticks_ref = h.clock_ref_ns;
    }
    if (h.size < 1 || h.rank < 0 || h.rank >= h.size)
        return corrupt_at(r, "rank or size out of range in the header block");
    if (h.mode != MS_MODE_TRACE && h.mode != MS_MODE_SUMMARY)
        return corrupt_at(r, "unknown mode in the header block");
    if (h.clock_ref_ns > MAX_TIME || h.init_start_ns > MAX_TIME || h.init_end_ns > MAX_TIME)
        return corrupt_at(r, "time out of range in the header block");
    size_t rest = len - fixed;
    if (h.nstrings > rest / 4)
        return corrupt_at(r, "metadata string count exceeds the header block");

    /* Copy the strings, each followed by a terminator. */
    char *buf = malloc(rest + h.nstrings + 1);
    if (!buf)
        return nomem(r);
    r->meta_buf = buf;
    memset(&r->meta, 0, sizeof r->meta);
    r->meta.host = r->meta.mpi_library = r->meta.argv0 = r->meta.run_dir = r->meta.clock = "";
    r->meta.run_id = "";
    const uint8_t *s = p + fixed, *end = p + len;
    char *dst = buf;
    for (uint32_t i = 0; i < h.nstrings; i++) {
        uint32_t sl;
        if ((size_t)(end - s) < 4)
            return corrupt_at(r, "metadata string runs past the header block");
        memcpy(&sl, s, 4);
        s += 4;
        if (sl > (size_t)(end - s))
            return corrupt_at(r, "metadata string runs past the header block");
        memcpy(dst, s, sl);
        dst[sl] = '\0';
        const char *eq = memchr(dst, '=', sl);
        if (eq) {
            const char **slot = meta_slot(&r->meta, dst, (size_t)(eq - dst));
            if (slot)
                *slot = eq + 1;
        }
        s += sl;
        dst += sl + 1;
    }
    if (s != end)
        return corrupt_at(r, "unexpected bytes after the metadata strings");

    r->end_size = version >= 2 ? sizeof(ms_end_record) : MS_END_RECORD_V1_SIZE;
    r->version = version;
    if (r->has_end_hint && r->hint_size != r->end_size)
        r->has_end_hint = 0;
    r->ticks = clock.kind == MS_CLOCK_TSC;
    r->t0 = clock.ticks_ref;
    r->ns0 = h.clock_ref_ns;
    r->ns_per_tick = 1.0 / clock.ticks_per_ns;
    if (r->has_end_hint && r->end_size == sizeof(ms_end_record)) {
        clock_pair(r, r->end_hint.end_ticks, r->end_hint.end_ns);
        r->rate_final = 1;
    }
    /* Consumers see every time in CLOCK_MONOTONIC ns. */
    h.init_start_ns = to_ns(r, h.init_start_ns);
    h.init_end_ns = to_ns(r, h.init_end_ns);
    r->meta.has_end_hint = r->has_end_hint;
    if (r->has_end_hint)
        r->meta.end_hint = end_in_ns(r, &r->end_hint);
    r->meta.header = h;
    r->has_meta = 1;
    return MS_READ_OK;
}

/* ---- data blocks ---- */

static thread_state *thread_for(ms_reader *r, uint32_t thread)
{
    uint32_t i = ms_idmap_get(&r->thread_slots, thread);
    if (i != MS_IDMAP_NONE)
        return &r->threads[i];
    if (r->nthreads >= MS_READER_MAX_THREADS)
        return NULL;
    if (r->nthreads == r->threads_cap) {
        size_t cap = r->threads_cap ? r->threads_cap * 2 : 8;
        thread_state *t = realloc(r->threads, cap * sizeof *t);
        if (!t)
            return NULL;
        r->threads = t;
        r->threads_cap = cap;
    }
    if (ms_idmap_put(&r->thread_slots, thread, (uint32_t)r->nthreads) != 0)
        return NULL;
    thread_state *t = &r->threads[r->nthreads++];
    memset(t, 0, sizeof *t);
    t->thread = thread;
    ms_idmap_init(&t->ids);
    return t;
}

static inline uint32_t region_of(const thread_state *t, uint64_t id)
{
    if (id < t->ndense)
        return t->dense[id];
    return ms_idmap_get(&t->ids, id);
}

static int define_id(thread_state *t, uint64_t id, uint32_t region)
{
    t->ndefs++;
    if (id < t->ndense) {
        t->dense[id] = region;
        return 0;
    }
    /* The array grows only in step with the definitions made. */
    if (id < DENSE_IDS && id < 16u * (uint64_t)t->ndefs + 64u) {
        uint32_t n = t->ndense ? t->ndense : 64u;
        while (n <= id)
            n *= 2;
        if (n > DENSE_IDS)
            n = DENSE_IDS;
        uint32_t *d = realloc(t->dense, n * sizeof *d);
        if (!d)
            return -1;
        /* Ids already in the map move to the array. */
        for (uint32_t i = t->ndense; i < n; i++)
            d[i] = ms_idmap_get(&t->ids, i);
        t->dense = d;
        t->ndense = n;
        t->dense[id] = region;
        return 0;
    }
    return ms_idmap_put(&t->ids, id, region);
}

/* A new binding of a region id to name index `region`, without a site. */
static int new_binding(ms_reader *r, uint32_t region, uint32_t *b)
{
    if (r->nbinds == r->binds_cap) {
        size_t n = r->binds_cap ? r->binds_cap * 2 : 256;
        uint32_t *a = realloc(r->bind_region, n * sizeof *a);
        if (!a)
            return -1;
        r->bind_region = a;
        uint32_t *c = realloc(r->bind_site, n * sizeof *c);
        if (!c)
            return -1;
        r->bind_site = c;
        r->binds_cap = n;
    }
    r->bind_region[r->nbinds] = region;
    r->bind_site[r->nbinds] = MS_SITE_NONE;
    *b = (uint32_t)r->nbinds++;
    return 0;
}

static ms_read_status parse_region_def(ms_reader *r, thread_state *t, const uint8_t **pp,
                                       const uint8_t *end)
{
    uint64_t id, len;
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &len) != 0)
        return corrupt_at(r, "region record runs past its block");
    if (len > MS_MAX_NAME)
        return corrupt_at(r, "region name longer than the format allows");
    if (len > (uint64_t)(end - *pp))
        return corrupt_at(r, "region name runs past its block");
    const char *name = (const char *)*pp;
    if (memchr(name, '\0', len))
        return corrupt_at(r, "region name contains a NUL byte");
    *pp += len;

    uint32_t idx;
    int is_new;
    if (!ms_strtab_find(&r->names, name, len, &idx)) {
        if (ms_strtab_count(&r->names) >= MS_READER_MAX_REGIONS ||
            r->names.bytes + len > MS_READER_MAX_NAME_BYTES)
            return corrupt_at(r, "more region names than a log may define");
    }
    if (ms_strtab_intern(&r->names, name, len, &idx, &is_new) != 0)
        return nomem(r);
    if (is_new && r->cb && r->cb->region && r->cb->region(r->ctx, idx, name, len) != 0)
        return stopped(r);
    if (region_of(t, id) == MS_IDMAP_NONE && t->ids.n + t->ndense >= MS_READER_MAX_IDS)
        return corrupt_at(r, "more region ids than a thread may define");
    /* A redefined id takes over its binding: bindings never outnumber the
     * ids a file defines. */
    uint32_t b = region_of(t, id);
    if (b != MS_IDMAP_NONE) {
        r->bind_region[b] = idx;
        r->bind_site[b] = MS_SITE_NONE;
        return MS_READ_OK;
    }
    if (new_binding(r, idx, &b) != 0 || define_id(t, id, b) != 0)
        return nomem(r);
    return MS_READ_OK;
}

static ms_read_status parse_site(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    uint64_t id, n, pc[MS_MAX_SITE_FRAMES];
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &n) != 0)
        return corrupt_at(r, "call-site record runs past its block");
    if (n == 0 || n > MS_MAX_SITE_FRAMES)
        return corrupt_at(r, "call site with a frame count the format does not allow");
    for (uint64_t i = 0; i < n; i++)
        if (get_varint(pp, end, &pc[i]) != 0)
            return corrupt_at(r, "call-site record runs past its block");
    uint32_t b = region_of(t, id);
    if (b == MS_IDMAP_NONE)
        return corrupt_at(r, "call site of an undefined region");
    uint32_t idx;
    int is_new;
    int rc = ms_sites_intern(&r->sites, pc, (uint32_t)n, &idx, &is_new);
    if (rc == -2)
        return corrupt_at(r, "more call sites than a log may define");
    if (rc != 0)
        return nomem(r);
    r->bind_site[b] = idx;
    if (is_new && r->cb && r->cb->site && r->cb->site(r->ctx, idx, pc, (uint32_t)n) != 0)
        return stopped(r);
    return MS_READ_OK;
}

static ms_read_status parse_object(ms_reader *r, const uint8_t **pp, const uint8_t *end)
{
    uint64_t base, lo, hi, plen, idlen;
    if (get_varint(pp, end, &base) != 0 || get_varint(pp, end, &lo) != 0 || get_varint(pp, end, &hi) != 0 ||
        get_varint(pp, end, &plen) != 0)
        return corrupt_at(r, "object record runs past its block");
    if (lo >= hi)
        return corrupt_at(r, "object with an empty address range");
    if (plen == 0 || plen > MS_MAX_OBJECT_PATH || plen > (uint64_t)(end - *pp))
        return corrupt_at(r, "object path too long or past its block");
    const char *path = (const char *)*pp;
    if (memchr(path, '\0', plen))
        return corrupt_at(r, "object path contains a NUL byte");
    *pp += plen;
    if (get_varint(pp, end, &idlen) != 0)
        return corrupt_at(r, "object record runs past its block");
    if (idlen > MS_MAX_BUILD_ID || idlen > (uint64_t)(end - *pp))
        return corrupt_at(r, "object build-id too long or past its block");
    const uint8_t *id = *pp;
    *pp += idlen;
    int i = ms_sites_add_object(&r->sites, base, lo, hi, path, plen, id, idlen);
    if (i == -2)
        return corrupt_at(r, "more objects than a log may define");
    if (i < 0)
        return nomem(r);
    if (r->cb && r->cb->object && r->cb->object(r->ctx, &r->sites.objects[i]) != 0)
        return stopped(r);
    return MS_READ_OK;
}

static ms_read_status parse_comm(ms_reader *r, thread_state *t, const uint8_t **pp,
                                 const uint8_t *end)
{
    uint64_t id, n;
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &n) != 0)
        return corrupt_at(r, "communicator record runs past its block");
    uint64_t size = (uint64_t)r->meta.header.size;
    if (n > size || n > (uint64_t)(end - *pp))
        return corrupt_at(r, "communicator larger than the world");
    if (n > r->members_cap) {
        int32_t *m = realloc(r->members, (size_t)n * sizeof *m);
        if (!m)
            return nomem(r);
        r->members = m;
        r->members_cap = (size_t)n;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t w;
        if (get_varint(pp, end, &w) != 0)
            return corrupt_at(r, "communicator record runs past its block");
        if (w >= size)
            return corrupt_at(r, "communicator member outside the world");
        r->members[i] = (int32_t)w;
    }
    if (r->cb && r->cb->comm && r->cb->comm(r->ctx, t->thread, id, r->members, (uint32_t)n) != 0)
        return stopped(r);
    return MS_READ_OK;
}

/* A counter name: varint len (at most MS_MAX_COUNTER_NAME), bytes, no NUL. */
static int get_counter_name(const uint8_t **pp, const uint8_t *end, const char **s, size_t *len)
{
    uint64_t n;
    if (get_varint(pp, end, &n) != 0 || n > MS_MAX_COUNTER_NAME || n > (uint64_t)(end - *pp) ||
        memchr(*pp, '\0', (size_t)n))
        return -1;
    *s = (const char *)*pp;
    *len = (size_t)n;
    *pp += n;
    return 0;
}

static ms_read_status parse_counter_set(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    uint64_t id, nev, n;
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &nev) != 0 || get_varint(pp, end, &n) != 0)
        return corrupt_at(r, "counter-set record runs past its block");
    if (id >= MS_MAX_COUNTER_SETS || n > MS_MAX_COUNTER_VALUES || nev > n)
        return corrupt_at(r, "counter set with an id or value count the format does not allow");
    ms_cset_ref ref = {.nevents = (uint32_t)nev, .n = (uint32_t)n};
    if (get_counter_name(pp, end, &ref.group, &ref.group_len) != 0)
        return corrupt_at(r, "counter-set group name too long, past its block or with a NUL byte");
    for (uint64_t i = 0; i < n; i++)
        if (get_counter_name(pp, end, &ref.name[i], &ref.len[i]) != 0)
            return corrupt_at(r, "counter name too long, past its block or with a NUL byte");
    uint32_t idx;
    int is_new;
    int rc = ms_cset_intern(&r->csets, &ref, &idx, &is_new);
    if (rc == -2)
        return corrupt_at(r, "more counter sets than a log may define");
    if (rc != 0)
        return nomem(r);
    t->cset[id] = (uint16_t)(idx + 1);
    if (is_new && r->cb && r->cb->counter_set && r->cb->counter_set(r->ctx, idx, &r->csets.v[idx]) != 0)
        return stopped(r);
    return MS_READ_OK;
}

static ms_read_status parse_counter_sample(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    uint64_t set, region, cthread, cpu, count, flags, n;
    if (get_varint(pp, end, &set) != 0 || get_varint(pp, end, &region) != 0 || get_varint(pp, end, &cthread) != 0 ||
        get_varint(pp, end, &cpu) != 0 || get_varint(pp, end, &count) != 0 || get_varint(pp, end, &flags) != 0 ||
        (uint64_t)(end - *pp) < 8)
        return corrupt_at(r, "counter-sample record runs past its block");
    double time_s, values[MS_MAX_COUNTER_VALUES];
    memcpy(&time_s, *pp, 8);
    *pp += 8;
    if (get_varint(pp, end, &n) != 0)
        return corrupt_at(r, "counter-sample record runs past its block");
    if (set >= MS_MAX_COUNTER_SETS || !t->cset[set])
        return corrupt_at(r, "counter sample of an undefined set");
    const ms_counter_set *def = &r->csets.v[t->cset[set] - 1];
    if (n != def->n)
        return corrupt_at(r, "counter sample with another value count than its set");
    if (n * 8u > (uint64_t)(end - *pp))
        return corrupt_at(r, "counter-sample record runs past its block");
    if (cthread > UINT32_MAX || cpu > UINT32_MAX || (flags & ~(uint64_t)MS_SAMPLE_FINAL) != 0)
        return corrupt_at(r, "counter sample with a thread, cpu or flags the format does not allow");
    if (!(time_s >= 0.0 && time_s <= 1e12))
        return corrupt_at(r, "counter sample time out of range");
    memcpy(values, *pp, (size_t)n * 8u);
    *pp += n * 8u;
    ms_counter_sample s = {.thread = t->thread, .set = t->cset[set] - 1u, .region = MS_REGION_RUN,
                           .cthread = (uint32_t)cthread, .cpu = (uint32_t)cpu, .count = count,
                           .flags = (uint32_t)flags, .time_s = time_s, .n = (uint32_t)n, .values = values};
    if (region != 0) {
        uint32_t b = region_of(t, region - 1);
        if (b == MS_IDMAP_NONE)
            return corrupt_at(r, "counter sample of an undefined region");
        s.region = r->bind_region[b];
    }
    if (r->cb && r->cb->counter_sample && r->cb->counter_sample(r->ctx, &s) != 0)
        return stopped(r);
    return MS_READ_OK;
}

/* GPU records (version 4): control values 9 to 12. */
static ms_read_status parse_gpu(ms_reader *r, thread_state *t, unsigned ctl, const uint8_t **pp, const uint8_t *end)
{
    ms_gpu_record g = {.thread = t->thread};
    uint64_t a = 0, b = 0, c = 0;
    switch (ctl) {
    case MS_CTL_GPU_STREAM:
        g.kind = MS_GPU_STREAM;
        if (get_varint(pp, end, &a) != 0 || get_varint(pp, end, &b) != 0 || get_varint(pp, end, &c) != 0)
            return corrupt_at(r, "GPU stream record runs past its block");
        if (a > UINT32_MAX || b > UINT32_MAX || c > UINT32_MAX)
            return corrupt_at(r, "GPU stream record with a device, context or stream out of range");
        g.device = (uint32_t)a, g.context = (uint32_t)b, g.stream = (uint32_t)c;
        break;
    case MS_CTL_GPU_LAUNCH:
        g.kind = MS_GPU_LAUNCH;
        if (get_varint(pp, end, &a) != 0 || get_varint(pp, end, &b) != 0)
            return corrupt_at(r, "GPU launch record runs past its block");
        if (a > MS_READER_MAX_THREADS || b > MAX_TIME)
            return corrupt_at(r, "GPU launch record with a thread or time out of range");
        g.host_thread = (uint32_t)a;
        g.launch_ns = a ? to_ns(r, b) : 0;
        break;
    case MS_CTL_GPU_DROPPED:
        g.kind = MS_GPU_DROPPED;
        if (get_varint(pp, end, &a) != 0)
            return corrupt_at(r, "GPU dropped-records record runs past its block");
        g.dropped = a;
        break;
    default:
        g.kind = MS_GPU_TOOL;
        break;
    }
    if (r->cb && r->cb->gpu && r->cb->gpu(r->ctx, &g) != 0)
        return stopped(r);
    return MS_READ_OK;
}

static int get_double(const uint8_t **pp, const uint8_t *end, double *v)
{
    if (end - *pp < 8)
        return -1;
    memcpy(v, *pp, 8);
    *pp += 8;
    return 0;
}

static ms_read_status parse_summary(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    uint64_t id, f[4], first_t, first_ns, last_t, last_ns, window, excl, zero, lo, len;
    double mean, m2;
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &f[0]) != 0 || get_varint(pp, end, &f[1]) != 0 ||
        get_varint(pp, end, &f[2]) != 0 || get_varint(pp, end, &f[3]) != 0 || get_double(pp, end, &mean) != 0 ||
        get_double(pp, end, &m2) != 0 || get_varint(pp, end, &first_t) != 0 || get_varint(pp, end, &first_ns) != 0 ||
        get_varint(pp, end, &last_t) != 0 || get_varint(pp, end, &last_ns) != 0 ||
        get_varint(pp, end, &window) != 0 || get_varint(pp, end, &excl) != 0 || get_varint(pp, end, &zero) != 0 ||
        get_varint(pp, end, &lo) != 0 || get_varint(pp, end, &len) != 0)
        return corrupt_at(r, "summary record runs past its block");
    if (lo > MS_SKETCH_MAX_INDEX || len > MS_SKETCH_MAX_INDEX + 1u - lo)
        return corrupt_at(r, "summary record with sketch buckets out of range");
    if (!r->sum_counts && !(r->sum_counts = malloc((MS_SKETCH_MAX_INDEX + 1u) * sizeof *r->sum_counts)))
        return nomem(r);
    for (uint64_t i = 0; i < len; i++)
        if (get_varint(pp, end, &r->sum_counts[i]) != 0)
            return corrupt_at(r, "summary record runs past its block");
    uint32_t b = region_of(t, id);
    if (b == MS_IDMAP_NONE)
        return corrupt_at(r, "summary of an undefined region");
    if (first_t > MAX_TIME || last_t > MAX_TIME)
        return corrupt_at(r, "summary time out of range");
    ms_summary_rec s = {
        .thread = t->thread, .region = r->bind_region[b], .site = r->bind_site[b],
        .agg = {.calls = f[0], .total_ns = f[1], .min_ns = f[2], .max_ns = f[3], .mean_ns = mean, .m2 = m2,
                .first_start = (int64_t)to_ns(r, first_t), .first_ns = first_ns,
                .last_end = (int64_t)to_ns(r, last_t), .last_ns = last_ns, .zero = zero,
                .lo = (int32_t)lo, .len = (int32_t)len, .counts = r->sum_counts},
        .window_ns = window, .excl_ns = excl,
    };
    if (ms_stats_agg_check(&s.agg) != 0 || window > s.agg.total_ns || excl > s.agg.total_ns)
        return corrupt_at(r, "inconsistent summary record");
    r->res->summarized += s.agg.calls;
    if (r->cb && r->cb->summary && r->cb->summary(r->ctx, &s) != 0)
        return stopped(r);
    return MS_READ_OK;
}

static ms_read_status parse_data(ms_reader *r, uint32_t thread, const uint8_t *p, size_t len)
{
    thread_state *t = thread_for(r, thread);
    if (!t)
        return r->nthreads >= MS_READER_MAX_THREADS ? corrupt_at(r, "more threads than a log may have")
                                                    : nomem(r);
    const uint8_t *end = p + len;
    int (*on_event)(void *, const ms_event *) = r->cb ? r->cb->event : NULL;
    ms_event ev = {.thread = thread};
    uint64_t nev = 0;
    ms_read_status st = MS_READ_OK;

    while (p < end) {
        uint64_t h;
        if (get_varint(&p, end, &h) != 0) {
            st = corrupt_at(r, "record runs past its block");
            break;
        }
        switch (h & 3u) {
        case MS_REC_EVENT: {
            uint64_t gap, dur;
            if (get_varint(&p, end, &gap) != 0 || get_varint(&p, end, &dur) != 0) {
                st = corrupt_at(r, "event record runs past its block");
                goto out;
            }
            uint32_t bound = region_of(t, h >> 2);
            if (bound == MS_IDMAP_NONE) {
                st = corrupt_at(r, "event of an undefined region");
                goto out;
            }
            if (!t->has_time) {
                st = corrupt_at(r, "event before the thread's first time record");
                goto out;
            }
            if (gap > MAX_TIME - t->cursor || dur > MAX_TIME - t->cursor - gap) {
                st = corrupt_at(r, "event time out of range");
                goto out;
            }
            ev.region = r->bind_region[bound];
            ev.site = r->bind_site[bound];
            ev.start_ns = to_ns(r, t->cursor + gap);
            ev.end_ns = to_ns(r, t->cursor + gap + dur);
            t->cursor += gap + dur;
            nev++;
            if (on_event && on_event(r->ctx, &ev) != 0) {
                st = stopped(r);
                goto out;
            }
            break;
        }
        case MS_REC_CONTROL:
            switch (h >> 2) {
            case MS_CTL_REGION:
                st = parse_region_def(r, t, &p, end);
                break;
            case MS_CTL_TIME: {
                uint64_t v;
                if (get_varint(&p, end, &v) != 0)
                    st = corrupt_at(r, "time record runs past its block");
                else if (v > MAX_TIME)
                    st = corrupt_at(r, "time out of range");
                else {
                    t->cursor = v;
                    t->has_time = 1;
                }
                break;
            }
            case MS_CTL_COMM:
                st = parse_comm(r, t, &p, end);
                break;
            case MS_CTL_SITE:
                st = parse_site(r, t, &p, end);
                break;
            case MS_CTL_OBJECT:
                st = parse_object(r, &p, end);
                break;
            case MS_CTL_COUNTER_SET:
                st = parse_counter_set(r, t, &p, end);
                break;
            case MS_CTL_COUNTER_SAMPLE:
                st = parse_counter_sample(r, t, &p, end);
                break;
            case MS_CTL_GPU_STREAM:
            case MS_CTL_GPU_LAUNCH:
            case MS_CTL_GPU_DROPPED:
            case MS_CTL_GPU_TOOL:
                st = parse_gpu(r, t, (unsigned)(h >> 2), &p, end);
                break;
            case MS_CTL_SUMMARY:
                st = parse_summary(r, t, &p, end);
                break;
            default:
                st = corrupt_at(r, "unknown control record");
                break;
            }
            if (st != MS_READ_OK)
                goto out;
            break;
        default:
            st = corrupt_at(r, "reserved record type");
            goto out;
        }
    }
out:
    r->res->events += nev;
    return st;
}

/* ---- frames ---- */

enum { STATE_START, STATE_BODY, STATE_ENDED };

static ms_read_status decode_block(ms_reader *r, const uint8_t *blk, size_t n, int *state)
{
    ms_block_header bh;
    memcpy(&bh, blk, sizeof bh);
    int first = *state == STATE_START;
    if (bh.magic != MS_BLOCK_MAGIC || (first && bh.kind != MS_BLOCK_HEADER)) {
        if (first)
            return fail(r, MS_READ_CORRUPT, r->frame_off,
                        "not an mpiscope log (the frame at byte offset %" PRIu64 " is not a header block)",
                        r->frame_off);
        return corrupt_at(r, "bad block magic");
    }
    if (bh.length != n - sizeof bh)
        return corrupt_at(r, "block length does not match the frame");
    if (bh.flags != 0)
        return corrupt_at(r, "unknown block flags");
    if (*state == STATE_ENDED)
        return corrupt_at(r, "block after the end block");
    const uint8_t *p = blk + sizeof bh;
    ms_read_status st;
    switch (bh.kind) {
    case MS_BLOCK_HEADER:
        if (!first)
            return corrupt_at(r, "second header block");
        if (bh.thread != 0)
            return corrupt_at(r, "header block with a thread index");
        st = parse_header(r, p, bh.length);
        if (st != MS_READ_OK)
            return st;
        r->res->has_header = 1;
        *state = STATE_BODY;
        if (r->cb && r->cb->header && r->cb->header(r->ctx, &r->meta) != 0)
            return stopped(r);
        return MS_READ_OK;
    case MS_BLOCK_DATA:
        return parse_data(r, bh.thread, p, bh.length);
    case MS_BLOCK_END: {
        ms_end_record e;
        memset(&e, 0, sizeof e);
        if (bh.length != r->end_size || bh.thread != 0)
            return corrupt_at(r, "malformed end block");
        memcpy(&e, p, r->end_size);
        if (r->has_end_hint && memcmp(&e, &r->end_hint, sizeof e) != 0)
            return corrupt_at(r, "end block differs from the file's last frame (file changed while read?)");
        if (r->end_size == sizeof e && !r->rate_final)
            clock_pair(r, e.end_ticks, e.end_ns);
        *state = STATE_ENDED;
        r->res->has_end = 1;
        ms_end_record n = end_in_ns(r, &e);
        if (r->cb && r->cb->end && r->cb->end(r->ctx, &n) != 0)
            return stopped(r);
        return MS_READ_OK;
    }
    case MS_BLOCK_CLOCK: {
        ms_clock_sample cs;
        if (r->end_size != sizeof(ms_end_record) || bh.length != sizeof cs || bh.thread != 0)
            return corrupt_at(r, "malformed clock block");
        memcpy(&cs, p, sizeof cs);
        if (!r->rate_final)
            clock_pair(r, cs.ticks, cs.mono_ns);
        return MS_READ_OK;
    }
    case MS_BLOCK_SYNC: {
        ms_sync_sample ss;
        if (r->version < 4 || bh.length != sizeof ss || bh.thread != 0)
            return corrupt_at(r, "malformed sync block");
        memcpy(&ss, p, sizeof ss);
        if (ss.phase > MS_SYNC_FINALIZE || ss.exchanges < 1 || ss.exchanges > MS_SYNC_MAX_EXCHANGES ||
            ss.t_send > ss.t_recv || ss.t_recv > MAX_TIME || ss.peer_mono_ns > MAX_TIME)
            return corrupt_at(r, "bad values in a sync block");
        if (r->sync_seen & (1u << ss.phase))
            return corrupt_at(r, "second sync block of one phase");
        r->sync_seen |= 1u << ss.phase;
        /* Consumers see the rank's times in CLOCK_MONOTONIC ns, like events. */
        ss.t_send = to_ns(r, ss.t_send);
        ss.t_recv = to_ns(r, ss.t_recv);
        if (ss.t_recv < ss.t_send)
            ss.t_recv = ss.t_send;
        if (r->cb && r->cb->sync && r->cb->sync(r->ctx, &ss) != 0)
            return stopped(r);
        return MS_READ_OK;
    }
    default:
        return corrupt_at(r, "unknown block kind");
    }
}

/* Checks that can be made once a frame's header is in (or as much of it as
 * the file has): zstd magic, checksum flag, content size. Returns OK, or a
 * failure; *content is set when the size is known. */
static ms_read_status check_frame_start(ms_reader *r, const uint8_t *f, size_t avail, int first,
                                        unsigned long long *content)
{
    size_t m = avail < 4 ? avail : 4;
    if (memcmp(f, zstd_magic, m) != 0) {
        if (first)
            return fail(r, MS_READ_CORRUPT, r->frame_off,
                        "not an mpiscope log (no zstd frame at byte offset %" PRIu64 ")", r->frame_off);
        return corrupt_at(r, "not a zstd frame");
    }
    if (avail > 4 && !(f[4] & FHD_CHECKSUM)) {
        if (first)
            return fail(r, MS_READ_CORRUPT, r->frame_off,
                        "not an mpiscope log (the zstd frame at byte offset %" PRIu64 " has no content checksum)",
                        r->frame_off);
        return corrupt_at(r, "frame without a content checksum");
    }
    *content = ZSTD_CONTENTSIZE_UNKNOWN;
    if (avail >= FRAME_HEADER_MAX) {
        unsigned long long c = ZSTD_getFrameContentSize(f, avail);
        if (c == ZSTD_CONTENTSIZE_ERROR)
            return corrupt_at(r, "bad zstd frame header");
        if (c == ZSTD_CONTENTSIZE_UNKNOWN)
            return corrupt_at(r, "frame without a content size");
        if (c < sizeof(ms_block_header) || c > BLOCK_CONTENT_MAX)
            return corrupt_at(r, "frame content size out of range");
        *content = c;
    }
    return MS_READ_OK;
}

static ms_read_status decode_frame(ms_reader *r, const uint8_t *f, size_t fsz, int *state)
{
    unsigned long long c = ZSTD_getFrameContentSize(f, fsz);
    if (c == ZSTD_CONTENTSIZE_ERROR || c == ZSTD_CONTENTSIZE_UNKNOWN || c < sizeof(ms_block_header) ||
        c > BLOCK_CONTENT_MAX)
        return corrupt_at(r, "bad frame content size");
    if (c > r->out_cap) {
        size_t cap = r->out_cap ? r->out_cap : 64u * 1024u;
        while (cap < c)
            cap *= 2;
        if (cap > BLOCK_CONTENT_MAX)
            cap = BLOCK_CONTENT_MAX;
        uint8_t *o = malloc(cap);
        if (!o)
            return nomem(r);
        free(r->out);
        r->out = o;
        r->out_cap = cap;
    }
    size_t d = ZSTD_decompressDCtx(r->dctx, r->out, (size_t)c, f, fsz);
    if (ZSTD_isError(d)) {
        char what[160];
        snprintf(what, sizeof what, "zstd: %s", ZSTD_getErrorName(d));
        return corrupt_at(r, what);
    }
    if (d != c)
        return corrupt_at(r, "frame content shorter than declared");
    return decode_block(r, r->out, (size_t)c, state);
}

/* ---- the end block, found from the end of the file ---- */

static void probe_end(ms_reader *r, int fd, off_t size)
{
    uint8_t buf[TAIL_PROBE];
    size_t n = size < (off_t)TAIL_PROBE ? (size_t)size : TAIL_PROBE;
    if (n < 8)
        return;
    ssize_t got;
    do
        got = pread(fd, buf, n, size - (off_t)n);
    while (got < 0 && errno == EINTR);
    if (got != (ssize_t)n)
        return;
    uint8_t out[sizeof(ms_block_header) + sizeof(ms_end_record)];
    const size_t sizes[] = {sizeof(ms_end_record), MS_END_RECORD_V1_SIZE};
    for (size_t pos = n - 4 + 1; pos-- > 0;) {
        if (memcmp(buf + pos, zstd_magic, 4) != 0)
            continue;
        size_t fsz = ZSTD_findFrameCompressedSize(buf + pos, n - pos);
        if (ZSTD_isError(fsz) || fsz != n - pos)
            continue;
        unsigned long long content = ZSTD_getFrameContentSize(buf + pos, fsz);
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t want = sizeof(ms_block_header) + sizes[k];
            if (content != want)
                continue;
            size_t d = ZSTD_decompressDCtx(r->dctx, out, want, buf + pos, fsz);
            if (ZSTD_isError(d) || d != want)
                continue;
            ms_block_header bh;
            memcpy(&bh, out, sizeof bh);
            if (bh.magic != MS_BLOCK_MAGIC || bh.kind != MS_BLOCK_END || bh.length != sizes[k])
                continue;
            memset(&r->end_hint, 0, sizeof r->end_hint);
            memcpy(&r->end_hint, out + sizeof bh, sizes[k]);
            r->hint_size = sizes[k];
            r->has_end_hint = 1;
            return;
        }
    }
}

/* ---- the stream ---- */

static size_t max_frame(void)
{
    return ZSTD_compressBound(BLOCK_CONTENT_MAX) + 64u;
}

/* Read more of the file after the unconsumed bytes [pos, len). */
static ms_read_status refill(ms_reader *r, int fd, size_t *pos, size_t *len, int *eof)
{
    if (*pos > 0) {
        memmove(r->in, r->in + *pos, *len - *pos);
        *len -= *pos;
        *pos = 0;
    }
    if (*len == r->in_cap) {
        size_t cap = r->in_cap ? r->in_cap * 2 : READ_BUF_MIN;
        if (cap > max_frame())
            cap = max_frame();
        uint8_t *in = realloc(r->in, cap);
        if (!in)
            return nomem(r);
        r->in = in;
        r->in_cap = cap;
    }
    for (;;) {
        ssize_t got = read(fd, r->in + *len, r->in_cap - *len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return fail(r, MS_READ_IO, r->frame_off, "read error at byte offset %" PRIu64 ": %s",
                        r->frame_off + (*len - *pos), strerror(errno));
        if (got == 0)
            *eof = 1;
        *len += (size_t)got;
        return MS_READ_OK;
    }
}

static ms_read_status read_stream(ms_reader *r, int fd)
{
    size_t pos = 0, len = 0;
    int eof = 0, state = STATE_START;
    r->frame_off = 0;
    for (;;) {
        size_t avail = len - pos;
        if (avail == 0 && eof)
            break;
        if (avail > 0 && state == STATE_ENDED)
            return fail(r, MS_READ_CORRUPT, r->frame_off,
                        "corrupt log: %" PRIu64 " bytes of trailing data after the end block, "
                        "from byte offset %" PRIu64,
                        r->file_size > r->frame_off ? r->file_size - r->frame_off : (uint64_t)avail,
                        r->frame_off);
        if (avail > 0) {
            const uint8_t *f = r->in + pos;
            unsigned long long content;
            ms_read_status st = check_frame_start(r, f, avail, state == STATE_START, &content);
            if (st != MS_READ_OK)
                return st;
            size_t fsz = ZSTD_findFrameCompressedSize(f, avail);
            if (!ZSTD_isError(fsz)) {
                st = decode_frame(r, f, fsz, &state);
                if (st != MS_READ_OK)
                    return st;
                r->res->frames++;
                pos += fsz;
                r->frame_off += fsz;
                continue;
            }
            if (ZSTD_getErrorCode(fsz) != ZSTD_error_srcSize_wrong) {
                char what[160];
                snprintf(what, sizeof what, "zstd: %s", ZSTD_getErrorName(fsz));
                return corrupt_at(r, what);
            }
            /* A file whose last frame is a valid end block is complete:
             * a frame that seems cut short there is a damaged one. */
            if (eof && r->has_end_hint)
                return corrupt_at(r, "damaged frame (its sizes run past the end of the file)");
            if (eof)
                return fail(r, MS_READ_TRUNCATED, r->frame_off,
                            "truncated: the frame at byte offset %" PRIu64 " is cut short (%zu of its bytes present)",
                            r->frame_off, avail);
            if (avail >= max_frame())
                return corrupt_at(r, "frame larger than the format allows");
        }
        ms_read_status st = refill(r, fd, &pos, &len, &eof);
        if (st != MS_READ_OK)
            return st;
    }
    if (state == STATE_START)
        return fail(r, MS_READ_TRUNCATED, 0, "truncated: empty file");
    if (state != STATE_ENDED)
        return fail(r, MS_READ_TRUNCATED, r->frame_off,
                    "truncated: no end block (file ends at byte offset %" PRIu64 " after %" PRIu64 " frames)",
                    r->frame_off, r->res->frames);
    return MS_READ_OK;
}

ms_read_status ms_reader_read(ms_reader *r, const char *path, const ms_read_callbacks *cb,
                              void *ctx, ms_read_result *res)
{
    reset(r);
    memset(res, 0, sizeof *res);
    r->path = path;
    r->cb = cb;
    r->ctx = ctx;
    r->res = res;
    r->frame_off = 0;

    /* O_NONBLOCK: a FIFO in place of a log must not hang the reader. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return fail(r, MS_READ_IO, 0, "cannot open: %s", strerror(errno));
    struct stat sb;
    ms_read_status st;
    if (fstat(fd, &sb) != 0) {
        st = fail(r, MS_READ_IO, 0, "cannot stat: %s", strerror(errno));
    } else if (!S_ISREG(sb.st_mode)) {
        st = fail(r, MS_READ_IO, 0, "not a regular file");
    } else {
        r->file_size = (uint64_t)sb.st_size;
        probe_end(r, fd, sb.st_size);
        st = read_stream(r, fd);
    }
    close(fd);
    res->threads = (uint32_t)r->nthreads;
    res->status = st;
    if (st == MS_READ_OK)
        res->message[0] = '\0';
    r->cb = NULL;
    r->ctx = NULL;
    r->res = NULL;
    return st;
}
