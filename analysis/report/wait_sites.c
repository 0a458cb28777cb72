/* The wait states and the critical path per call site: see wait_sites.h. */
#include "wait_sites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "../reduce/ops.h"
#include "../reduce/run_waits.h"
#include "../waits/waits.h"

typedef ms_wait_site group;

static int loc_cmp(const char *a, const char *b)
{
    if (!a || !b)
        return a ? 1 : b ? -1 : 0;
    return strcmp(a, b);
}

static int group_cmp(const void *a, const void *b)
{
    const group *x = a, *y = b;
    if (x->pattern != y->pattern)
        return x->pattern < y->pattern ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    int c = strcmp(x->call, y->call);
    if (c || (c = loc_cmp(x->loc, y->loc)))
        return c;
    return x->cause < y->cause ? -1 : x->cause > y->cause;
}

static int group_time_cmp(const void *a, const void *b)
{
    const group *x = a, *y = b;
    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    return group_cmp(a, b);
}

static int same(const group *a, const group *b)
{
    return a->pattern == b->pattern && a->rank == b->rank && strcmp(a->call, b->call) == 0 &&
           loc_cmp(a->loc, b->loc) == 0;
}

static int root_cmp(const void *a, const void *b)
{
    const group *x = a, *y = b;
    return x->root < y->root ? -1 : x->root > y->root;
}

/* The root cause of most of g[0..n)'s time (their root_ns summed per
 * root; of equal time, the lower rank), and that time. Reorders g. */
static int32_t root_of(group *g, size_t n, uint64_t *ns)
{
    qsort(g, n, sizeof *g, root_cmp);
    int32_t root = -1;
    *ns = 0;
    for (size_t i = 0; i < n;) {
        uint64_t by = 0;
        size_t j = i;
        for (; j < n && g[j].root == g[i].root; j++)
            by += g[j].root_ns;
        if (g[i].root >= 0 && by > *ns) {
            *ns = by;
            root = g[i].root;
        }
        i = j;
    }
    return root;
}

/* g[0..n) summed per (pattern, rank, call, site), each with the cause and
 * the root cause of most of its time; most time first. Their count. */
static size_t sum_groups(group *g, size_t n)
{
    qsort(g, n, sizeof *g, group_cmp);
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        group sum = g[i];
        sum.instances = sum.ns = sum.cause_ns = 0;
        uint64_t best = 0;
        size_t j = i;
        while (j < n && same(&g[j], &sum)) {
            uint64_t by = 0;
            int32_t cause = g[j].cause;
            for (; j < n && same(&g[j], &sum) && g[j].cause == cause; j++) {
                sum.instances += g[j].instances;
                sum.ns += g[j].ns;
                by += g[j].cause_ns;
            }
            if (by > best) {
                best = by;
                sum.cause = cause;
            }
        }
        sum.root = root_of(g + i, j - i, &sum.root_ns);
        g[k++] = sum;
        i = j;
    }
    qsort(g, k, sizeof *g, group_time_cmp);
    return k;
}

/* "MPI_Recv" for an MPI region, a user region's short name, "(compute)". */
static void call_of(char *buf, size_t cap, const ms_run *run, uint32_t region)
{
    if (region >= run->nregions)
        snprintf(buf, cap, "(compute)");
    else if (run->regions[region].info.is_mpi && run->regions[region].info.op[0])
        ms_mpi_function(buf, cap, run->regions[region].info.op);
    else
        ms_short_name(run, buf, cap, &run->regions[region]);
}

/* A group of key k of the analysis: site_rows and path_sites name a region
 * at a call site; without them (rows, path_regions) a region, placed at its
 * call site of most time on the rank. */
static void group_of(group *g, const ms_run *run, uint32_t k, int keyed, int32_t rank)
{
    g->region = keyed ? ms_run_wait_key_region(run, k) : (k < run->nregions ? k : MS_WX_NONE);
    if (keyed) {
        g->loc = ms_run_wait_key_location(run, k);
    } else if (g->region != MS_WX_NONE) {
        const ms_callsite *c = ms_callsite_top(run->callsites, run->ncallsites, run->regions[g->region].name, rank);
        g->loc = c ? c->location : NULL;
    }
    call_of(g->call, sizeof g->call, run, g->region);
}

void ms_wait_site_of_key(ms_wait_site *g, const ms_run *run, uint32_t k)
{
    *g = (group){.root = -1};
    group_of(g, run, k, 1, -1);
}

const ms_callsite *ms_wait_site_at(const ms_run *run, const group *g)
{
    if (!g->loc || g->region >= run->nregions)
        return NULL;
    const ms_site_place *p = ms_site_place_find(run->places, run->nplaces, run->regions[g->region].name, g->loc);
    return p ? p->row : NULL;
}

int ms_wait_sites_rows(const ms_run *run, ms_wait_site **out, size_t *n)
{
    const ms_waits *w = run->waits;
    *out = NULL;
    *n = 0;
    if (!w)
        return 0;
    int keyed = w->site_rows != NULL;
    const ms_wx_row *rows = keyed ? w->site_rows : w->rows;
    size_t nrows = keyed ? w->nsite_rows : w->nrows;
    group *g = malloc((nrows ? nrows : 1) * sizeof *g);
    if (!g)
        return -1;
    for (size_t i = 0; i < nrows; i++) {
        const ms_wx_row *r = &rows[i];
        g[i] = (group){.pattern = r->pattern, .rank = r->rank, .cause = r->cause_rank, .root = r->root_rank,
                       .instances = r->instances, .ns = r->wait_ns, .cause_ns = r->wait_best,
                       .root_ns = r->root_best};
        group_of(&g[i], run, r->region, keyed, r->rank);
    }
    *n = sum_groups(g, nrows);
    *out = g;
    return 0;
}

int ms_wait_sites_path(const ms_run *run, ms_wait_site **out, size_t *n)
{
    const ms_waits *w = run->waits;
    *out = NULL;
    *n = 0;
    if (!w)
        return 0;
    int keyed = w->path_sites != NULL;
    const ms_wx_path_region *p = keyed ? w->path_sites : w->path_regions;
    size_t np = keyed ? w->npath_sites : w->npath_regions;
    group *g = malloc((np ? np : 1) * sizeof *g);
    if (!g)
        return -1;
    for (size_t i = 0; i < np; i++) {
        g[i] = (group){.ns = p[i].on_path_ns, .root = -1};
        group_of(&g[i], run, p[i].region, keyed, -1);
        if (!keyed)
            g[i].loc = NULL;  /* the path's regions: no call site known */
    }
    *n = sum_groups(g, np);
    *out = g;
    return 0;
}
