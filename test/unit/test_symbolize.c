/* The call-site symbolizer (analysis/symbolize/symbolize.h) on the fixture program of
 * test/symbolize/: built with debug information, without it, stripped,
 * deleted after the run, and replaced by another build after the run. The
 * fixture records its sites as the preload library does (dl_iterate_phdr
 * for path, build-id and base; __builtin_return_address for the address);
 * what each site must symbolize to is read from markers in the fixture
 * sources (see test/symbolize/symfix_main.c). Also: demangling, the
 * source-line reader, bad input and concurrent lookups. */
#include <criterion/criterion.h>
#include <elf.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analysis/symbolize/symbolize.h"
#include "../../analysis/symbolize/symbolize_demangle.h"
#include "../../analysis/symbolize/symbolize_source.h"

#ifndef SYMFIX_SRC_DIR
#error "SYMFIX_SRC_DIR: the fixture sources' directory (set by test/symbolize/fixtures.mk)"
#endif

#ifndef MS_HAVE_DW
#define MS_HAVE_DW 1 /* set by the Makefile: whether elfutils is linked */
#endif

#define MAX_RECS 32

typedef struct rec {
    char kind[8], tag[64];
    char path[PATH_MAX];
    uint8_t build_id[MS_SYM_BUILD_ID_MAX];
    size_t build_id_len;
    uint64_t base, addr;
} rec;

typedef struct marker {
    char file[PATH_MAX]; /* the fixture source that holds it */
    int line;
    char text[512];      /* the line, trimmed */
    char func[256], nodebug[256];
    bool local;
} marker;

static const char *const fixture_sources[] = {"symfix_main.c", "symfix_lib.c", "symfix_cxx.cc",
                                              "symfix_f.f90"};

/* <BUILD>/test/symbolize, from this program's own path <BUILD>/test/unit/x. */
static void fixture_dir(char *out, size_t cap)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    cr_assert(n > 0);
    self[n] = '\0';
    *strrchr(self, '/') = '\0';
    *strrchr(self, '/') = '\0';
    cr_assert_lt((size_t)snprintf(out, cap, "%s/symbolize", self), cap);
}

static size_t hex_bytes(const char *hex, uint8_t *out)
{
    size_t n = 0;
    if (strcmp(hex, "-") == 0)
        return 0;
    for (; hex[0] && hex[1] && n < MS_SYM_BUILD_ID_MAX; hex += 2) {
        unsigned v;
        cr_assert_eq(sscanf(hex, "%2x", &v), 1);
        out[n++] = (uint8_t)v;
    }
    return n;
}

/* Run a fixture program; its records into recs. Returns how many. */
static size_t run_fixture(const char *program, rec *recs)
{
    FILE *p = popen(program, "r");
    cr_assert(p, "cannot run %s", program);
    char line[PATH_MAX + 512];
    size_t n = 0;
    while (fgets(line, sizeof line, p)) {
        cr_assert_lt(n, MAX_RECS);
        rec *r = &recs[n];
        char bid[2 * MS_SYM_BUILD_ID_MAX + 2];
        unsigned long long base, addr;
        cr_assert_eq(sscanf(line, "%7s %63s %4095s %129s %llx %llx", r->kind, r->tag, r->path, bid, &base,
                            &addr),
                     6, "bad fixture output: %s", line);
        r->build_id_len = hex_bytes(bid, r->build_id);
        r->base = base;
        r->addr = addr;
        n++;
    }
    cr_assert_eq(pclose(p), 0, "%s failed", program);
    return n;
}

static size_t run_variant(const char *variant, rec *recs)
{
    char dir[PATH_MAX], prog[PATH_MAX + 64];
    fixture_dir(dir, sizeof dir);
    snprintf(prog, sizeof prog, "%s/%s/symfix", dir, variant);
    return run_fixture(prog, recs);
}

