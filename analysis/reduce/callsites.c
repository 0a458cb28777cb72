/* Call sites in the merge: see callsites.h. */
#include "callsites.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ms_site_acc_init(ms_site_acc *a)
{
    memset(a, 0, sizeof *a);
    ms_idmap_init(&a->index);
    a->last = MS_IDMAP_NONE;
    for (uint32_t i = 0; i < MS_SITE_HITS; i++)
        a->hit[i] = MS_IDMAP_NONE;
}

void ms_site_acc_free(ms_site_acc *a)
{
    ms_idmap_free(&a->index);
    free(a->e);
    ms_site_acc_init(a);
}

int ms_site_acc_add_slow(ms_site_acc *a, uint64_t key, uint32_t region, uint32_t site, uint64_t ns)
{
    uint32_t i = ms_idmap_get(&a->index, key);
    if (i == MS_IDMAP_NONE) {
        if (a->n == a->cap) {
            size_t cap = a->cap ? a->cap * 2 : 64;
            ms_site_sum *e = realloc(a->e, cap * sizeof *e);
            if (!e)
                return -1;
            a->e = e;
            a->cap = cap;
        }
        i = (uint32_t)a->n;
        if (ms_idmap_put(&a->index, key, i) != 0)
            return -1;
        a->e[a->n++] = (ms_site_sum){.region = region, .site = site};
    }
    a->e[i].calls++;
    a->e[i].total_ns += ns;
    uint32_t h = ms_site_hit_slot(key);
    a->hit_key[h] = key;
    a->hit[h] = i;
    a->last_key = key;
    a->last = i;
    return 0;
}

int ms_site_acc_add_calls(ms_site_acc *a, uint32_t region, uint32_t site, uint64_t calls, uint64_t total_ns)
{
    if (calls == 0 || ms_site_acc_add(a, region, site, total_ns) != 0)
        return -1;
    a->e[a->last].calls += calls - 1;
    return 0;
}

void ms_callsite_free(ms_callsite *c)
{
    free(c->region);
    free(c->function);
    free(c->file);
    free(c->text);
    free(c->location);
    free(c->object);
}

/* ---- finding an address's object ---- */

typedef struct obj_ref {
    uint64_t lo, hi;
    uint32_t index;        /* into the reader's objects */
    int sym;               /* symbolizer object, -1 until registered */
} obj_ref;

static int obj_cmp(const void *a, const void *b)
{
    const obj_ref *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The object holding pc: the last one starting at or below it that spans it. */
static obj_ref *find_object(obj_ref *o, size_t n, uint64_t pc)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i-- > 0;) {
        if (pc < o[i].hi)
            return &o[i];
        if (lo - i > 8)
            break;   /* overlapping ranges are rare; do not scan them all */
    }
    return NULL;
}

static char *dup0(const char *s)
{
    return strdup(s ? s : "");
}

/* One row from a symbolized (or unknown) address. */
static int fill_row(ms_callsite *c, const ms_sym_result *r, uint64_t pc)
{
    char loc[1024];
    if (r)
        ms_sym_format(r, loc, sizeof loc);
    else
        snprintf(loc, sizeof loc, "0x%" PRIx64, pc);
    /* Without line information, the function carries its offset and the
     * file names the object and the offset in it. */
    char fn[1024], where[1024];
    const char *function = r ? r->function : NULL, *file = r ? r->file : NULL;
    if (function && !file) {
        snprintf(fn, sizeof fn, "%s+0x%" PRIx64, function, r->function_offset);
        function = fn;
    }
    if (!file) {
        if (r && r->object)
            snprintf(where, sizeof where, "%s+0x%" PRIx64, r->object, r->offset);
        else
            snprintf(where, sizeof where, "0x%" PRIx64, pc);
        file = where;
    }
    c->function = dup0(function);
    c->file = dup0(file);
    c->line = r ? r->line : 0;
    c->text = dup0(r ? r->source_text : NULL);
    c->location = dup0(loc);
    c->object = dup0(r ? r->object : NULL);
    c->object_changed = r && r->build_id_mismatch;
    c->object_missing = r && r->object_missing;
    return c->function && c->file && c->text && c->location && c->object ? 0 : -1;
}

