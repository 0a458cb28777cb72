/* Per-file results as bytes and back: see partial_pack.h. One pair of
 * functions per struct (put_X / get_X). put_X writes the struct's bytes with
 * its pointers cleared and its capacities set to its counts (equal contents,
 * equal bytes; scalar fields added later travel unchanged), then what its
 * pointers point to; get_X clears every pointer of the copy before it fills
 * them. The size assertions fail when a struct changes: carry new pointers. */
#include "partial_pack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_MAGIC 0x4b50534du   /* "MSPK" */
#define ENDIAN_MARK 0x01020304u
#define NO_STR UINT64_MAX

#if UINTPTR_MAX == UINT64_MAX && defined(__x86_64__)
#define SIZE_CHECK(T, n) _Static_assert(sizeof(T) == (n), #T " changed: carry its new fields in partial_pack.c")
SIZE_CHECK(ms_file_job, 1096);
SIZE_CHECK(ms_rank_info, 432);
SIZE_CHECK(ms_comm_fact, 136);
SIZE_CHECK(ms_read_result, 568);
SIZE_CHECK(ms_strlist, 24);
SIZE_CHECK(ms_p2p_chan, 56);
SIZE_CHECK(ms_counter_acc, 48);
SIZE_CHECK(ms_counter_acc_row, 560);
SIZE_CHECK(ms_counter_set, 24);
SIZE_CHECK(ms_region_rank, 152);
SIZE_CHECK(ms_stats, 128);
SIZE_CHECK(ms_sketch, 48);
SIZE_CHECK(ms_callsite, 88);
SIZE_CHECK(ms_wx_event, 24);
SIZE_CHECK(ms_wx_msg, 32);
SIZE_CHECK(ms_wx_coll, 32);
#endif

/* The layout signature: sizes of every struct that travels. */
static uint32_t layout_signature(void)
{
    const size_t sizes[] = {sizeof(ms_file_job),    sizeof(ms_rank_info),       sizeof(ms_read_result),
                            sizeof(ms_strlist),     sizeof(ms_p2p_chan),        sizeof(ms_counter_acc),
                            sizeof(ms_counter_acc_row), sizeof(ms_counter_set), sizeof(ms_region_rank),
                            sizeof(ms_stats),       sizeof(ms_sketch),          sizeof(ms_callsite),
                            sizeof(ms_wx_event),    sizeof(ms_wx_msg),          sizeof(ms_wx_coll),
                            sizeof(ms_comm_fact)};
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        h ^= (uint32_t)sizes[i];
        h *= 16777619u;
    }
    return h;
}

/* ---- writing ---- */

void ms_pbuf_free(ms_pbuf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

int ms_pbuf_put(ms_pbuf *b, const void *v, size_t n)
{
    if (b->nomem)
        return -1;
    if (n > b->cap - b->n) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->n < n) {
            if (cap > SIZE_MAX / 2) {
                b->nomem = 1;
                return -1;
            }
            cap *= 2;
        }
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->nomem = 1;
            return -1;
        }
        b->p = p;
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->n, v, n);
    b->n += n;
    return 0;
}

static void put_u64(ms_pbuf *b, uint64_t v)
{
    ms_pbuf_put(b, &v, sizeof v);
}

static void put_u32(ms_pbuf *b, uint32_t v)
{
    ms_pbuf_put(b, &v, sizeof v);
}

static void put_str(ms_pbuf *b, const char *s)
{
    if (!s) {
        put_u64(b, NO_STR);
        return;
    }
    size_t n = strlen(s);
    put_u64(b, n);
    ms_pbuf_put(b, s, n);
}