static void trim_copy(char *dst, size_t cap, const char *b, const char *e)
{
    while (b < e && strchr(" \t\r\n", *b))
        b++;
    while (e > b && strchr(" \t\r\n", e[-1]))
        e--;
    size_t n = (size_t)(e - b) < cap - 1 ? (size_t)(e - b) : cap - 1;
    memcpy(dst, b, n);
    dst[n] = '\0';
}

/* The value of "KEY:" on a marker line: up to the next marker or the end
 * of the comment. */
static void marker_value(const char *line, const char *key, char *out, size_t cap)
{
    out[0] = '\0';
    const char *b = strstr(line, key);
    if (!b)
        return;
    b += strlen(key);
    const char *e = b + strlen(b);
    const char *ends[] = {" NODEBUG:", " LOCAL", "*/"};
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
        const char *x = strstr(b, ends[i]);
        if (x && x < e)
            e = x;
    }
    trim_copy(out, cap, b, e);
}

/* Finds the SITE:<tag> marker in the fixture sources. */
static bool find_marker(const char *tag, marker *m)
{
    char key[96];
    snprintf(key, sizeof key, "SITE:%s ", tag);
    for (size_t f = 0; f < sizeof fixture_sources / sizeof *fixture_sources; f++) {
        snprintf(m->file, sizeof m->file, "%s/%s", SYMFIX_SRC_DIR, fixture_sources[f]);
        FILE *fp = fopen(m->file, "r");
        cr_assert(fp, "cannot read %s", m->file);
        char line[1024];
        for (int no = 1; fgets(line, sizeof line, fp); no++) {
            if (!strstr(line, key))
                continue;
            m->line = no;
            trim_copy(m->text, sizeof m->text, line, line + strlen(line));
            marker_value(line, "FUNC:", m->func, sizeof m->func);
            marker_value(line, "NODEBUG:", m->nodebug, sizeof m->nodebug);
            if (!m->nodebug[0])
                strcpy(m->nodebug, m->func);
            m->local = strstr(line, " LOCAL") != NULL;
            fclose(fp);
            return true;
        }
        fclose(fp);
    }
    return false;
}

/* How many SITE markers the fixture sources hold (Fortran only when built). */
static size_t count_markers(void)
{
    size_t n = 0, nsrc = SYMFIX_HAVE_FORTRAN ? 4 : 3;
    for (size_t f = 0; f < nsrc; f++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", SYMFIX_SRC_DIR, fixture_sources[f]);
        FILE *fp = fopen(path, "r");
        cr_assert(fp);
        char line[1024];
        while (fgets(line, sizeof line, fp)) {
            const char *s = strstr(line, "SITE:");
            n += s && s[5] >= 'a' && s[5] <= 'z';
        }
        fclose(fp);
    }
    return n;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int add(ms_symbolizer *s, const rec *r)
{
    int o = ms_sym_add_object(s, r->path, r->build_id, r->build_id_len, r->base);
    cr_assert_geq(o, 0, "cannot add %s", r->path);
    return o;
}

static const rec *find_rec(const rec *recs, size_t n, const char *kind, const char *tag)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(recs[i].kind, kind) == 0 && strcmp(recs[i].tag, tag) == 0)
            return &recs[i];
    cr_assert_fail("no %s record %s from the fixture", kind, tag);
    return NULL;
}

static void expect_same_file(const char *got, const char *want)
{
    char a[PATH_MAX], b[PATH_MAX];
    cr_assert(got, "no file, want %s", want);
    cr_assert(realpath(got, a), "symbolized file %s does not exist", got);
    cr_assert(realpath(want, b));
    cr_expect_str_eq(a, b);
}

static uint16_t elf_type(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f);
    Elf64_Ehdr eh;
    cr_assert_eq(fread(&eh, sizeof eh, 1, f), 1);
    fclose(f);
    return eh.e_type;
}

