/* The bounds of a timeline: see window.h. */
#include "window.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

int ms_window_parse_seconds(const char *s, int64_t *ns)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= 0.0) || !(v < 1e9))
        return -1;
    *ns = (int64_t)llround(v * 1e9);
    return 0;
}

/* A rank: decimal digits, below 2^31. */
static const char *parse_rank(const char *s, int32_t *out)
{
    if (*s < '0' || *s > '9')
        return NULL;
    int64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        if ((v = v * 10 + (*s - '0')) > INT32_MAX)
            return NULL;
    *out = (int32_t)v;
    return s;
}

int ms_window_parse_ranks(const char *s, ms_window *w)
{
    size_t n = 1;
    for (const char *p = s; *p; p++)
        n += *p == ',';
    ms_window_range *r = calloc(n, sizeof *r);
    if (!r)
        return -2;
    size_t k = 0;
    for (const char *p = s;; p++) {
        ms_window_range x;
        if (!(p = parse_rank(p, &x.lo))) {
            free(r);
            return -1;
        }
        x.hi = x.lo;
        if (*p == '-' && (!(p = parse_rank(p + 1, &x.hi)) || x.hi < x.lo)) {
            free(r);
            return -1;
        }
        r[k++] = x;
        if (*p == '\0')
            break;
        if (*p != ',') {
            free(r);
            return -1;
        }
    }
    free(w->ranges);
    w->ranges = r;
    w->nranges = k;
    return 0;
}

void ms_window_free(ms_window *w)
{
    free(w->ranges);
    w->ranges = NULL;
    w->nranges = 0;
}

int ms_window_bounds(const ms_window *w)
{
    return w && (w->timed || w->nranges);
}

int ms_window_rank(const ms_window *w, int32_t rank)
{
    if (!w || !w->nranges)
        return 1;
    for (size_t i = 0; i < w->nranges; i++)
        if (rank >= w->ranges[i].lo && rank <= w->ranges[i].hi)
            return 1;
    return 0;
}

int ms_window_time(const ms_window *w, int64_t start, int64_t end)
{
    return !w || !w->timed || (start >= w->from_ns && end <= w->to_ns);
}

double ms_window_share(const ms_window *w, int32_t rank, int64_t first_start, int64_t last_end)
{
    if (!ms_window_rank(w, rank))
        return 0.0;
    if (!w || !w->timed)
        return 1.0;
    if (last_end <= first_start)
        return ms_window_time(w, first_start, last_end) ? 1.0 : 0.0;
    int64_t a = first_start > w->from_ns ? first_start : w->from_ns;
    int64_t b = last_end < w->to_ns ? last_end : w->to_ns;
    return b > a ? (double)(b - a) / (double)(last_end - first_start) : 0.0;
}