static void put_rank_info(ms_pbuf *b, const ms_rank_info *in)
{
    /* The bytes travel with the file job that holds them. */
    const char *strs[] = {in->file, in->host, in->mpi_library, in->argv0, in->run_dir, in->clock, in->run_id};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        put_str(b, strs[i]);
    size_t nio = ms_io_files_encode(&in->io_files, NULL), ncf = ms_comm_facts_encode(&in->comms, NULL);
    unsigned char *e = malloc(nio + ncf + 1);
    b->nomem |= !e || ms_pbuf_put(b, e, ms_io_files_encode(&in->io_files, e) +
                                            ms_comm_facts_encode(&in->comms, e + nio)) != 0;
    free(e);
    for (size_t i = 0; i < in->gpu.norigins; i++) {
        put_u64(b, in->gpu.origins[i].calls);
        put_u64(b, in->gpu.origins[i].gpu_ns);
        put_str(b, in->gpu.origins[i].region);
    }
}

static void put_strlist(ms_pbuf *b, const ms_strlist *l)
{
    put_u64(b, l->n);
    for (size_t i = 0; i < l->n; i++)
        put_str(b, l->v[i]);
}

static void put_counter_set(ms_pbuf *b, const ms_counter_set *s)
{
    ms_counter_set c = *s;
    c.group = NULL;
    c.names = NULL;
    if (!s->group)
        c.n = c.nevents = 0;  /* a set index not seen: no names */
    ms_pbuf_put(b, &c, sizeof c);
    put_str(b, s->group);
    if (s->group)
        for (uint32_t i = 0; i < s->n; i++)
            put_str(b, s->names[i]);
}

static void put_counter_acc(ms_pbuf *b, const ms_counter_acc *a)
{
    unsigned char present = a != NULL;
    ms_pbuf_put(b, &present, 1);
    if (!a)
        return;
    ms_counter_acc c = *a;
    c.sets = NULL;
    c.rows = NULL;
    c.cap = c.nrows;
    ms_pbuf_put(b, &c, sizeof c);
    for (size_t i = 0; i < a->nsets; i++)
        put_counter_set(b, &a->sets[i]);
    for (size_t i = 0; i < a->nrows; i++) {
        ms_counter_acc_row row = a->rows[i];
        row.name = NULL;
        ms_pbuf_put(b, &row, sizeof row);
        put_str(b, a->rows[i].name);
    }
}

/* The wait-state facts: a flag, the three arrays, the names and places. */
static void put_wait_facts(ms_pbuf *b, const ms_wait_facts *f)
{
    put_u32(b, f != NULL);
    if (!f)
        return;
    put_u64(b, f->messages_read);
    put_u32(b, f->has_records);
    put_u64(b, f->nev);
    ms_pbuf_put(b, f->ev, f->nev * sizeof *f->ev);
    put_u64(b, f->nmsg);
    ms_pbuf_put(b, f->msg, f->nmsg * sizeof *f->msg);
    put_u64(b, f->ncoll);
    ms_pbuf_put(b, f->coll, f->ncoll * sizeof *f->coll);
    put_u64(b, f->nnames);
    for (size_t i = 0; i < f->nnames; i++) {
        put_str(b, f->names[i]);
        put_str(b, f->places ? f->places[i] : NULL);
    }
}

static void put_file(ms_pbuf *b, const ms_file_job *j)
{
    ms_file_job c = *j;
    ms_rank_info *in = &c.info;
    c.path = NULL;
    c.base = NULL;
    in->file = in->host = in->mpi_library = in->argv0 = in->run_dir = in->clock = in->run_id = NULL;
    in->gpu.origins = NULL;
    in->io_files.v = NULL;
    in->comms.v = NULL;
    c.warnings.v = NULL;
    c.warnings.cap = c.warnings.n;
    c.chans = NULL;
    c.chans_cap = c.nchans;
    c.counters = NULL;
    c.waits = NULL;
    ms_pbuf_put(b, &c, sizeof c);
    put_str(b, j->path);
    put_u64(b, j->path && j->base ? (uint64_t)(j->base - j->path) : NO_STR);
    put_rank_info(b, &j->info);
    put_strlist(b, &j->warnings);
    ms_pbuf_put(b, j->chans, j->nchans * sizeof *j->chans);
    put_counter_acc(b, j->counters);
    put_wait_facts(b, j->waits);
}