/* Every site of the run, and no other: all markers were reported. */
static size_t sites(const rec *recs, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += strcmp(recs[i].kind, "site") == 0;
    cr_assert_eq(k, count_markers(), "the fixture reported %zu sites, its sources mark %zu", k,
                 count_markers());
    return k;
}

/* Reading debug information needs elfutils: in a build without it
 * (config.mk's HAVE_DW=0) this suite is skipped and symbolize_nodw runs. */
TestSuite(symbolize, .disabled = !MS_HAVE_DW);

Test(symbolize, debug_info_gives_function_file_line_and_text)
{
    rec recs[MAX_RECS];
    size_t n = run_variant("g", recs);
    sites(recs, n);
    ms_symbolizer *s = ms_sym_new();
    cr_assert(s);
    for (size_t i = 0; i < n; i++) {
        const rec *r = &recs[i];
        if (strcmp(r->kind, "site") != 0)
            continue;
        marker m;
        cr_assert(find_marker(r->tag, &m), "no marker for site %s", r->tag);
        /* A PIE executable and shared libraries: loaded at a base, ET_DYN. */
        cr_expect_neq(r->base, 0, "%s: base 0", r->tag);
        cr_expect_eq(elf_type(r->path), ET_DYN, "%s", r->path);
        cr_expect_gt(r->build_id_len, 0);

        ms_sym_result res;
        cr_assert_eq(ms_sym_lookup(s, add(s, r), r->addr, &res), 0);
        cr_expect(res.has_debug_info && res.has_symbol, "%s: flags", r->tag);
        cr_expect(!res.object_missing && !res.build_id_mismatch && !res.outside_object, "%s", r->tag);
        cr_assert(res.function, "%s: no function", r->tag);
        cr_expect_str_eq(res.function, m.func, "%s: function", r->tag);
        expect_same_file(res.file, m.file);
        cr_expect_eq(res.line, m.line, "%s: line %d, marker at %d", r->tag, res.line, m.line);
        cr_assert(res.source_text, "%s: no source text", r->tag);
        cr_expect_str_eq(res.source_text, m.text);
        cr_expect_str_eq(res.object, base_name(r->path));
        cr_expect_str_eq(res.object_path, r->path);
        cr_expect_eq(res.offset, r->addr - r->base);

        char buf[PATH_MAX + 1024], want[PATH_MAX + 1024];
        ms_sym_format(&res, buf, sizeof buf);
        snprintf(want, sizeof want, "%s at %s:%d", m.func, res.file, m.line);
        cr_expect_str_eq(buf, want);
    }
    ms_sym_free(s);
}

Test(symbolize, exact_address_of_a_function_entry)
{
    rec recs[MAX_RECS];
    size_t n = run_variant("g", recs);
    const rec *f = find_rec(recs, n, "func", "symfix_exe_site");
    ms_symbolizer *s = ms_sym_new();
    ms_sym_result res;
    cr_assert_eq(ms_sym_lookup_pc(s, add(s, f), f->addr, &res), 0);
    cr_assert(res.function);
    cr_expect_str_eq(res.function, "symfix_exe_site");
    cr_expect_eq(res.function_offset, 0);
    /* The entry's line is the definition's, or its opening brace's. */
    char path[PATH_MAX], line[1024];
    snprintf(path, sizeof path, "%s/symfix_main.c", SYMFIX_SRC_DIR);
    FILE *fp = fopen(path, "r");
    cr_assert(fp);
    int def = 0, brace = 0;
    for (int no = 1; fgets(line, sizeof line, fp) && !brace; no++) {
        if (strstr(line, "void symfix_exe_site(void)") && !strchr(line, ';'))
            def = no;
        if (def && strchr(line, '{'))
            brace = no;
    }
    fclose(fp);
    cr_assert(def && brace);
    cr_expect(res.line >= def && res.line <= brace, "line %d, definition at %d-%d", res.line, def, brace);
    ms_sym_free(s);
}

