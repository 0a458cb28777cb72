/* MPI time per function and call site: see sites.h. */
#include "sites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "run_waits.h"
#include "../waits/waits.h"

/* One fact to sum: calls and time, or waiting, of a (op, location, rank). */
typedef struct item {
    const char *op, *kind;
    const char *loc;               /* NULL: no call site */
    const ms_callsite *at;
    int32_t rank;
    uint64_t calls, total_ns, wait_ns;
    uint64_t bytes;
    int has_bytes;
} item;

typedef struct items {
    item *v;
    size_t n, cap;
} items;

static int push(items *l, item x)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        item *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return 0;
}

static int loc_cmp(const char *a, const char *b)
{
    if (!a || !b)
        return a ? 1 : b ? -1 : 0;
    return strcmp(a, b);
}

static int item_cmp(const void *a, const void *b)
{
    const item *x = a, *y = b;
    int c = strcmp(x->op, y->op);
    if (c)
        return c;
    if ((c = loc_cmp(x->loc, y->loc)))
        return c;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int row_cmp(const void *a, const void *b)
{
    const ms_site_row *x = a, *y = b;
    if (x->total_ns != y->total_ns)
        return x->total_ns > y->total_ns ? -1 : 1;
    int c = strcmp(x->op, y->op);
    return c ? c : loc_cmp(x->at ? x->at->location : NULL, y->at ? y->at->location : NULL);
}

/* Whether items a and b fall in one row (per op, and per location when
 * by_loc). */
static int same_row(const item *a, const item *b, int by_loc)
{
    return strcmp(a->op, b->op) == 0 && (!by_loc || loc_cmp(a->loc, b->loc) == 0);
}

/* Sum the items (sorted) per (op, location): rows, total time
 * descending. by_loc 0: per op only. With ranks, each row's time per
 * rank in *ranks (malloc'ed), which its per_rank points into. */
static int sum_rows(const ms_run *run, items *l, int by_loc, int has_wait, ms_site_row **out, size_t *nout,
                    ms_site_rank **ranks)
{
    *out = NULL;
    *nout = 0;
    if (l->n == 0)
        return 0;
    qsort(l->v, l->n, sizeof *l->v, item_cmp);
    ms_site_row *rows = calloc(l->n, sizeof *rows);
    ms_site_rank *per_rank = malloc(l->n * sizeof *per_rank);
    uint64_t *totals = malloc(l->n * sizeof *totals);
    if (!rows || !per_rank || !totals) {
        free(rows);
        free(per_rank);
        free(totals);
        return -1;
    }
    size_t n = 0, nper = 0;
    for (size_t i = 0; i < l->n;) {
        const item *first = &l->v[i];
        ms_site_row *r = &rows[n];
        *r = (ms_site_row){.op = first->op, .kind = first->kind, .bytes = -1};
        uint64_t bytes = 0;
        int has_bytes = 0;
        size_t j = i, base = nper;
        while (j < l->n && same_row(&l->v[j], first, by_loc)) {
            int32_t rank = l->v[j].rank;
            uint64_t rank_ns = 0, rank_calls = 0;
            for (; j < l->n && l->v[j].rank == rank && same_row(&l->v[j], first, by_loc); j++) {
                const item *x = &l->v[j];
                if (!r->at && x->at)
                    r->at = x->at;
                rank_calls = ms_sat_add(rank_calls, x->calls);
                rank_ns = ms_sat_add(rank_ns, x->total_ns);
                r->wait_ns = ms_sat_add(r->wait_ns, x->wait_ns);
                bytes = ms_sat_add(bytes, x->bytes);
                has_bytes |= x->has_bytes;
            }
            r->calls = ms_sat_add(r->calls, rank_calls);
            r->total_ns = ms_sat_add(r->total_ns, rank_ns);
            if (rank_calls) {
                totals[r->ranks++] = rank_ns;
                per_rank[nper++] = (ms_site_rank){.rank = rank, .ns = rank_ns};
            }
        }
        if (has_bytes)
            r->bytes = bytes > INT64_MAX ? INT64_MAX : (int64_t)bytes;
        if (!by_loc)
            r->at = NULL;
        r->imbalance_pct = ms_imbalance_pct(totals, r->ranks);
        r->mpi_pct = run->mpi_ns ? 100.0 * (double)r->total_ns / (double)run->mpi_ns : 0.0;
        r->app_pct = run->app_ns ? 100.0 * (double)r->total_ns / (double)run->app_ns : 0.0;
        r->wait_pct = has_wait && r->total_ns ? 100.0 * (double)r->wait_ns / (double)r->total_ns : 0.0;
        if (r->wait_pct > 100.0)
            r->wait_pct = 100.0;
        /* per_rank never moves: it was sized for every item. */
        r->per_rank = ranks ? per_rank + base : NULL;
        /* A wait without calls (a region the analysis names that has no
         * time here) makes no row. */
        if (r->calls)
            n++;
        i = j;
    }
    free(totals);
    if (ranks)
        *ranks = per_rank;
    else
        free(per_rank);
    qsort(rows, n, sizeof *rows, row_cmp);
    *out = rows;
    *nout = n;
    return 0;
}

typedef struct named {
    const char *name;
    uint32_t i;
} named;

static int named_cmp(const void *a, const void *b)
{
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

/* Calls and time of each (MPI region, rank) by call site, and what the
 * call-site rows leave of the region's calls there (no call site). */
static int site_items(const ms_run *run, const named *idx, items *l)
{
    size_t c = 0;
    for (size_t gi = 0; gi < run->nregions; gi++) {
        const ms_region *g = &run->regions[idx[gi].i];
        if (!g->is_mpi || ms_region_lifecycle(g))
            continue;
        int has_bytes = g->info.is_mpi && g->info.bytes >= 0;
        /* Rows are sorted by region then rank, as idx is by name. */
        while (c < run->ncallsites && strcmp(run->callsites[c].region, g->name) < 0)
            c++;
        for (size_t p = 0; p < g->nranks; p++) {
            const ms_region_rank *part = &g->ranks[p];
            int32_t rank = run->ranks[part->rank_index].rank;
            uint64_t calls = 0, ns = 0;
            while (c < run->ncallsites && strcmp(run->callsites[c].region, g->name) == 0 &&
                   run->callsites[c].rank < rank)
                c++;
            for (; c < run->ncallsites && strcmp(run->callsites[c].region, g->name) == 0 &&
                   run->callsites[c].rank == rank;
                 c++) {
                const ms_callsite *s = &run->callsites[c];
                calls += s->calls;
                ns += s->total_ns;
                if (push(l, (item){.op = g->info.op, .kind = g->info.kind, .loc = s->location, .at = s, .rank = rank,
                                   .calls = s->calls, .total_ns = s->total_ns,
                                   .bytes = has_bytes ? ms_sat_mul((uint64_t)g->info.bytes, s->calls) : 0,
                                   .has_bytes = has_bytes}) != 0)
                    return -1;
            }
            uint64_t rest = part->stats.calls > calls ? part->stats.calls - calls : 0;
            uint64_t rest_ns = part->stats.total_ns > ns ? part->stats.total_ns - ns : 0;
            if (rest && push(l, (item){.op = g->info.op, .kind = g->info.kind, .rank = rank, .calls = rest,
                                       .total_ns = rest_ns,
                                       .bytes = has_bytes ? ms_sat_mul((uint64_t)g->info.bytes, rest) : 0,
                                       .has_bytes = has_bytes}) != 0)
                return -1;
        }
    }
    return 0;
}

/* The waiting of each (region at a call site, rank), from the analysis. */
static int wait_items(const ms_run *run, items *l, int by_loc)
{
    const ms_waits *w = run->waits;
    const ms_wx_row *rows = by_loc ? w->site_rows : w->rows;
    size_t n = by_loc ? w->nsite_rows : w->nrows;
    for (size_t i = 0; i < n; i++) {
        uint32_t g = by_loc ? ms_run_wait_key_region(run, rows[i].region) : rows[i].region;
        if (g == MS_WX_NONE || g >= run->nregions)
            continue;
        const ms_region *r = &run->regions[g];
        if (!r->is_mpi || ms_region_lifecycle(r))
            continue;
        if (push(l, (item){.op = r->info.op, .kind = r->info.kind,
                           .loc = by_loc ? ms_run_wait_key_location(run, rows[i].region) : NULL,
                           .rank = rows[i].rank, .wait_ns = rows[i].wait_ns}) != 0)
            return -1;
    }
    return 0;
}

/* Calls and time per (MPI region, rank): in the window for the functions,
 * outside it for start-up and shutdown. */
static int region_items(const ms_run *run, items *l, int lifecycle)
{
    for (size_t gi = 0; gi < run->nregions; gi++) {
        const ms_region *g = &run->regions[gi];
        if (!g->is_mpi || ms_region_lifecycle(g) != lifecycle)
            continue;
        int has_bytes = g->info.is_mpi && g->info.bytes >= 0;
        for (size_t p = 0; p < g->nranks; p++) {
            const ms_region_rank *part = &g->ranks[p];
            if (push(l, (item){.op = g->info.op, .kind = g->info.kind, .rank = run->ranks[part->rank_index].rank,
                               .calls = part->stats.calls, .total_ns = part->stats.total_ns,
                               .bytes = has_bytes ? ms_sat_mul((uint64_t)g->info.bytes, part->stats.calls) : 0,
                               .has_bytes = has_bytes}) != 0)
                return -1;
        }
    }
    return 0;
}

int ms_mpi_sites_build(const ms_run *run, ms_mpi_sites *s)
{
    memset(s, 0, sizeof *s);
    s->has_wait = run->waits != NULL;
    /* Regions by name, as the call-site rows are. */
    named *idx = malloc((run->nregions ? run->nregions : 1) * sizeof *idx);
    items l = {0};
    int rc = idx ? 0 : -1;
    for (size_t i = 0; idx && i < run->nregions; i++)
        idx[i] = (named){run->regions[i].name, (uint32_t)i};
    if (rc == 0) {
        qsort(idx, run->nregions, sizeof *idx, named_cmp);
        rc = site_items(run, idx, &l);
    }
    if (rc == 0 && run->waits)
        rc = wait_items(run, &l, 1);
    if (rc == 0)
        rc = sum_rows(run, &l, 1, s->has_wait, &s->sites, &s->nsites, &s->site_ranks);
    l.n = 0;
    if (rc == 0)
        rc = region_items(run, &l, 0);
    if (rc == 0 && run->waits)
        rc = wait_items(run, &l, 0);
    if (rc == 0)
        rc = sum_rows(run, &l, 0, s->has_wait, &s->functions, &s->nfunctions, NULL);
    l.n = 0;
    if (rc == 0)
        rc = region_items(run, &l, 1);
    if (rc == 0)
        rc = sum_rows(run, &l, 0, 0, &s->lifecycle, &s->nlifecycle, NULL);
    for (size_t i = 0; rc == 0 && i < s->nlifecycle; i++)
        s->lifecycle_ns = ms_sat_add(s->lifecycle_ns, s->lifecycle[i].total_ns);
    free(l.v);
    free(idx);
    if (rc != 0)
        ms_mpi_sites_free(s);
    return rc;
}