static void put_stats(ms_pbuf *b, const ms_stats *s)
{
    /* The bytes travel with the part that holds them. */
    ms_pbuf_put(b, s->sketch.counts, s->sketch.len > 0 ? (size_t)s->sketch.len * sizeof *s->sketch.counts : 0);
}

static void put_part(ms_pbuf *b, const ms_region_rank *r)
{
    ms_region_rank c = *r;
    c.stats.sketch.counts = NULL;
    ms_pbuf_put(b, &c, sizeof c);
    put_stats(b, &r->stats);
}

static void put_table(ms_pbuf *b, const ms_region_table *t)
{
    size_t n = ms_strtab_count(&t->names);
    put_u64(b, n);
    for (size_t r = 0; r < n; r++) {
        put_str(b, ms_strtab_str(&t->names, (uint32_t)r));
        put_u64(b, t->regs[r].n);
        for (size_t k = 0; k < t->regs[r].n; k++)
            put_part(b, &t->regs[r].parts[k]);
    }
}

static void put_site(ms_pbuf *b, const ms_callsite *c)
{
    ms_callsite z = *c;
    z.region = z.function = z.file = z.text = z.location = z.object = NULL;
    ms_pbuf_put(b, &z, sizeof z);
    put_str(b, c->region);
    put_str(b, c->function);
    put_str(b, c->file);
    put_str(b, c->text);
    put_str(b, c->location);
    put_str(b, c->object);
}

static void put_header(ms_pbuf *b, uint32_t flags, uint64_t nfiles)
{
    put_u32(b, CHUNK_MAGIC);
    put_u32(b, layout_signature());
    put_u32(b, flags);
    put_u32(b, ENDIAN_MARK);
    put_u64(b, 0); /* chunk bytes, set at the end */
    put_u64(b, nfiles);
}

static void set_chunk_bytes(ms_pbuf *b, size_t start)
{
    uint64_t n = b->n - start;
    memcpy(b->p + start + 16, &n, sizeof n);
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
    put_u64(b, nmine);
    for (size_t i = 0; i < nlisted; i++) {
        if (!p->files[i].read || (mine && !mine[i]))
            continue;
        put_u64(b, i);
        put_file(b, &p->files[i]);
    }
    put_u64(b, p->ntabs);
    for (size_t i = 0; i < p->ntabs; i++)
        put_table(b, &p->tabs[i]);
    put_u64(b, p->nsites);
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
    put_u64(b, 0);
    put_u64(b, 0);
    put_u64(b, 0);
    if (!b->nomem)
        set_chunk_bytes(b, start);
    else
        b->n = start;
    return -1;
}

/* ---- reading ---- */

typedef struct rd {
    const unsigned char *p;
    size_t n, off;
    int bad;      /* the bytes do not add up */
    int nomem;
} rd;

static int get(rd *r, void *v, size_t n)
{
    if (r->bad || r->nomem || n > r->n - r->off) {
        r->bad |= !r->nomem;
        if (n)
            memset(v, 0, n);
        return -1;
    }
    if (n)
        memcpy(v, r->p + r->off, n);
    r->off += n;
    return 0;
}

static uint64_t get_u64(rd *r)
{
    uint64_t v = 0;
    get(r, &v, sizeof v);
    return v;
}

static uint32_t get_u32(rd *r)
{
    uint32_t v = 0;
    get(r, &v, sizeof v);
    return v;
}

/* A count of items of `size` bytes each that the rest can hold. */
static size_t get_count(rd *r, size_t size)
{
    uint64_t n = get_u64(r);
    if (r->bad || r->nomem)
        return 0;
    if (size == 0)
        size = 1;
    if (n > (r->n - r->off) / size) {
        r->bad = 1;
        return 0;
    }
    return (size_t)n;
}