Test(symbolize, without_debug_info_gives_function_and_offset)
{
    rec recs[MAX_RECS];
    size_t n = run_variant("nog", recs);
    sites(recs, n);
    const rec *entry = find_rec(recs, n, "func", "symfix_exe_site");
    ms_symbolizer *s = ms_sym_new();
    for (size_t i = 0; i < n; i++) {
        const rec *r = &recs[i];
        if (strcmp(r->kind, "site") != 0)
            continue;
        marker m;
        cr_assert(find_marker(r->tag, &m));
        ms_sym_result res;
        cr_assert_eq(ms_sym_lookup(s, add(s, r), r->addr, &res), 0);
        cr_expect(!res.has_debug_info && !res.file && res.line == 0 && !res.source_text, "%s", r->tag);
        cr_expect(res.has_symbol, "%s", r->tag);
        cr_assert(res.function, "%s: no function", r->tag);
        cr_expect_str_eq(res.function, m.nodebug, "%s: function", r->tag);
        cr_expect_eq(res.offset, r->addr - r->base);
        if (strcmp(m.nodebug, entry->tag) == 0)
            cr_expect_eq(res.function_offset, r->addr - entry->addr, "%s", r->tag);
        else
            cr_expect(res.function_offset > 0 && res.function_offset < 0x1000, "%s: +0x%llx", r->tag,
                      (unsigned long long)res.function_offset);
        char buf[PATH_MAX + 1024], want[PATH_MAX + 1024];
        ms_sym_format(&res, buf, sizeof buf);
        snprintf(want, sizeof want, "%s+0x%llx in %s", m.nodebug, (unsigned long long)res.function_offset,
                 base_name(r->path));
        cr_expect_str_eq(buf, want);
    }
    ms_sym_free(s);
}

Test(symbolize, stripped_gives_object_and_offset_or_exported_name)
{
    rec recs[MAX_RECS];
    size_t n = run_variant("strip", recs);
    sites(recs, n);
    ms_symbolizer *s = ms_sym_new();
    for (size_t i = 0; i < n; i++) {
        const rec *r = &recs[i];
        if (strcmp(r->kind, "site") != 0)
            continue;
        marker m;
        cr_assert(find_marker(r->tag, &m));
        ms_sym_result res;
        cr_assert_eq(ms_sym_lookup(s, add(s, r), r->addr, &res), 0);
        cr_expect(!res.has_debug_info && !res.object_missing && !res.build_id_mismatch, "%s", r->tag);
        cr_expect_str_eq(res.object, base_name(r->path));
        cr_expect_eq(res.offset, r->addr - r->base);
        if (m.local) {
            /* Not in .dynsym: no name, and not a neighbour's. */
            cr_expect(!res.has_symbol && !res.function, "%s: got %s", r->tag,
                      res.function ? res.function : "");
            char buf[PATH_MAX + 1024], want[PATH_MAX + 1024];
            ms_sym_format(&res, buf, sizeof buf);
            snprintf(want, sizeof want, "%s+0x%llx", base_name(r->path),
                     (unsigned long long)(r->addr - r->base));
            cr_expect_str_eq(buf, want);
        } else {
            cr_assert(res.function, "%s: exported, yet no name", r->tag);
            cr_expect_str_eq(res.function, m.nodebug);
        }
    }
    ms_sym_free(s);
}

