/* Call-site symbolization: see symbolize.h. The object files are read by
 * symbolize_file.h's reader (with or without elfutils). */
#include "symbolize.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../read/idmap.h"
#include "../read/strtab.h"
#include "symbolize_demangle.h"
#include "symbolize_file.h"
#include "symbolize_source.h"

enum image_state { IMG_UNOPENED, IMG_OPEN, IMG_MISSING, IMG_MISMATCH };

/* One distinct (path, build-id): the file, opened once for all the bases
 * it was loaded at, and its results by address relative to the base. */
typedef struct image {
    const char *path;            /* interned */
    const char *name;            /* interned: the path's last component */
    uint8_t build_id[MS_SYM_BUILD_ID_MAX];
    size_t build_id_len;
    enum image_state state;
    ms_symfile *file;            /* when IMG_OPEN */
    ms_idmap cache;              /* (offset << 1 | exact) -> results index */
} image;

typedef struct object {
    uint32_t image;
    uint64_t base;
} object;

/* The part of a result that depends only on (image, offset). */
typedef struct cached {
    const char *function, *file, *text;
    uint64_t function_offset;
    int line, column;
    bool has_debug_info, has_symbol, outside;
} cached;

struct ms_symbolizer {
    pthread_mutex_t lock;
    ms_strtab strings;           /* every string handed out */
    ms_strtab image_keys;        /* "path\n<build-id hex>" -> image index */
    image *images;
    size_t images_cap;
    object *objects;
    size_t nobjects, objects_cap;
    cached *results;
    size_t nresults, results_cap;
    ms_srccache *sources;
};

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *p = realloc(*arr, n * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = n;
    return 0;
}

/* The interned copy of s[0..len), or NULL when out of memory. */
static const char *intern(ms_symbolizer *s, const char *str, size_t len)
{
    uint32_t idx;
    if (ms_strtab_intern(&s->strings, str, len, &idx, NULL) != 0)
        return NULL;
    return ms_strtab_str(&s->strings, idx);
}

ms_symbolizer *ms_sym_new(void)
{
    ms_symbolizer *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->sources = ms_srccache_new();
    if (!s->sources || pthread_mutex_init(&s->lock, NULL) != 0) {
        ms_srccache_free(s->sources);
        free(s);
        return NULL;
    }
    ms_strtab_init(&s->strings);
    ms_strtab_init(&s->image_keys);
    return s;
}

void ms_sym_free(ms_symbolizer *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < ms_strtab_count(&s->image_keys); i++) {
        ms_symfile_close(s->images[i].file);
        ms_idmap_free(&s->images[i].cache);
    }
    free(s->images);
    free(s->objects);
    free(s->results);
    ms_srccache_free(s->sources);
    ms_strtab_free(&s->image_keys);
    ms_strtab_free(&s->strings);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static int add_image(ms_symbolizer *s, const char *path, const uint8_t *build_id,
                     size_t build_id_len, uint32_t *out)
{
    size_t plen = strlen(path);
    char *key = malloc(plen + 1 + 2 * build_id_len + 1);
    if (!key)
        return -1;
    memcpy(key, path, plen);
    key[plen] = '\n';
    for (size_t i = 0; i < build_id_len; i++)
        snprintf(key + plen + 1 + 2 * i, 3, "%02x", build_id[i]);
    size_t klen = plen + 1 + 2 * build_id_len;
    /* Room first, so every interned key has its image. */
    if (grow((void **)&s->images, &s->images_cap, ms_strtab_count(&s->image_keys) + 1,
             sizeof *s->images) != 0) {
        free(key);
        return -1;
    }
    int is_new = 0;
    int rc = ms_strtab_intern(&s->image_keys, key, klen, out, &is_new);
    free(key);
    if (rc != 0)
        return -1;
    if (!is_new)
        return 0;
    image *im = &s->images[*out];
    memset(im, 0, sizeof *im);
    const char *slash = strrchr(path, '/');
    im->path = intern(s, path, plen);
    im->name = slash ? intern(s, slash + 1, strlen(slash + 1)) : im->path;
    if (build_id_len)
        memcpy(im->build_id, build_id, build_id_len);
    im->build_id_len = build_id_len;
    ms_idmap_init(&im->cache);
    if (!im->path || !im->name)
        im->state = IMG_MISSING;
    return 0;
}

int ms_sym_add_object(ms_symbolizer *s, const char *path, const uint8_t *build_id,
                      size_t build_id_len, uint64_t base)
{
    if (!s || !path || build_id_len > MS_SYM_BUILD_ID_MAX || (build_id_len && !build_id))
        return -1;
    pthread_mutex_lock(&s->lock);
    int ret = -1;
    uint32_t im;
    if (s->nobjects < INT32_MAX && add_image(s, path, build_id, build_id_len, &im) == 0 &&
        grow((void **)&s->objects, &s->objects_cap, s->nobjects + 1, sizeof *s->objects) == 0) {
        s->objects[s->nobjects] = (object){.image = im, .base = base};
        ret = (int)s->nobjects++;
    }
    pthread_mutex_unlock(&s->lock);
    return ret;
}

static void open_image(image *im)
{
    enum ms_symfile_state st;
    im->file = ms_symfile_open(im->path, im->name, im->build_id, im->build_id_len, &st);
    im->state = st == MS_SYMFILE_OPEN ? IMG_OPEN : st == MS_SYMFILE_MISMATCH ? IMG_MISMATCH : IMG_MISSING;
}

