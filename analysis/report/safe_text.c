/* Text made safe for outputs: see safe_text.h. */
#include "safe_text.h"

#include <stdlib.h>
#include <string.h>

size_t ms_utf8_len(const unsigned char *s, size_t left)
{
    unsigned c = s[0];
    size_t n;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n > left)
        return 0;
    unsigned cp = c & (0x7fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

/* Whether s[0..left) is the start of a valid sequence that left cuts short. */
static int cut_short(const unsigned char *s, size_t left)
{
    size_t n = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
             : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    if (n == 0 || left >= n)
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

size_t ms_text_put(FILE *fp, const char *str, size_t len, unsigned flags, int partial)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t raw = 0, i = 0;
    while (i < len) {
        if (partial && cut_short(s + i, len - i))
            break;
        char rep[8];
        size_t rep_len;
        size_t k = next_char(s + i, len - i, flags, rep, &rep_len);
        if (rep_len) {
            fwrite(s + raw, 1, i - raw, fp);
            fwrite(rep, 1, rep_len, fp);
            raw = i + k;
        }
        i += k;
    }
    fwrite(s + raw, 1, i - raw, fp);
    return i;
}

char *ms_text_safe(char *out, size_t cap, const char *str, unsigned flags)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t len = strlen(str), o = 0;
    for (size_t i = 0; i < len;) {
        char rep[8];
        size_t rep_len;
        size_t k = next_char(s + i, len - i, flags, rep, &rep_len);
        const char *src = rep_len ? rep : str + i;
        size_t m = rep_len ? rep_len : k;
        if (o + m >= cap)
            break;
        memcpy(out + o, src, m);
        o += m;
        i += k;
    }
    if (cap)
        out[o < cap ? o : cap - 1] = '\0';
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