/* A copy of the g/ fixture in a fresh directory, run once. */
static size_t run_copy(char *dir, size_t cap, rec *recs)
{
    char src[PATH_MAX], cmd[3 * PATH_MAX];
    fixture_dir(src, sizeof src);
    snprintf(dir, cap, "/tmp/mpiscope-symfix-XXXXXX");
    cr_assert(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cp %s/g/symfix %s/g/*.so %s/", src, src, dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/symfix", dir);
    return run_fixture(cmd, recs);
}

static void remove_dir(const char *dir)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

Test(symbolize, deleted_object_is_flagged_missing)
{
    char dir[PATH_MAX], path[PATH_MAX + 32];
    rec recs[MAX_RECS];
    size_t n = run_copy(dir, sizeof dir, recs);
    snprintf(path, sizeof path, "%s/symfix", dir);
    cr_assert_eq(unlink(path), 0);
    snprintf(path, sizeof path, "%s/libsymfix.so", dir);
    cr_assert_eq(unlink(path), 0);

    ms_symbolizer *s = ms_sym_new();
    const char *gone[] = {"c_exe", "c_lib"};
    for (size_t i = 0; i < 2; i++) {
        const rec *r = find_rec(recs, n, "site", gone[i]);
        ms_sym_result res;
        cr_assert_eq(ms_sym_lookup(s, add(s, r), r->addr, &res), 0);
        cr_expect(res.object_missing && !res.build_id_mismatch, "%s", r->tag);
        cr_expect(!res.function && !res.file && !res.has_symbol && !res.has_debug_info);
        cr_expect_str_eq(res.object, base_name(r->path));
        cr_expect_eq(res.offset, r->addr - r->base);
        char buf[PATH_MAX + 1024], want[PATH_MAX + 1024];
        ms_sym_format(&res, buf, sizeof buf);
        snprintf(want, sizeof want, "%s+0x%llx (missing)", base_name(r->path),
                 (unsigned long long)(r->addr - r->base));
        cr_expect_str_eq(buf, want);
    }
    /* The objects still there still resolve. */
    const rec *r = find_rec(recs, n, "site", "cxx_member");
    ms_sym_result res;
    cr_assert_eq(ms_sym_lookup(s, add(s, r), r->addr, &res), 0);
    cr_expect(res.has_debug_info && !res.object_missing);
    ms_sym_free(s);
    remove_dir(dir);
}

Test(symbolize, rebuilt_object_is_detected_by_build_id)
{
    char dir[PATH_MAX], fix[PATH_MAX], cmd[3 * PATH_MAX];
    rec recs[MAX_RECS];
    size_t n = run_copy(dir, sizeof dir, recs);
    /* Replace the library by another build of it (without -g: another
     * build-id, other addresses). */
    fixture_dir(fix, sizeof fix);
    snprintf(cmd, sizeof cmd, "cp %s/nog/libsymfix.so %s/libsymfix.so", fix, dir);
    cr_assert_eq(system(cmd), 0);

    ms_symbolizer *s = ms_sym_new();
    const rec *r = find_rec(recs, n, "site", "c_lib");
    ms_sym_result res;
    cr_assert_eq(ms_sym_lookup(s, add(s, r), r->addr, &res), 0);
    cr_expect(res.build_id_mismatch && !res.object_missing);
    cr_expect(!res.function && !res.file && !res.has_symbol && !res.has_debug_info,
              "a changed file must not be used");
    cr_expect_eq(res.offset, r->addr - r->base);
    char buf[1024];
    ms_sym_format(&res, buf, sizeof buf);
    cr_expect(strstr(buf, "(changed)"), "%s", buf);

    /* Recorded without a build-id, nothing can be checked: the file is used. */
    int o = ms_sym_add_object(s, r->path, NULL, 0, r->base);
    cr_assert_eq(ms_sym_lookup(s, o, r->addr, &res), 0);
    cr_expect(!res.build_id_mismatch && !res.object_missing);

    /* The unchanged executable of the same run still resolves. */
    const rec *e = find_rec(recs, n, "site", "c_exe");
    cr_assert_eq(ms_sym_lookup(s, add(s, e), e->addr, &res), 0);
    cr_expect(res.has_debug_info && !res.build_id_mismatch);
    ms_sym_free(s);
    remove_dir(dir);
}

static void expect_same_result(const ms_sym_result *a, const ms_sym_result *b, const char *tag)
{
    /* Strings are interned: equal results share their pointers. */
    cr_expect_eq(a->function, b->function, "%s", tag);
    cr_expect_eq(a->file, b->file, "%s", tag);
    cr_expect_eq(a->source_text, b->source_text, "%s", tag);
    cr_expect_eq(a->line, b->line, "%s", tag);
    cr_expect_eq(a->offset, b->offset, "%s", tag);
    cr_expect_eq(a->function_offset, b->function_offset, "%s", tag);
    cr_expect_eq(a->has_debug_info, b->has_debug_info, "%s", tag);
}

Test(symbolize, same_object_at_other_bases_gives_same_results)
{
    rec one[MAX_RECS], two[MAX_RECS];
    size_t n = run_variant("g", one);
    cr_assert_eq(run_variant("g", two), n);
    ms_symbolizer *s = ms_sym_new();
    const uint64_t shift = 0x3000000000ull;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(one[i].kind, "site") != 0)
            continue;
        ms_sym_result a, b, c;
        cr_assert_eq(ms_sym_lookup(s, add(s, &one[i]), one[i].addr, &a), 0);
        cr_assert(a.has_debug_info);
        /* A second run (another process: ASLR moves it when enabled). */
        cr_assert_str_eq(two[i].tag, one[i].tag);
        cr_assert_eq(ms_sym_lookup(s, add(s, &two[i]), two[i].addr, &b), 0);
        expect_same_result(&a, &b, one[i].tag);
        /* Another rank that loaded it elsewhere. */
        int o = ms_sym_add_object(s, one[i].path, one[i].build_id, one[i].build_id_len, one[i].base + shift);
        cr_assert_eq(ms_sym_lookup(s, o, one[i].addr + shift, &c), 0);
        expect_same_result(&a, &c, one[i].tag);
        /* The same address again: from the cache, the same answer. */
        cr_assert_eq(ms_sym_lookup(s, o, one[i].addr + shift, &c), 0);
        expect_same_result(&a, &c, one[i].tag);
    }
    ms_sym_free(s);
}