static char *get_str(rd *r)
{
    uint64_t n = get_u64(r);
    if (n == NO_STR || r->bad || r->nomem)
        return NULL;
    if (n > r->n - r->off) {
        r->bad = 1;
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->nomem = 1;
        return NULL;
    }
    memcpy(s, r->p + r->off, (size_t)n);
    s[n] = 0;
    r->off += (size_t)n;
    if (strlen(s) != n)
        r->bad = 1;  /* a NUL inside: not a string this side wrote */
    return s;
}

/* A string that may not be NULL. */
static char *get_str_nn(rd *r)
{
    char *s = get_str(r);
    if (!s && !r->nomem)
        r->bad = 1;
    return s;
}

/* An array of n items of `size` bytes. */
static void *get_array(rd *r, size_t n, size_t size)
{
    if (n > (r->n - r->off) / (size ? size : 1)) {
        r->bad = 1;
        return NULL;
    }
    void *v = malloc(n ? n * size : 1);
    if (!v) {
        r->nomem = 1;
        return NULL;
    }
    get(r, v, n * size);
    return v;
}

/* in: its bytes already copied, its pointers cleared; its strings, its
 * nfiles files of MPI-IO, ncomms communicators and norigins GPU origins
 * follow. */
static void get_rank_info(rd *r, ms_rank_info *in, size_t norigins, size_t nfiles, size_t ncomms)
{
    char **strs[] = {&in->file, &in->host, &in->mpi_library, &in->argv0, &in->run_dir, &in->clock, &in->run_id};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        *strs[i] = get_str(r);
    int rc = r->bad || r->nomem ? 0 : ms_io_files_decode(&in->io_files, nfiles, r->p, r->n, &r->off);
    r->nomem |= rc == -1, r->bad |= rc == -2;
    rc = r->bad || r->nomem ? 0 : ms_comm_facts_decode(&in->comms, ncomms, r->p, r->n, &r->off);
    r->nomem |= rc == -1, r->bad |= rc == -2;
    if (r->bad || r->nomem || norigins == 0)
        return;
    if (norigins > (r->n - r->off) / (3 * sizeof(uint64_t))) {
        r->bad = 1;
        return;
    }
    in->gpu.origins = calloc(norigins, sizeof *in->gpu.origins);
    if (!in->gpu.origins) {
        r->nomem = 1;
        return;
    }
    for (size_t i = 0; i < norigins && !r->bad && !r->nomem; i++) {
        ms_gpu_origin *o = &in->gpu.origins[i];
        o->calls = get_u64(r);
        o->gpu_ns = get_u64(r);
        o->region = get_str_nn(r);
        if (o->region)
            in->gpu.norigins = i + 1;
    }
}

static void get_strlist(rd *r, ms_strlist *l)
{
    memset(l, 0, sizeof *l);
    size_t n = get_count(r, sizeof(uint64_t));
    if (!n)
        return;
    l->v = calloc(n, sizeof *l->v);
    if (!l->v) {
        r->nomem = 1;
        return;
    }
    l->cap = n;
    for (size_t i = 0; i < n && !r->bad && !r->nomem; i++) {
        l->v[i] = get_str_nn(r);
        if (l->v[i])
            l->n++;
    }
}

static void get_counter_set(rd *r, ms_counter_set *s)
{
    get(r, s, sizeof *s);
    s->group = NULL;
    s->names = NULL;
    s->group = get_str(r);
    if (!s->group) {
        s->n = s->nevents = 0;
        return;
    }
    if (s->n > MS_MAX_COUNTER_VALUES || s->nevents > s->n) {
        r->bad = 1;
        s->n = 0;
        return;
    }
    uint32_t n = s->n;
    s->n = 0;
    s->names = calloc(n ? n : 1, sizeof *s->names);
    if (!s->names) {
        r->nomem = 1;
        return;
    }
    for (uint32_t i = 0; i < n && !r->bad && !r->nomem; i++) {
        s->names[i] = get_str_nn(r);
        if (s->names[i])
            s->n++;
    }
    if (s->n != n)
        s->nevents = s->nevents > s->n ? s->n : s->nevents;
}

