/* Numbers in words and text cells: see units.h. */
#include "units.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "names.h"

void ms_fmt_ns(char *buf, size_t cap, uint64_t ns)
{
    double v = (double)ns;
    if (v >= 1e9)
        snprintf(buf, cap, "%.3g s", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, cap, "%.3g ms", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, cap, "%.3g µs", v / 1e3);
    else
        snprintf(buf, cap, "%.0f ns", v);
}


void ms_cell(FILE *fp, const char *s, int width, int right)
{
    size_t c = ms_columns(s);
    size_t pad = (size_t)width > c ? (size_t)width - c : 0;
    if (right)
        fprintf(fp, "%*s%s", (int)pad, "", s);
    else
        fprintf(fp, "%s%*s", s, (int)pad, "");
}

/* A number with 3 significant digits, or more for values of 1000 and up. */
static void sig3(char *buf, size_t cap, double v, const char *unit)
{
    int dec = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
    snprintf(buf, cap, "%.*f %s", dec, v, unit);
}

void ms_fmt_time(char *buf, size_t cap, double ns)
{
    if (!isfinite(ns) || ns <= 0)
        snprintf(buf, cap, "0");
    else if (ns < 999.5)
        snprintf(buf, cap, "%.0f ns", ns);
    else if (ns < 999.5e3)
        sig3(buf, cap, ns / 1e3, "\xc2\xb5s");
    else if (ns < 999.5e6)
        sig3(buf, cap, ns / 1e6, "ms");
    else
        sig3(buf, cap, ns / 1e9, "s");
}

void ms_fmt_bytes(char *buf, size_t cap, double b)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (b < 1023.5) {
        snprintf(buf, cap, "%.0f B", b);
        return;
    }
    size_t u = 0;
    b /= 1024.0;
    while (b >= 1023.5 && u + 1 < sizeof units / sizeof units[0]) {
        b /= 1024.0;
        u++;
    }
    sig3(buf, cap, b, units[u]);
}

/* 2^k bytes, exactly: "512 B", "1 KiB", "64 MiB". */
void ms_fmt_pow2(char *buf, size_t cap, unsigned k)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    snprintf(buf, cap, "%llu %s", 1ull << (k % 10), units[k / 10]);
}

void ms_fmt_count(char *buf, size_t cap, uint64_t n)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%" PRIu64, n);
    size_t k = 0;
    for (int i = 0; i < len && k + 1 < cap; i++) {
        if (i > 0 && (len - i) % 3 == 0 && k + 2 < cap)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    if (cap)
        buf[k < cap ? k : cap - 1] = '\0';
}

void ms_fmt_pct(char *buf, size_t cap, double p)
{
    snprintf(buf, cap, "%.1f", isfinite(p) ? p : 0.0);
}

/* Copy s into dst (cap bytes), printable: white space becomes a space,
 * other control bytes '?'. */
void ms_printable(char *dst, size_t cap, const char *s)
{
    size_t i = 0;
    for (; *s && i + 1 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        dst[i++] = (c == '\t' || c == '\n' || c == '\r') ? ' ' : (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    dst[i] = '\0';
}

void ms_put_wrapped(FILE *fp, const char *s)
{
    ms_put_hanging(fp, s, 2, 2);
}

void ms_put_hanging(FILE *fp, const char *s, int first, int next)
{
    const size_t width = 98;
    int indent = first;
    while (*s) {
        size_t cols = 0, i = 0, brk = 0, room = width - (size_t)indent;
        while (s[i] && cols < room) {
            /* Never between a number and its unit. */
            if (s[i] == ' ' && i > 0 && !(s[i - 1] >= '0' && s[i - 1] <= '9'))
                brk = i;
            i++;
            while (((unsigned char)s[i] & 0xc0) == 0x80)
                i++;
            cols++;
        }
        if (s[i] && !(s[i] == ' ' && !(s[i - 1] >= '0' && s[i - 1] <= '9')) && brk > 0)
            i = brk;
        fprintf(fp, "%*s%.*s\n", indent, "", (int)i, s);
        s += i;
        while (*s == ' ')
            s++;
        indent = next;
    }
}