Test(symbolize, bad_input_is_refused_or_flagged)
{
    rec recs[MAX_RECS];
    size_t n = run_variant("g", recs);
    const rec *r = find_rec(recs, n, "site", "c_lib");
    ms_symbolizer *s = ms_sym_new();
    ms_sym_result res;
    uint8_t long_id[MS_SYM_BUILD_ID_MAX + 1] = {0};
    cr_expect_eq(ms_sym_add_object(s, NULL, NULL, 0, 0), -1);
    cr_expect_eq(ms_sym_add_object(s, r->path, long_id, sizeof long_id, 0), -1);
    cr_expect_eq(ms_sym_add_object(s, r->path, NULL, 4, 0), -1);
    cr_expect_eq(ms_sym_lookup(s, 0, r->addr, &res), -1, "no object yet");
    int o = add(s, r);
    cr_expect_eq(ms_sym_lookup(s, o + 1, r->addr, &res), -1);
    cr_expect_eq(ms_sym_lookup(s, -1, r->addr, &res), -1);
    cr_expect_eq(ms_sym_lookup(s, o, r->addr, NULL), -1);
    cr_expect_eq(ms_sym_lookup(NULL, o, r->addr, &res), -1);

    /* Below the base, far beyond the object: flagged, never a failure. */
    cr_assert_eq(ms_sym_lookup(s, o, r->base - 16, &res), 0);
    cr_expect(res.outside_object && !res.function);
    cr_assert_eq(ms_sym_lookup(s, o, r->base + (1ull << 40), &res), 0);
    cr_expect(res.outside_object && !res.function && !res.file);
    cr_assert_eq(ms_sym_lookup(s, o, UINT64_MAX, &res), 0);
    cr_expect(res.outside_object);

    /* A file that is not ELF (a source file) counts as missing. */
    char src[PATH_MAX];
    snprintf(src, sizeof src, "%s/symfix_main.c", SYMFIX_SRC_DIR);
    o = ms_sym_add_object(s, src, NULL, 0, 0x1000);
    cr_assert_eq(ms_sym_lookup(s, o, 0x1100, &res), 0);
    cr_expect(res.object_missing && !res.function);
    cr_expect_eq(res.offset, 0x100);
    ms_sym_free(s);
    ms_sym_free(NULL);
}