static ms_counter_acc *get_counter_acc(rd *r)
{
    unsigned char present = 0;
    get(r, &present, 1);
    if (!present)
        return NULL;
    ms_counter_acc *a = calloc(1, sizeof *a);
    if (!a) {
        r->nomem = 1;
        return NULL;
    }
    get(r, a, sizeof *a);
    size_t nsets = a->nsets, nrows = a->nrows;
    a->sets = NULL;
    a->rows = NULL;
    a->nsets = a->nrows = a->cap = 0;
    if (r->bad || nsets > r->n - r->off || nrows > (r->n - r->off) / sizeof *a->rows) {
        r->bad = 1;
        return a;
    }
    a->sets = calloc(nsets ? nsets : 1, sizeof *a->sets);
    a->rows = calloc(nrows ? nrows : 1, sizeof *a->rows);
    if (!a->sets || !a->rows) {
        r->nomem = 1;
        return a;
    }
    for (size_t i = 0; i < nsets && !r->bad && !r->nomem; i++) {
        get_counter_set(r, &a->sets[i]);
        a->nsets++;
    }
    for (size_t i = 0; i < nrows && !r->bad && !r->nomem; i++) {
        get(r, &a->rows[i], sizeof a->rows[i]);
        a->rows[i].name = NULL;
        a->nrows++;
        a->rows[i].name = get_str(r);
    }
    a->cap = nrows;
    return a;
}

/* The wait-state facts as put_wait_facts wrote them; NULL for none (or
 * r->bad, r->nomem). Region indices are checked against the names. */
static ms_wait_facts *get_wait_facts(rd *r)
{
    if (!get_u32(r) || r->bad)
        return NULL;
    ms_wait_facts *f = calloc(1, sizeof *f);
    if (!f) {
        r->nomem = 1;
        return NULL;
    }
    f->messages_read = get_u64(r);
    f->has_records = get_u32(r) != 0;
    f->nev = f->ev_cap = get_count(r, sizeof *f->ev);
    f->ev = get_array(r, f->nev, sizeof *f->ev);
    f->nmsg = f->msg_cap = get_count(r, sizeof *f->msg);
    if (!r->bad && !r->nomem)
        f->msg = get_array(r, f->nmsg, sizeof *f->msg);
    f->ncoll = f->coll_cap = get_count(r, sizeof *f->coll);
    if (!r->bad && !r->nomem)
        f->coll = get_array(r, f->ncoll, sizeof *f->coll);
    size_t nnames = get_count(r, sizeof(uint64_t));
    if (!r->bad && !r->nomem && (!(f->names = calloc(nnames + 1, sizeof *f->names)) ||
                                 !(f->places = calloc(nnames + 1, sizeof *f->places))))
        r->nomem = 1;
    for (size_t i = 0; f->names && f->places && i < nnames && !r->bad && !r->nomem; i++) {
        f->names[i] = get_str_nn(r);
        f->nnames = f->names_cap = i + 1;
        f->places[i] = get_str(r);
    }
    for (size_t i = 0; !r->bad && !r->nomem && i < f->nev; i++)
        r->bad |= f->ev[i].region >= f->nnames;
    for (size_t i = 0; !r->bad && !r->nomem && i < f->nmsg; i++)
        r->bad |= f->msg[i].ev != MS_WX_NONE && f->msg[i].ev >= f->nev;
    for (size_t i = 0; !r->bad && !r->nomem && i < f->ncoll; i++)
        r->bad |= f->coll[i].ev != MS_WX_NONE && f->coll[i].ev >= f->nev;
    if (r->bad || r->nomem) {
        f->nev = f->ev ? f->nev : 0;
        f->nmsg = f->msg ? f->nmsg : 0;
        f->ncoll = f->coll ? f->ncoll : 0;
        ms_wait_facts_free(f);
        free(f);
        return NULL;
    }
    return f;
}

