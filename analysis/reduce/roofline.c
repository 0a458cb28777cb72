/* Roofline points: see roofline.h. */
#include "roofline.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


/* Case-insensitive strstr; the position in hay, or NULL. */
static const char *find_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return p;
    return NULL;
}

/* The prefix factor of the characters just before `at` in [begin, at). */
static double prefix(const char *begin, const char *at, int binary_ok)
{
    int binary = 0;
    const char *p = at;
    if (binary_ok && p > begin && (p[-1] == 'i' || p[-1] == 'I')) {
        binary = 1;
        p--;
    }
    if (p == begin || !isalpha((unsigned char)p[-1]))
        return binary ? 0.0 : 1.0;
    double dec[] = {1e3, 1e6, 1e9, 1e12};
    double bin[] = {1024.0, 1048576.0, 1073741824.0, 1099511627776.0};
    const char *letters = "kmgt";
    const char *l = strchr(letters, tolower((unsigned char)p[-1]));
    if (!l || !*l)
        return 0.0;
    /* a longer word before the prefix ("Mem Bytes/s") is not a unit */
    if (p - 1 > begin && isalpha((unsigned char)p[-2]))
        return 0.0;
    size_t i = (size_t)(l - letters);
    return binary ? bin[i] : dec[i];
}

double ms_roofline_unit(const char *name, enum ms_rate_kind kind)
{
    const char *unit = strrchr(name, '[');
    if (!unit)
        unit = name;
    if (kind == MS_RATE_FLOPS) {
        const char *at = find_ci(unit, "flop/s");
        if (!at)
            at = find_ci(unit, "flops/s");
        if (!at)
            return 0.0;
        return prefix(unit, at, 0) / 1e9;
    }
    const char *at = find_ci(unit, "bytes/s");
    if (!at)
        at = find_ci(unit, "byte/s");
    if (!at)
        at = find_ci(unit, "b/s");
    if (!at)
        return 0.0;
    return prefix(unit, at, 1) / 1e9;
}

int ms_roofline_pick(const ms_counter_set *s, const char *want, enum ms_rate_kind kind)
{
    for (uint32_t i = s->nevents; i < s->n; i++) {
        const char *m = s->names[i];
        if (want) {
            if (strcmp(m, want) == 0)
                return (int)i;
        } else if (kind == MS_RATE_FLOPS ? find_ci(m, "flop/s") != NULL
                                         : find_ci(m, "bandwidth") && strstr(m, "/s")) {
            return (int)i;
        }
    }
    return -1;
}

static int point_cmp(const void *pa, const void *pb)
{
    const ms_roofline_point *a = pa, *b = pb;
    int ra = strcmp(a->region, MS_ROOFLINE_RUN) == 0, rb = strcmp(b->region, MS_ROOFLINE_RUN) == 0;
    if (ra != rb)
        return ra ? -1 : 1;
    int d = strcmp(a->region, b->region);
    if (d)
        return d;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return strcmp(a->flops_metric, b->flops_metric);
}

ms_roofline *ms_roofline_build(const ms_counters *c, const ms_roofline_opts *o)
{
    ms_roofline *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (c->nrows) {
        r->points = malloc(c->nrows * sizeof *r->points);
        if (!r->points) {
            free(r);
            return NULL;
        }
    }
    /* Rows are sorted by set, region, rank: a point is a run of rows. */
    for (size_t i = 0; i < c->nrows;) {
        const ms_counter_row *first = &c->rows[i];
        size_t j = i;
        while (j < c->nrows && c->rows[j].set == first->set && c->rows[j].rank == first->rank &&
               (!c->rows[j].region == !first->region) &&
               (!first->region || strcmp(c->rows[j].region, first->region) == 0))
            j++;
        const ms_counter_set *s = &c->sets[first->set];
        int fi = ms_roofline_pick(s, o->flops_metric, MS_RATE_FLOPS);
        int bi = ms_roofline_pick(s, o->bandwidth_metric, MS_RATE_BYTES);
        double fu = fi >= 0 ? ms_roofline_unit(s->names[fi], MS_RATE_FLOPS) : 0.0;
        double bu = bi >= 0 ? ms_roofline_unit(s->names[bi], MS_RATE_BYTES) : 0.0;
        if (fu > 0.0 && bu > 0.0) {
            ms_roofline_point p = {.region = first->region ? first->region : MS_ROOFLINE_RUN,
                                   .rank = first->rank,
                                   .flops_metric = s->names[fi],
                                   .bandwidth_metric = s->names[bi]};
            for (size_t k = i; k < j; k++) {
                p.gflops += c->rows[k].values[fi] * fu;
                p.gbs += c->rows[k].values[bi] * bu;
                if (c->rows[k].time_s > p.runtime_s)
                    p.runtime_s = c->rows[k].time_s;
            }
            if (isfinite(p.gflops) && isfinite(p.gbs) && p.gflops > 0.0 && p.gbs > 0.0) {
                p.ai = p.gflops / p.gbs;
                r->points[r->npoints++] = p;
            } else {
                r->nrejected++;
            }
        }
        i = j;
    }
    if (r->npoints > 1)
        qsort(r->points, r->npoints, sizeof *r->points, point_cmp);
    r->peak_gflops = o->peak_gflops;
    r->peak_gbs = o->peak_gbs;
    r->gflops_empirical = !(o->peak_gflops > 0.0);
    r->gbs_empirical = !(o->peak_gbs > 0.0);
    for (size_t k = 0; k < r->npoints; k++) {
        if (r->gflops_empirical && r->points[k].gflops > r->peak_gflops)
            r->peak_gflops = r->points[k].gflops;
        if (r->gbs_empirical && r->points[k].gbs > r->peak_gbs)
            r->peak_gbs = r->points[k].gbs;
    }
    return r;
}

void ms_roofline_free(ms_roofline *r)
{
    if (!r)
        return;
    free(r->points);
    free(r);
}