typedef struct worker {
    ms_symbolizer *s;
    const rec *recs;
    size_t n;
    const ms_sym_result *want;
    int bad;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    for (int round = 0; round < 200; round++)
        for (size_t i = 0; i < w->n; i++) {
            ms_sym_result res;
            int o = ms_sym_add_object(w->s, w->recs[i].path, w->recs[i].build_id, w->recs[i].build_id_len,
                                      w->recs[i].base);
            if (o < 0 || ms_sym_lookup(w->s, o, w->recs[i].addr, &res) != 0 ||
                res.function != w->want[i].function || res.line != w->want[i].line)
                w->bad++;
        }
    return NULL;
}

Test(symbolize, concurrent_lookups_agree)
{
    rec recs[MAX_RECS];
    size_t n = run_variant("g", recs);
    ms_sym_result want[MAX_RECS];
    ms_symbolizer *ref = ms_sym_new(), *s = ms_sym_new();
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(ms_sym_lookup(ref, add(ref, &recs[i]), recs[i].addr, &want[i]), 0);
    /* The shared symbolizer starts cold: the threads race to fill it. They
     * compare with the interned pointers of their own symbolizer, so
     * compare by value after. */
    worker w[4];
    pthread_t t[4];
    ms_sym_result first[MAX_RECS];
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(ms_sym_lookup(s, add(s, &recs[i]), recs[i].addr, &first[i]), 0);
    for (int k = 0; k < 4; k++) {
        w[k] = (worker){.s = s, .recs = recs, .n = n, .want = first};
        cr_assert_eq(pthread_create(&t[k], NULL, work, &w[k]), 0);
    }
    for (int k = 0; k < 4; k++) {
        pthread_join(t[k], NULL);
        cr_expect_eq(w[k].bad, 0);
    }
    for (size_t i = 0; i < n; i++) {
        cr_expect_str_eq(first[i].function, want[i].function);
        cr_expect_eq(first[i].line, want[i].line);
    }
    ms_sym_free(ref);
    ms_sym_free(s);
}

