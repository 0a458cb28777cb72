/* Names a person can read: see names.h. */
#include "names.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

size_t ms_columns(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* Byte offset of the character at column col (the end when shorter). */
static size_t offset_of_column(const char *s, size_t col)
{
    size_t i = 0, c = 0;
    for (; s[i]; i++) {
        if (((unsigned char)s[i] & 0xc0) != 0x80) {
            if (c == col)
                return i;
            c++;
        }
    }
    return i;
}

void ms_fit_end(char *dst, size_t cap, const char *s, size_t width)
{
    if (width == 0 || ms_columns(s) <= width) {
        snprintf(dst, cap, "%s", s);
        return;
    }
    size_t keep = width > 3 ? width - 3 : 0;
    snprintf(dst, cap, "%.*s...", (int)offset_of_column(s, keep), s);
}

/* The length of name without a trailing "+0x<hex>". */
static size_t without_offset(const char *name)
{
    const char *p = strstr(name, "+0x");
    while (p) {
        const char *q = p + 3;
        while (isxdigit((unsigned char)*q))
            q++;
        if (!*q && q > p + 3)
            return (size_t)(p - name);
        p = strstr(p + 1, "+0x");
    }
    return strlen(name);
}

/* Index of the bracket closing the one at s[i] (n: unbalanced). */
static size_t closing(const char *s, size_t n, size_t i)
{
    char open = s[i], close = open == '(' ? ')' : '>';
    int depth = 0;
    for (; i < n; i++) {
        if (s[i] == open)
            depth++;
        else if (s[i] == close && --depth == 0)
            return i;
    }
    return n;
}

static int ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

void ms_cxx_shorten(char *buf, size_t cap, const char *name, int level)
{
    size_t n = without_offset(name);
    const char *offset = name + n;
    char core[4096];
    if (n >= sizeof core || level <= 0) {
        snprintf(buf, cap, "%s", name);
        return;
    }
    size_t m = 0;
    /* Level 1: up to the argument list ("(anonymous namespace)" and
     * "operator()" are parts of the name, not argument lists). */
    for (size_t i = 0; i < n; i++) {
        if (name[i] == '(' && i > 0 && !ends_with(name, i, "::") && !ends_with(name, i, "operator")) {
            break;
        }
        if (name[i] == '(' || (name[i] == '<' && i > 0 && !ends_with(name, i, "operator") &&
                               !ends_with(name, i, "operator<"))) {
            size_t j = closing(name, n, i);
            if (name[i] == '(' || level < 2) {
                size_t len = j < n ? j - i + 1 : n - i;
                memcpy(core + m, name + i, len);
                m += len;
            }
            i = j < n ? j : n;
            continue;
        }
        core[m++] = name[i];
    }
    core[m] = '\0';
    if (level >= 2) {
        /* The last two components (class and method), or one at level 3. */
        int keep = level >= 3 ? 1 : 2;
        size_t start = 0;
        for (size_t i = m; i-- > 1;) {
            if (core[i] == ':' && core[i - 1] == ':') {
                if (--keep == 0) {
                    start = i + 1;
                    break;
                }
                i--;
            }
        }
        memmove(core, core + start, m - start + 1);
    }
    if (!core[0])
        snprintf(buf, cap, "%s", name);
    else
        snprintf(buf, cap, "%s%s", core, offset);
}

static void clean_controls(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
}

/* The label at one shortening level. */
static void label_at(char *buf, size_t cap, const ms_callsite *at, int level)
{
    char fn[4096];
    ms_cxx_shorten(fn, sizeof fn, at->function, level);
    const char *obj = strrchr(at->object, '/');
    obj = obj ? obj + 1 : at->object;
    if (at->line > 0) {
        const char *f = strrchr(at->file, '/');
        f = f ? f + 1 : at->file;
        if (fn[0])
            snprintf(buf, cap, "%s (%s:%d)", fn, f, at->line);
        else
            snprintf(buf, cap, "%s:%d", f, at->line);
    } else if (fn[0]) {
        if (obj[0])
            snprintf(buf, cap, "%s (%s)", fn, obj);
        else
            snprintf(buf, cap, "%s", fn);
    } else {
        /* file holds "object+0xoff" or the bare address */
        const char *f = strrchr(at->file, '/');
        snprintf(buf, cap, "%s", f ? f + 1 : at->file);
    }
    clean_controls(buf);
}

void ms_site_label(char *buf, size_t cap, const ms_callsite *at, size_t width)
{
    if (!at) {
        snprintf(buf, cap, "(no call site)");
        return;
    }
    /* The first level that fits; when none does, the class and method
     * whole (level 2): a name is never cut. */
    for (int level = 0; level <= 3; level++) {
        label_at(buf, cap, at, level);
        if (width == 0 || ms_columns(buf) <= width)
            return;
    }
    label_at(buf, cap, at, 2);
}

void ms_mpi_function(char *buf, size_t cap, const char *op)
{
    if (!op[0] || !islower((unsigned char)op[0])) {
        snprintf(buf, cap, "%s", op);
        return;
    }
    snprintf(buf, cap, "MPI_%c%s", toupper((unsigned char)op[0]), op + 1);
}

/* The version number starting at s: digits and dots (and a suffix such as
 * "a1" or "rc2" glued to it). */
static size_t version_len(const char *s)
{
    size_t i = 0;
    while (isalnum((unsigned char)s[i]) || (s[i] == '.' && isdigit((unsigned char)s[i + 1])))
        i++;
    return i;
}

void ms_mpi_library_short(char *buf, size_t cap, const char *version)
{
    char first[256];
    size_t n = strcspn(version, "\n\r");
    snprintf(first, sizeof first, "%.*s", (int)(n < sizeof first ? n : sizeof first - 1), version);
    clean_controls(first);
    /* "<product> v1.2.3" or "<product> Version: 1.2.3" or "<product> 1.2.3" */
    for (size_t i = 1; first[i]; i++) {
        if (first[i - 1] != ' ')
            continue;
        const char *v = first + i;
        size_t skip = 0;
        if (strncmp(v, "Version:", 8) == 0 || strncmp(v, "version ", 8) == 0)
            skip = 8;
        else if (v[0] == 'v' && isdigit((unsigned char)v[1]))
            skip = 1;
        while (skip && v[skip] == ' ')
            skip++;
        if (!isdigit((unsigned char)v[skip]))
            continue;
        size_t product = i - 1;
        while (product > 0 && (first[product - 1] == ' ' || first[product - 1] == ','))
            product--;
        snprintf(buf, cap, "%.*s %.*s", (int)product, first, (int)version_len(v + skip), v + skip);
        return;
    }
    ms_fit_end(buf, cap, first, 60);
}
