/* Call-site symbolization with libdwfl: see symbolize.h. */
#include "symbolize.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "idmap.h"
#include "strtab.h"
#include "symbolize_demangle.h"
#include "symbolize_index.h"
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
    Dwfl *dwfl;                  /* the file reported at bias 0 */
    Dwfl_Module *mod;
    uint64_t low, high;          /* the module's loaded range */
    bool fortran_names;          /* links libgfortran */
    ms_symidx syms;              /* function symbols by address */
    ms_funcidx funcs;            /* DWARF functions by address, per CU */
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

static char *debuginfo_path; /* NULL: libdwfl's default search path */

static const Dwfl_Callbacks offline_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &debuginfo_path,
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
        ms_symidx_free(&s->images[i].syms);
        ms_funcidx_free(&s->images[i].funcs);
        if (s->images[i].dwfl)
            dwfl_end(s->images[i].dwfl);
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
    ms_funcidx_init(&im->funcs);
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

/* Whether the object names libgfortran among its DT_NEEDED libraries. */
static bool links_libgfortran(Dwfl_Module *mod)
{
    GElf_Addr bias;
    Elf *elf = dwfl_module_getelf(mod, &bias);
    Elf_Scn *scn = NULL;
    while (elf && (scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || sh.sh_entsize == 0)
            continue;
        for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Dyn dyn;
            if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag == DT_NULL)
                break;
            const char *lib = dyn.d_tag == DT_NEEDED ? elf_strptr(elf, sh.sh_link, dyn.d_un.d_val) : NULL;
            if (lib && strncmp(lib, "libgfortran", 11) == 0)
                return true;
        }
    }
    return false;
}

/* Whether the object defines a gfortran module procedure (__mod_MOD_proc). */
static bool defines_fortran_module_procedure(Dwfl_Module *mod)
{
    int n = dwfl_module_getsymtab(mod);
    for (int i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);
        if (name && sym.st_shndx != SHN_UNDEF && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
            name[0] == '_' && name[1] == '_' && strstr(name, "_MOD_"))
            return true;
    }
    return false;
}

/* Whether names without debug information follow gfortran's conventions:
 * the object links the gfortran run time, or holds module procedures. */
static bool fortran_object(Dwfl_Module *mod)
{
    return links_libgfortran(mod) || defines_fortran_module_procedure(mod);
}

static void open_image(image *im)
{
    struct stat st;
    im->state = IMG_MISSING;
    if (stat(im->path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    Dwfl *dwfl = dwfl_begin(&offline_callbacks);
    if (!dwfl)
        return;
    dwfl_report_begin(dwfl);
    /* Bias 0: module addresses are the object's own (link-time) addresses,
     * whatever base each process loaded it at. */
    Dwfl_Module *mod = dwfl_report_elf(dwfl, im->name, im->path, -1, 0, false);
    dwfl_report_end(dwfl, NULL, NULL);
    if (!mod) {
        dwfl_end(dwfl);
        return;
    }
    if (im->build_id_len) {
        const unsigned char *bits = NULL;
        GElf_Addr vaddr;
        int n = dwfl_module_build_id(mod, &bits, &vaddr);
        if (n != (int)im->build_id_len || memcmp(bits, im->build_id, im->build_id_len) != 0) {
            dwfl_end(dwfl);
            im->state = IMG_MISMATCH;
            return;
        }
    }
    Dwarf_Addr low, high;
    dwfl_module_info(mod, NULL, &low, &high, NULL, NULL, NULL, NULL);
    im->dwfl = dwfl;
    im->mod = mod;
    im->low = low;
    im->high = high;
    im->fortran_names = fortran_object(mod);
    ms_symidx_build(&im->syms, mod); /* empty when out of memory */
    im->state = IMG_OPEN;
}

static bool is_fortran(int lang)
{
    switch (lang) {
    case DW_LANG_Fortran77:
    case DW_LANG_Fortran90:
    case DW_LANG_Fortran95:
    case DW_LANG_Fortran03:
    case DW_LANG_Fortran08:
        return true;
    default:
        return false;
    }
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
    if (pc < im->low || pc >= im->high) {
        c->outside = true;
        return;
    }
    uint64_t sym_start = 0;
    const char *sym_name = ms_symidx_find(&im->syms, pc, &sym_start);
    if (sym_name)
        c->function_offset = off - sym_start;

    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(im->mod, pc, &bias);
    const char *dw_name = NULL;
    bool fortran = im->fortran_names;
    if (cu) {
        fortran = is_fortran(dwarf_srclang(cu));
        dw_name = ms_funcidx_find(&im->funcs, cu, pc - bias);
        Dwfl_Line *ln = dwfl_module_getsrc(im->mod, pc);
        int line = 0, col = 0;
        const char *file = ln ? dwfl_lineinfo(ln, NULL, &line, &col, NULL, NULL) : NULL;
        if (file && *file && line > 0) {
            set_file(s, c, file, dwfl_line_comp_dir(ln));
            c->line = line;
            c->column = col > 0 ? col : 0;
            c->has_debug_info = c->file != NULL;
        }
    }
    const char *raw = dw_name ? dw_name : sym_name;
    if (raw) {
        c->function = intern_function(s, raw, fortran);
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