Test(symbolize_demangle, cxx_and_fortran_names)
{
    cr_assert(ms_demangle_cxx_available(), "libstdc++ is installed with the compiler");
    struct {
        const char *in;
        bool fortran;
        const char *out; /* NULL: left as it is */
    } cases[] = {
        {"_ZN6symfix6Widget4pokeEi", false, "symfix::Widget::poke(int)"},
        {"_ZN6symfix5twiceIiEET_S1_", false, "int symfix::twice<int>(int)"},
        {"_ZNKSt6vectorIiSaIiEE4sizeEv", false, "std::vector<int, std::allocator<int> >::size() const"},
        {"_Z", false, NULL},              /* malformed */
        {"_Zfoo", false, NULL},           /* malformed */
        {"__mymod_MOD_foo", false, "mymod::foo"},
        {"__my_mod_MOD_foo_bar", true, "my_mod::foo_bar"},
        {"__mymod_MOD_", false, NULL},    /* no procedure */
        {"foo_", true, "foo"},
        {"foo_", false, NULL},            /* a C name keeps its underscore */
        {"MAIN__", true, NULL},
        {"_", true, NULL},
        {"main", true, NULL},
        {"", false, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = ms_demangle(cases[i].in, cases[i].fortran);
        if (cases[i].out) {
            cr_assert(got, "%s: not demangled", cases[i].in);
            cr_expect_str_eq(got, cases[i].out);
        } else {
            cr_expect_null(got, "%s: demangled to %s", cases[i].in, got ? got : "");
        }
        free(got);
    }
    cr_expect_null(ms_demangle(NULL, true));
}

Test(symbolize_source, lines_trimmed_cached_and_bounded)
{
    char path[] = "/tmp/mpiscope-srcXXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    const char body[] = "first\n\t  second line  \r\n\n   \nlast without newline";
    cr_assert_eq(write(fd, body, sizeof body - 1), (ssize_t)(sizeof body - 1));
    close(fd);

    ms_srccache *c = ms_srccache_new();
    size_t len = 0;
    const char *t = ms_srccache_line(c, path, 1, &len);
    cr_assert(t);
    cr_expect(len == 5 && memcmp(t, "first", 5) == 0);
    t = ms_srccache_line(c, path, 2, &len);
    cr_assert(t);
    cr_expect(len == 11 && memcmp(t, "second line", 11) == 0, "got '%.*s'", (int)len, t);
    t = ms_srccache_line(c, path, 3, &len);
    cr_expect(t && len == 0);
    t = ms_srccache_line(c, path, 4, &len);
    cr_expect(t && len == 0);
    t = ms_srccache_line(c, path, 5, &len);
    cr_assert(t);
    cr_expect(len == 20 && memcmp(t, "last without newline", 20) == 0);
    cr_expect_null(ms_srccache_line(c, path, 6, &len));
    cr_expect_null(ms_srccache_line(c, path, 0, &len));
    cr_expect_null(ms_srccache_line(c, path, -1, &len));

    /* Read once: a later change of the file is not seen. */
    cr_assert_eq(unlink(path), 0);
    t = ms_srccache_line(c, path, 1, &len);
    cr_expect(t && len == 5);
    cr_expect_eq(ms_srccache_files(c), 1);

    /* Unreadable, a directory, not text: no line, remembered. */
    cr_expect_null(ms_srccache_line(c, "/nonexistent/file.c", 1, &len));
    cr_expect_null(ms_srccache_line(c, "/tmp", 1, &len));
    char bin[] = "/tmp/mpiscope-binXXXXXX";
    fd = mkstemp(bin);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, "a\0b\n", 4), 4);
    close(fd);
    cr_expect_null(ms_srccache_line(c, bin, 1, &len));
    unlink(bin);
    cr_expect_eq(ms_srccache_files(c), 4);
    ms_srccache_free(c);
}

/* A build without elfutils: every site is its object and offset, a deleted
 * object is flagged, nothing is invented. */
Test(symbolize_nodw, object_and_offset_only, .disabled = MS_HAVE_DW)
{
    char dir[PATH_MAX], path[PATH_MAX + 32];
    rec recs[MAX_RECS];
    size_t n = run_copy(dir, sizeof dir, recs);
    snprintf(path, sizeof path, "%s/libsymfix.so", dir);
    cr_assert_eq(unlink(path), 0);
    ms_symbolizer *s = ms_sym_new();
    size_t sites = 0;
    for (size_t i = 0; i < n; i++) {
        const rec *r = &recs[i];
        if (strcmp(r->kind, "site") != 0)
            continue;
        sites++;
        ms_sym_result res;
        cr_assert_eq(ms_sym_lookup(s, add(s, r), r->addr, &res), 0);
        bool gone = strcmp(r->path, path) == 0;
        cr_expect_eq(res.object_missing, gone, "%s", r->tag);
        cr_expect(!res.function && !res.file && !res.source_text && !res.has_symbol &&
                      !res.has_debug_info && !res.build_id_mismatch,
                  "%s", r->tag);
        cr_expect_str_eq(res.object, base_name(r->path));
        cr_expect_eq(res.offset, r->addr - r->base);
        char buf[PATH_MAX + 1024], want[PATH_MAX + 1024];
        ms_sym_format(&res, buf, sizeof buf);
        snprintf(want, sizeof want, "%s+0x%llx%s", base_name(r->path),
                 (unsigned long long)(r->addr - r->base), gone ? " (missing)" : "");
        cr_expect_str_eq(buf, want);
    }
    cr_expect_gt(sites, 0);
    ms_sym_free(s);
    remove_dir(dir);
}