static int row_cmp(const void *a, const void *b)
{
    const ms_callsite *x = a, *y = b;
    int c = strcmp(x->region, y->region);
    if (c)
        return c;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->total_ns != y->total_ns)
        return x->total_ns > y->total_ns ? -1 : 1;
    return strcmp(x->location, y->location);
}

void ms_callsites_sort(ms_callsite *rows, size_t n)
{
    if (n > 1)
        qsort(rows, n, sizeof *rows, row_cmp);
}

static int place_cmp(const void *a, const void *b)
{
    const ms_callsite *x = a, *y = b;
    int c = strcmp(x->region, y->region);
    return c ? c : strcmp(x->location, y->location);
}

int ms_site_acc_resolve(const ms_site_acc *a, const ms_reader *rd, int32_t rank, ms_symbolizer *sym,
                        ms_callsite **rows, size_t *nrows, size_t *cap, char **loc)
{
    if (a->n == 0)
        return 0;
    const ms_site_table *st = ms_reader_sites(rd);
    obj_ref *objs = calloc(st->nobjects ? st->nobjects : 1, sizeof *objs);
    ms_callsite *tmp = calloc(a->n, sizeof *tmp);
    if (!objs || !tmp) {
        free(objs);
        free(tmp);
        return -1;
    }
    for (uint32_t i = 0; i < st->nobjects; i++)
        objs[i] = (obj_ref){st->objects[i].lo, st->objects[i].hi, i, -1};
    qsort(objs, st->nobjects, sizeof *objs, obj_cmp);

    int rc = 0;
    size_t n = 0;
    for (size_t i = 0; i < a->n && rc == 0; i++) {
        const ms_site_sum *s = &a->e[i];
        if (s->site == MS_SITE_NONE || s->site >= st->nsites)
            continue;
        const uint64_t *pc;
        ms_sites_get(st, s->site, &pc);
        size_t len;
        const char *name = ms_reader_region_name(rd, s->region, &len);
        ms_callsite *c = &tmp[n++];
        c->rank = rank;
        c->calls = s->calls;
        c->total_ns = s->total_ns;
        c->region = name ? strndup(name, len) : NULL;
        obj_ref *o = sym ? find_object(objs, st->nobjects, pc[0]) : NULL;
        if (o && o->sym < 0) {
            const ms_object *ob = &st->objects[o->index];
            o->sym = ms_sym_add_object(sym, ob->path, ob->build_id, ob->build_id_len, ob->base);
        }
        ms_sym_result r;
        int found = o && o->sym >= 0 && ms_sym_lookup(sym, o->sym, pc[0], &r) == 0;
        if (!c->region || fill_row(c, found ? &r : NULL, pc[0]) != 0)
            rc = -1;
        else if (loc && !(loc[i] = strdup(c->location)))
            rc = -1;
    }
    /* Two addresses of one region on the same line are one call site. */
    if (rc == 0 && n > 1)
        qsort(tmp, n, sizeof *tmp, place_cmp);
    for (size_t i = 0; i < n; i++) {
        ms_callsite *c = &tmp[i];
        if (rc == 0 && *nrows > 0 && i > 0 && place_cmp(&(*rows)[*nrows - 1], c) == 0 &&
            (*rows)[*nrows - 1].rank == rank) {
            (*rows)[*nrows - 1].calls += c->calls;
            (*rows)[*nrows - 1].total_ns += c->total_ns;
            ms_callsite_free(c);
            continue;
        }
        if (rc == 0 && *nrows == *cap) {
            size_t nc = *cap ? *cap * 2 : 64;
            ms_callsite *p = realloc(*rows, nc * sizeof *p);
            if (!p)
                rc = -1;
            else
                *rows = p, *cap = nc;
        }
        if (rc != 0) {
            ms_callsite_free(c);
            continue;
        }
        (*rows)[(*nrows)++] = *c;
    }
    free(tmp);
    free(objs);
    return rc;
}

