/* Text made safe for outputs: see safe_text.h. */
#include "safe_text.h"

#include <stdlib.h>
#include <string.h>

/* The length of the sequence that lead byte c starts, 0 when it starts
 * none. */
static size_t lead_len(unsigned c)
{
    return c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
}

size_t ms_utf8_len(const unsigned char *s, size_t left)
{
    static const unsigned min_of[5] = {0, 0, 0x80, 0x800, 0x10000};
    unsigned c = s[0];
    size_t n = lead_len(c);
    if (n <= 1)
        return n;
    if (n > left)
        return 0;
    unsigned cp = c & (0x7fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3fu);
    }
    if (cp < min_of[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

int ms_utf8_cut_short(const unsigned char *s, size_t left)
{
    size_t n = lead_len(s[0]);
    if (n <= 1 || left >= n)
        return 0;
    for (size_t i = 1; i < left; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return 1;
}

/* How the next character of s[0..left) is written: the bytes it takes, and
 * its replacement in rep (*rep_len, 0: as it is). */
static size_t next_char(const unsigned char *s, size_t left, unsigned flags, char rep[8], size_t *rep_len)
{
    unsigned c = s[0];
    *rep_len = 0;
    if (flags & MS_TEXT_CONTROLS) {
        int keep = (flags & MS_TEXT_KEEP_LINES) && (c == '\n' || c == '\t' || c == '\\');
        if (!keep && (c < 0x20 || c == 0x7f || c == '\\')) {
            *rep_len = c == '\\' ? 2 : 4;
            memcpy(rep, "\\\\", 2);
            if (c != '\\')
                snprintf(rep, 8, "\\x%02x", c);
            return 1;
        }
    }
    size_t n = ms_utf8_len(s, left);
    if (n == 0) {
        memcpy(rep, "\xef\xbf\xbd", 3);
        *rep_len = 3;
        return 1;
    }
    if ((flags & MS_TEXT_CONTROLS) && n == 2 && c == 0xc2 && s[1] < 0xa0) {
        *rep_len = (size_t)snprintf(rep, 8, "\\u%04x", (unsigned)s[1]);
        return n;
    }
    return n;
}

static int put_file(void *ctx, const char *p, size_t n, int is_rep)
{
    (void)is_rep;
    fwrite(p, 1, n, (FILE *)ctx);
    return 0;
}

size_t ms_text_put(FILE *fp, const char *s, size_t len, unsigned flags, int partial)
{
    return ms_text_walk(s, len, next_char, flags, partial, put_file, fp);
}

/* A buffer of cap bytes that ms_text_safe fills. */
typedef struct fixed_buf {
    char *out;
    size_t cap, o;
} fixed_buf;

/* Bytes written whole, with room left for the NUL; a run that does not
 * fit is cut at a character's end (a run's bytes are valid UTF-8), a
 * replacement that does not fit left out, and the walk stops. */
static int put_fixed(void *ctx, const char *p, size_t n, int is_rep)
{
    fixed_buf *b = ctx;
    size_t fit = n;
    if (b->o + n >= b->cap) {
        const unsigned char *u = (const unsigned char *)p;
        fit = 0;
        while (!is_rep && fit < n) {
            size_t k = ms_utf8_len(u + fit, n - fit);
            if (k == 0 || b->o + fit + k >= b->cap)
                break;
            fit += k;
        }
    }
    memcpy(b->out + b->o, p, fit);
    b->o += fit;
    return fit < n ? -1 : 0;
}

char *ms_text_safe(char *out, size_t cap, const char *str, unsigned flags)
{
    fixed_buf b = {.out = out, .cap = cap, .o = 0};
    if (cap)
        ms_text_walk(str, strlen(str), next_char, flags, 0, put_fixed, &b);
    if (cap)
        out[b.o < cap ? b.o : cap - 1] = '\0';
    return out;
}

/* The filter stream's state: the bytes of a sequence cut at a write's end. */
typedef struct filter {
    FILE *to;
    unsigned flags;
    char held[4];
    size_t nheld;
} filter;

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
    filter *f = cookie;
    size_t done = 0;
    /* Complete a held sequence with the first bytes of buf. */
    while (f->nheld && done < size) {
        f->held[f->nheld++] = buf[done++];
        size_t took = ms_text_put(f->to, f->held, f->nheld, f->flags, 1);
        memmove(f->held, f->held + took, f->nheld - took);
        f->nheld -= took;
    }
    if (f->nheld)
        return (ssize_t)size;
    size_t took = ms_text_put(f->to, buf + done, size - done, f->flags, 1);
    f->nheld = size - done - took;
    memcpy(f->held, buf + done + took, f->nheld);
    return (ssize_t)size;
}

static int filter_close(void *cookie)
{
    filter *f = cookie;
    ms_text_put(f->to, f->held, f->nheld, f->flags, 0);
    free(f);
    return 0;
}

FILE *ms_text_filter(FILE *fp, unsigned flags)
{
    filter *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->to = fp;
    f->flags = flags;
    cookie_io_functions_t io = {.write = filter_write, .close = filter_close};
    FILE *out = fopencookie(f, "w", io);
    if (!out)
        free(f);
    return out;
}