static const char *intern_function(ms_symbolizer *s, const char *raw, bool fortran)
{
    char *dem = ms_demangle(raw, fortran);
    const char *name = dem ? dem : raw;
    const char *out = intern(s, name, strlen(name));
    free(dem);
    return out;
}

static void set_file(ms_symbolizer *s, cached *c, const char *file, const char *comp_dir)
{
    if (file[0] != '/' && comp_dir && comp_dir[0]) {
        size_t dl = strlen(comp_dir), fl = strlen(file);
        char *joined = malloc(dl + 1 + fl + 1);
        if (joined) {
            memcpy(joined, comp_dir, dl);
            joined[dl] = '/';
            memcpy(joined + dl + 1, file, fl + 1);
            c->file = intern(s, joined, dl + 1 + fl);
            free(joined);
            return;
        }
    }
    c->file = intern(s, file, strlen(file));
}

/* Symbolize offset `off` of an open image; `pc` is the address whose
 * instruction is looked for (off - 1 for a return address). */
static void resolve(ms_symbolizer *s, image *im, uint64_t off, uint64_t pc, cached *c)
{
    memset(c, 0, sizeof *c);
    ms_symfile_info info;
    ms_symfile_resolve(im->file, pc, &info);
    if (info.outside) {
        c->outside = true;
        return;
    }
    if (info.has_symbol_start)
        c->function_offset = off - info.symbol_start;
    if (info.file && *info.file && info.line > 0) {
        set_file(s, c, info.file, info.comp_dir);
        c->line = info.line;
        c->column = info.column;
        c->has_debug_info = c->file != NULL;
    }
    if (info.function) {
        c->function = intern_function(s, info.function, info.fortran);
        c->has_symbol = c->function != NULL;
    }
    if (c->has_debug_info) {
        size_t len = 0;
        const char *text = ms_srccache_line(s->sources, c->file, c->line, &len);
        if (text)
            c->text = intern(s, text, len < MS_SYM_TEXT_MAX ? len : MS_SYM_TEXT_MAX);
    }
}

static int lookup(ms_symbolizer *s, int object_idx, uint64_t addr, bool exact, ms_sym_result *out)
{
    if (!out)
        return -1;
    memset(out, 0, sizeof *out);
    if (!s)
        return -1;
    pthread_mutex_lock(&s->lock);
    if (object_idx < 0 || (size_t)object_idx >= s->nobjects) {
        pthread_mutex_unlock(&s->lock);
        return -1;
    }
    const object *ob = &s->objects[object_idx];
    image *im = &s->images[ob->image];
    out->object = im->name;
    out->object_path = im->path;
    if (addr < ob->base) {
        out->outside_object = true;
        pthread_mutex_unlock(&s->lock);
        return 0;
    }
    uint64_t off = addr - ob->base;
    out->offset = off;
    if (im->state == IMG_UNOPENED)
        open_image(im);
    out->object_missing = im->state == IMG_MISSING;
    out->build_id_mismatch = im->state == IMG_MISMATCH;
    if (im->state != IMG_OPEN || off >= (UINT64_C(1) << 63)) {
        out->outside_object = im->state == IMG_OPEN;
        pthread_mutex_unlock(&s->lock);
        return 0;
    }
    uint64_t key = off << 1 | (exact ? 1 : 0);
    uint32_t ri = ms_idmap_get(&im->cache, key);
    cached c;
    if (ri != MS_IDMAP_NONE) {
        c = s->results[ri];
    } else {
        resolve(s, im, off, exact || off == 0 ? off : off - 1, &c);
        /* Without memory for the cache the answer is still given. */
        if (s->nresults < MS_IDMAP_NONE &&
            grow((void **)&s->results, &s->results_cap, s->nresults + 1, sizeof *s->results) == 0 &&
            ms_idmap_put(&im->cache, key, (uint32_t)s->nresults) == 0)
            s->results[s->nresults++] = c;
    }
    pthread_mutex_unlock(&s->lock);
    out->function = c.function;
    out->function_offset = c.function_offset;
    out->file = c.file;
    out->line = c.line;
    out->column = c.column;
    out->source_text = c.text;
    out->has_debug_info = c.has_debug_info;
    out->has_symbol = c.has_symbol;
    out->outside_object = c.outside;
    return 0;
}

int ms_sym_lookup(ms_symbolizer *s, int object, uint64_t runtime_addr, ms_sym_result *out)
{
    return lookup(s, object, runtime_addr, false, out);
}

int ms_sym_lookup_pc(ms_symbolizer *s, int object, uint64_t runtime_addr, ms_sym_result *out)
{
    return lookup(s, object, runtime_addr, true, out);
}

size_t ms_sym_format(const ms_sym_result *r, char *buf, size_t cap)
{
    const char *obj = r->object ? r->object : "?";
    const char *mark = r->object_missing ? " (missing)" : r->build_id_mismatch ? " (changed)" : "";
    int n;
    if (r->has_debug_info && r->function)
        n = snprintf(buf, cap, "%s at %s:%d", r->function, r->file, r->line);
    else if (r->has_debug_info)
        n = snprintf(buf, cap, "%s:%d", r->file, r->line);
    else if (r->function)
        n = snprintf(buf, cap, "%s+0x%llx in %s%s", r->function,
                     (unsigned long long)r->function_offset, obj, mark);
    else
        n = snprintf(buf, cap, "%s+0x%llx%s", obj, (unsigned long long)r->offset, mark);
    return n < 0 ? 0 : (size_t)n;
}
