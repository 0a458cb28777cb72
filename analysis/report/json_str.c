/* JSON strings: see json_str.h. */
#include "json_str.h"

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

int ms_json_append_str(char **buf, size_t *n, size_t *cap, const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    int rc = ms_json_append(buf, n, cap, "\"", 1);
    size_t i = 0;
    while (rc == 0 && i < len) {
        unsigned c = s[i];
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            rc = ms_json_append(buf, n, cap, esc, 2);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            rc = ms_json_append(buf, n, cap, esc, 6);
            i++;
        } else {
            size_t k = ms_utf8_len(s + i, len - i);
            if (k == 0) {
                rc = ms_json_append(buf, n, cap, "\\ufffd", 6);
                i++;
            } else {
                rc = ms_json_append(buf, n, cap, str + i, k);
                i += k;
            }
        }
    }
    return rc ? rc : ms_json_append(buf, n, cap, "\"", 1);
}

int ms_json_put_str(FILE *fp, const char *s, size_t len)
{
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int rc = ms_json_append_str(&buf, &n, &cap, s, len);
    if (rc == 0)
        fwrite(buf, 1, n, fp);
    free(buf);
    return rc;
}
