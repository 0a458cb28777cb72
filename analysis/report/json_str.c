/* JSON strings and numbers: see json_str.h. */
#include "json_str.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The escaper's one step (an ms_text_step of safe_text.h): how the next
 * character of s[0..left) (left > 0) is written. Returns the bytes it
 * takes; sets *esc_len to the length of its escape in esc, or to 0 when
 * those bytes are written as they are. */
static size_t escape_next(const unsigned char *s, size_t left, unsigned flags, char esc[8], size_t *esc_len)
{
    unsigned c = s[0];
    if (c == '"' || c == '\\') {
        esc[0] = '\\';
        esc[1] = (char)c;
        *esc_len = 2;
        return 1;
    }
    if ((flags & MS_JSON_SHORT_CONTROLS) && (c == '\n' || c == '\t' || c == '\r')) {
        esc[0] = '\\';
        esc[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
        *esc_len = 2;
        return 1;
    }
    if (c < 0x20 || c == 0x7f || ((flags & MS_JSON_IN_SCRIPT) && (c == '<' || c == '>' || c == '&'))) {
        *esc_len = (size_t)snprintf(esc, 8, "\\u%04x", c);
        return 1;
    }
    size_t n = ms_utf8_len(s, left);
    if (n == 0) {
        memcpy(esc, "\\ufffd", 6);
        *esc_len = 6;
        return 1;
    }
    if ((flags & MS_JSON_IN_SCRIPT) && n == 3 && s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9)) {
        *esc_len = (size_t)snprintf(esc, 8, "\\u%04x", s[2] == 0xa8 ? 0x2028u : 0x2029u);
        return n;
    }
    *esc_len = 0;
    return n;
}

static int put_file(void *ctx, const char *p, size_t n, int is_rep)
{
    (void)is_rep;
    fwrite(p, 1, n, (FILE *)ctx);
    return 0;
}

int ms_json_write_str(FILE *fp, const char *s, size_t len, unsigned flags)
{
    fputc('"', fp);
    ms_text_walk(s, len, escape_next, flags, 0, put_file, fp);
    fputc('"', fp);
    return 0;
}

int ms_json_put_str(FILE *fp, const char *s, size_t len)
{
    return ms_json_write_str(fp, s, len, 0);
}

int ms_json_append(char **buf, size_t *n, size_t *cap, const char *s, size_t len)
{
    if (*n + len + 1 > *cap) {
        size_t c = *cap ? *cap : 64;
        while (c < *n + len + 1)
            c *= 2;
        char *p = realloc(*buf, c);
        if (!p)
            return -1;
        *buf = p;
        *cap = c;
    }
    memcpy(*buf + *n, s, len);
    *n += len;
    (*buf)[*n] = '\0';
    return 0;
}

/* A growing buffer that ms_json_append_str fills. */
typedef struct grow_buf {
    char **buf;
    size_t *n, *cap;
} grow_buf;

static int put_grow(void *ctx, const char *p, size_t n, int is_rep)
{
    grow_buf *g = ctx;
    (void)is_rep;
    return ms_json_append(g->buf, g->n, g->cap, p, n);
}

int ms_json_append_str(char **buf, size_t *n, size_t *cap, const char *str, size_t len)
{
    grow_buf g = {.buf = buf, .n = n, .cap = cap};
    if (ms_json_append(buf, n, cap, "\"", 1) != 0 || ms_text_walk(str, len, escape_next, 0, 0, put_grow, &g) != len)
        return -1;
    return ms_json_append(buf, n, cap, "\"", 1);
}

void ms_json_put_double(FILE *fp, double v)
{
    if (isfinite(v))
        fprintf(fp, "%.9g", v);
    else
        fputs("null", fp);
}

void ms_json_put_num(FILE *fp, const char *key, double v)
{
    fprintf(fp, "\"%s\":", key);
    ms_json_put_double(fp, v);
}