static int ptr_place_cmp(const void *a, const void *b)
{
    return place_cmp(*(const ms_callsite *const *)a, *(const ms_callsite *const *)b);
}

static int place_total_cmp(const void *a, const void *b)
{
    const ms_site_place *x = a, *y = b;
    int c = strcmp(x->row->region, y->row->region);
    if (c)
        return c;
    if (x->total_ns != y->total_ns)
        return x->total_ns > y->total_ns ? -1 : 1;
    return strcmp(x->row->location, y->row->location);
}

int ms_site_places(const ms_callsite *rows, size_t n, ms_site_place **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    if (n == 0)
        return 0;
    const ms_callsite **v = malloc(n * sizeof *v);
    ms_site_place *p = malloc(n * sizeof *p);
    if (!v || !p) {
        free(v);
        free(p);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = &rows[i];
    qsort(v, n, sizeof *v, ptr_place_cmp);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m > 0 && place_cmp(p[m - 1].row, v[i]) == 0) {
            p[m - 1].ranks++;
            p[m - 1].calls += v[i]->calls;
            p[m - 1].total_ns += v[i]->total_ns;
            continue;
        }
        p[m++] = (ms_site_place){.row = v[i], .ranks = 1, .calls = v[i]->calls, .total_ns = v[i]->total_ns};
    }
    free(v);
    qsort(p, m, sizeof *p, place_total_cmp);
    *out = p;
    *nout = m;
    return 0;
}

size_t ms_site_places_of(const ms_site_place *places, size_t n, const char *region, size_t *first)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(places[mid].row->region, region) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t k = lo;
    while (k < n && strcmp(places[k].row->region, region) == 0)
        k++;
    *first = lo;
    return k - lo;
}

const ms_site_place *ms_site_place_find(const ms_site_place *places, size_t n, const char *region,
                                        const char *location)
{
    size_t first, k = ms_site_places_of(places, n, region, &first);
    for (size_t i = first; location && i < first + k; i++)
        if (strcmp(places[i].row->location, location) == 0)
            return &places[i];
    return NULL;
}

const ms_callsite *ms_callsite_top(const ms_callsite *rows, size_t n, const char *region, int32_t rank)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        int k = strcmp(rows[m].region, region);
        if (k < 0 || (k == 0 && rows[m].rank < rank))
            lo = m + 1;
        else
            hi = m;
    }
    return lo < n && strcmp(rows[lo].region, region) == 0 && rows[lo].rank == rank ? &rows[lo] : NULL;
}

/* Where address pc is, by the load map of the file rd read; exact: a
 * faulting instruction (else a return address). */
static char *locate_pc(const ms_reader *rd, ms_symbolizer *sym, uint64_t pc, int exact)
{
    const ms_site_table *st = ms_reader_sites(rd);
    const ms_object *ob = NULL;
    for (uint32_t i = 0; sym && i < st->nobjects; i++)
        if (st->objects[i].lo <= pc && pc < st->objects[i].hi && (!ob || st->objects[i].lo >= ob->lo))
            ob = &st->objects[i];
    int o = ob ? ms_sym_add_object(sym, ob->path, ob->build_id, ob->build_id_len, ob->base) : -1;
    ms_sym_result r;
    char loc[1024];
    if (o >= 0 && (exact ? ms_sym_lookup_pc(sym, o, pc, &r) : ms_sym_lookup(sym, o, pc, &r)) == 0)
        ms_sym_format(&r, loc, sizeof loc);
    else
        snprintf(loc, sizeof loc, "0x%" PRIx64, pc);
    return strdup(loc);
}

char *ms_site_locate(const ms_reader *rd, ms_symbolizer *sym, uint32_t site)
{
    const ms_site_table *st = ms_reader_sites(rd);
    if (site == MS_SITE_NONE || site >= st->nsites)
        return NULL;
    const uint64_t *pc;
    ms_sites_get(st, site, &pc);
    return locate_pc(rd, sym, pc[0], 0);
}

char *ms_pc_locate(const ms_reader *rd, ms_symbolizer *sym, uint64_t pc, int exact)
{
    return locate_pc(rd, sym, pc, exact);
}