/* A file, as put_file wrote it, into j (nothing to free). */
static void get_file_all(rd *r, ms_file_job *j)
{
    get(r, j, sizeof *j);
    size_t nchans = j->nchans;
    j->path = NULL;
    j->base = NULL;
    j->info.file = j->info.host = j->info.mpi_library = j->info.argv0 = NULL;
    j->info.run_dir = j->info.clock = j->info.run_id = NULL;
    size_t norigins = j->info.gpu.norigins;
    j->info.gpu.origins = NULL;
    j->info.gpu.norigins = 0;
    size_t nfiles = j->info.io_files.n, ncomms = j->info.comms.n;
    j->info.io_files = (ms_io_files){0};
    j->info.comms = (ms_comm_facts){0};
    memset(&j->warnings, 0, sizeof j->warnings);
    j->chans = NULL;
    j->nchans = j->chans_cap = 0;
    j->counters = NULL;
    j->waits = NULL;
    if (r->bad)
        return;
    j->path = get_str_nn(r);
    uint64_t base = get_u64(r);
    if (j->path && base != NO_STR) {
        if (base > strlen(j->path))
            r->bad = 1;
        else
            j->base = j->path + base;
    }
    get_rank_info(r, &j->info, norigins, nfiles, ncomms);
    get_strlist(r, &j->warnings);
    if (r->bad || r->nomem)
        return;
    j->chans = get_array(r, nchans, sizeof *j->chans);
    if (j->chans)
        j->nchans = j->chans_cap = nchans;
    if (!r->bad && !r->nomem)
        j->counters = get_counter_acc(r);
    if (!r->bad && !r->nomem)
        j->waits = get_wait_facts(r);
}

static void free_file(ms_file_job *j)
{
    free(j->path);
    ms_rank_info_free(&j->info);
    for (size_t i = 0; i < j->warnings.n; i++)
        free(j->warnings.v[i]);
    free(j->warnings.v);
    free(j->chans);
    ms_counter_acc_free(j->counters);
    ms_wait_facts_free(j->waits);
    free(j->waits);
    memset(j, 0, sizeof *j);
}

/* A part; 0, or -1 (r->bad or r->nomem; nothing to free). */
static int get_part(rd *r, ms_region_rank *part)
{
    if (get(r, part, sizeof *part) != 0)
        return -1;
    ms_sketch *s = &part->stats.sketch;
    s->counts = NULL;
    int32_t len = s->len;
    if (len < 0 || len > MS_SKETCH_MAX_INDEX + 1) {
        r->bad = 1;
        return -1;
    }
    s->len = 0;
    if (len > 0) {
        s->counts = get_array(r, (size_t)len, sizeof *s->counts);
        if (!s->counts)
            return -1;
        if (r->bad) {
            free(s->counts);
            s->counts = NULL;
            return -1;
        }
        s->len = len;
    }
    return 0;
}

static void get_table(rd *r, ms_region_table *t)
{
    size_t n = get_count(r, 2 * sizeof(uint64_t));
    for (size_t i = 0; i < n && !r->bad && !r->nomem; i++) {
        char *name = get_str_nn(r);
        size_t nparts = get_count(r, sizeof(ms_region_rank));
        for (size_t k = 0; k < nparts && name && !r->bad && !r->nomem; k++) {
            ms_region_rank part;
            if (get_part(r, &part) != 0)
                break;
            if (ms_region_table_add(t, name, strlen(name), &part) != 0) {
                ms_stats_free(&part.stats);
                r->nomem = 1;
            }
        }
        free(name);
    }
}

static void get_site(rd *r, ms_callsite *c)
{
    get(r, c, sizeof *c);
    c->region = c->function = c->file = c->text = c->location = c->object = NULL;
    c->region = get_str_nn(r);
    c->function = get_str_nn(r);
    c->file = get_str_nn(r);
    c->text = get_str_nn(r);
    c->location = get_str_nn(r);
    c->object = get_str_nn(r);
}

static int add_sites(ms_partial *p, rd *r, size_t n)
{
    if (n == 0)
        return 0;
    if (p->nsites + n > p->sites_cap) {
        ms_callsite *v = realloc(p->sites, (p->nsites + n) * sizeof *v);
        if (!v) {
            r->nomem = 1;
            return -1;
        }
        p->sites = v;
        p->sites_cap = p->nsites + n;
    }
    for (size_t i = 0; i < n && !r->bad && !r->nomem; i++) {
        ms_callsite *c = &p->sites[p->nsites];
        get_site(r, c);
        p->nsites++;  /* (freed with p, whatever arrived) */
    }
    return r->bad || r->nomem ? -1 : 0;
}

static int unpack_chunk(ms_partial *p, rd *r, uint32_t *flags, char *err, size_t errlen)
{
    size_t start = r->off;
    uint32_t magic = get_u32(r), sig = get_u32(r), fl = get_u32(r), endian = get_u32(r);
    uint64_t bytes = get_u64(r), nfiles = get_u64(r);
    if (r->bad || magic != CHUNK_MAGIC) {
        snprintf(err, errlen, "not a chunk of per-file results at byte %zu", start);
        return -2;
    }
    if (endian != ENDIAN_MARK || sig != layout_signature()) {
        snprintf(err, errlen, "a chunk of per-file results from another build or byte order");
        return -2;
    }
    if (bytes < 32 || bytes > r->n - start) {
        snprintf(err, errlen, "a chunk of per-file results is cut short (%llu bytes announced, %zu there)",
                 (unsigned long long)bytes, r->n - start);
        return -2;
    }
    if (nfiles != p->nfiles) {
        snprintf(err, errlen, "a chunk of per-file results for %llu files, the directory has %zu",
                 (unsigned long long)nfiles, p->nfiles);
        return -2;
    }
    *flags |= fl;
    rd c = {.p = r->p, .n = start + (size_t)bytes, .off = r->off};
    size_t nf = get_count(&c, sizeof(uint64_t) + sizeof(ms_file_job));
    for (size_t i = 0; i < nf && !c.bad && !c.nomem; i++) {
        uint64_t idx = get_u64(&c);
        if (c.bad || idx >= p->nfiles || p->files[idx].read) {
            snprintf(err, errlen, "a chunk of per-file results holds file %llu %s", (unsigned long long)idx,
                     idx >= p->nfiles ? "beyond the list" : "a second time");
            return -2;
        }
        ms_file_job j;
        memset(&j, 0, sizeof j);
        get_file_all(&c, &j);
        if (c.bad || c.nomem || !j.read) {
            c.bad |= !c.nomem && !j.read;
            free_file(&j);
            break;
        }
        free_file(&p->files[idx]);
        p->files[idx] = j;
    }
    size_t ntabs = get_count(&c, sizeof(uint64_t));
    for (size_t i = 0; i < ntabs && !c.bad && !c.nomem; i++) {
        ms_region_table *t = ms_partial_add_table(p);
        if (!t) {
            c.nomem = 1;
            break;
        }
        get_table(&c, t);
    }
    size_t nsites = get_count(&c, sizeof(ms_callsite));
    if (!c.bad && !c.nomem)
        add_sites(p, &c, nsites);
    if (c.nomem)
        return -1;
    if (c.bad || c.off != c.n) {
        snprintf(err, errlen, "a chunk of per-file results does not add up (at byte %zu of %llu)", c.off - start,
                 (unsigned long long)bytes);
        return -2;
    }
    r->off = c.n;
    return 0;
}

int ms_partial_unpack(ms_partial *p, const void *buf, size_t n, uint32_t *flags, char *err, size_t errlen)
{
    rd r = {.p = buf, .n = n, .off = 0};
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
