/* HTML report: MPI time per call site and per function (run->sites,
 * analysis/reduce/sites.h; html_parts.h), the message regions of each site
 * and the per-rank totals of the top sites. The numbers are run->sites's,
 * and their texts are written here with the text report's rounding
 * (units.h), so that the page reads as the text report does. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../names.h"
#include "../report.h"
#include "../units.h"
#include "../../reduce/ops.h"
#include "../../reduce/sites.h"
#include "html_parts.h"

#define SITE_ROWS 100       /* rows of the call-site table */
#define SITE_REGIONS 12     /* message regions listed under a site */
#define IMBALANCE_SITES 8   /* sites charted per rank */
#define LABEL_WIDTH 72      /* columns of a call site's label */

static void put_key_str(FILE *fp, const char *key, const char *s)
{
    fprintf(fp, ",\"%s\":", key);
    ms_html_json_str(fp, s);
}

static void put_key_num(FILE *fp, const char *key, double v)
{
    fputc(',', fp);
    ms_json_put_num(fp, key, v);
}

/* The numbers of a row as the text report prints them ("text"). */
static void put_texts(FILE *fp, const ms_mpi_sites *s, const ms_site_row *r)
{
    ms_site_cells c;
    ms_site_cells_of(s, r, &c);
    fputs(",\"text\":{\"mpi\":", fp);
    ms_html_json_str(fp, c.mpi);
    put_key_str(fp, "app", c.app);
    put_key_str(fp, "total", c.total);
    put_key_str(fp, "calls", c.calls);
    put_key_str(fp, "imbalance", c.imbalance);
    put_key_str(fp, "waiting", c.wait);
    put_key_str(fp, "bytes", c.bytes);
    fputc('}', fp);
}

/* The members of a row of sites, functions or start-up and shutdown. */
static void put_row(FILE *fp, const ms_mpi_sites *s, const ms_site_row *r)
{
    char fn[128];
    ms_mpi_function(fn, sizeof fn, r->op);
    fputs("\"op\":", fp);
    ms_html_json_str(fp, r->op);
    put_key_str(fp, "call", fn);
    fprintf(fp, ",\"calls\":%" PRIu64 ",\"ranks\":%" PRIu32 ",\"total_ns\":%" PRIu64 ",\"bytes\":%" PRId64, r->calls,
            r->ranks, r->total_ns, r->bytes);
    put_key_num(fp, "mpi_pct", r->mpi_pct);
    put_key_num(fp, "app_pct", r->app_pct);
    put_key_num(fp, "imbalance_pct", r->imbalance_pct);
    if (s->has_wait)
        put_key_num(fp, "wait_pct", r->wait_pct);
    else
        fputs(",\"wait_pct\":null", fp);
    put_texts(fp, s, r);
}

/* The call site of a row: its label for people (shortened to
 * LABEL_WIDTH, never cut inside a name but at its end), the full label and
 * where it is. */
static void put_site(FILE *fp, const ms_callsite *at)
{
    char label[2304], full[4096];
    ms_site_label(label, sizeof label, at, LABEL_WIDTH);
    ms_site_label(full, sizeof full, at, 0);
    put_key_str(fp, "label", label);
    put_key_str(fp, "label_full", full);
    put_key_str(fp, "function", at ? at->function : "");
    put_key_str(fp, "file", at ? at->file : "");
    fprintf(fp, ",\"line\":%d", at ? at->line : 0);
    put_key_str(fp, "object", at ? at->object : "");
    put_key_str(fp, "location", at ? at->location : "");
}

typedef struct named {
    const char *name;
    const ms_region *g;
} named;

static int named_cmp(const void *a, const void *b)
{
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

static const ms_region *find_region(const named *idx, size_t n, const char *name)
{
    named key = {name, NULL};
    const named *hit = bsearch(&key, idx, n, sizeof *idx, named_cmp);
    return hit ? hit->g : NULL;
}

/* Whether call-site row c is one of row r's: an MPI region of r's op at
 * r's location. */
static const ms_region *of_site(const named *idx, size_t n, const ms_site_row *r, const char *region,
                                const char *location)
{
    if (!r->at || strcmp(location, r->at->location) != 0)
        return NULL;
    const ms_region *g = find_region(idx, n, region);
    return g && g->is_mpi && !ms_region_lifecycle(g) && strcmp(g->info.op, r->op) == 0 ? g : NULL;
}

static int place_cmp(const void *a, const void *b)
{
    const ms_site_place *x = *(const ms_site_place *const *)a, *y = *(const ms_site_place *const *)b;
    if (x->total_ns != y->total_ns)
        return x->total_ns > y->total_ns ? -1 : 1;
    return strcmp(x->row->region, y->row->region);
}

/* The message regions of a site (run->places of its op at its location),
 * most time first, their shares of the MPI and application time defined
 * as the sites' (sites.h). */
static int put_regions(FILE *fp, const ms_run *run, const named *idx, const ms_site_row *r,
                       const ms_site_place **v)
{
    size_t n = 0;
    for (size_t k = 0; k < run->nplaces; k++)
        if (of_site(idx, run->nregions, r, run->places[k].row->region, run->places[k].row->location))
            v[n++] = &run->places[k];
    qsort(v, n, sizeof *v, place_cmp);
    fprintf(fp, ",\"regions_total\":%zu,\"regions\":[", n);
    for (size_t k = 0; k < n && k < SITE_REGIONS; k++) {
        const ms_region *g = find_region(idx, run->nregions, v[k]->row->region);
        char name[2048], tot[32], calls[32], mpi[32], app[32];
        double mpi_pct = run->mpi_ns ? 100.0 * (double)v[k]->total_ns / (double)run->mpi_ns : 0.0;
        double app_pct = run->app_ns ? 100.0 * (double)v[k]->total_ns / (double)run->app_ns : 0.0;
        ms_fmt_pct(mpi, sizeof mpi, mpi_pct);
        ms_fmt_pct(app, sizeof app, app_pct);
        ms_short_name(run, name, sizeof name, g);
        ms_fmt_time(tot, sizeof tot, (double)v[k]->total_ns);
        ms_fmt_count(calls, sizeof calls, v[k]->calls);
        fputs(k ? ",{\"name\":" : "{\"name\":", fp);
        char full[2048];
        ms_long_name(run, full, sizeof full, g->name);   /* communicators by label */
        ms_html_json_str(fp, full);
        put_key_str(fp, "short", name);
        fprintf(fp, ",\"calls\":%" PRIu64 ",\"ranks\":%" PRIu32 ",\"total_ns\":%" PRIu64, v[k]->calls, v[k]->ranks,
                v[k]->total_ns);
        put_key_num(fp, "mpi_pct", mpi_pct);
        put_key_num(fp, "app_pct", app_pct);
        fputs(",\"text\":{\"total\":", fp);
        ms_html_json_str(fp, tot);
        put_key_str(fp, "mpi", mpi);
        put_key_str(fp, "app", app);
        put_key_str(fp, "calls", calls);
        fputs("}}", fp);
    }
    fputc(']', fp);
    return 0;
}

/* The site's time on each rank of run->ranks (sites.h: per_rank). */
static void site_per_rank(const ms_run *run, const ms_site_row *r, uint64_t *t)
{
    memset(t, 0, run->nranks * sizeof *t);
    for (uint32_t k = 0; k < r->ranks; k++) {
        const ms_rank_info *in = ms_run_rank(run, r->per_rank[k].rank);
        if (in)
            t[in - run->ranks] = r->per_rank[k].ns;
    }
}

/* "imbalance": the per-rank time of the top sites that more than one rank
 * called (IMBALANCE_SITES at most), in the order of run->ranks. */
static int put_imbalance(FILE *fp, const ms_run *run, const ms_mpi_sites *s)
{
    uint64_t *t = malloc((run->nranks ? run->nranks : 1) * sizeof *t);
    if (!t)
        return -1;
    fputs("\"imbalance\":[", fp);
    for (size_t i = 0, shown = 0; s && i < s->nsites && shown < IMBALANCE_SITES; i++) {
        const ms_site_row *r = &s->sites[i];
        if (r->ranks < 2)
            continue;
        char fn[128], label[2304], full[4096], name[4608], imb[32];
        ms_mpi_function(fn, sizeof fn, r->op);
        ms_site_label(label, sizeof label, r->at, LABEL_WIDTH);
        ms_site_label(full, sizeof full, r->at, 0);
        ms_fmt_pct(imb, sizeof imb, r->imbalance_pct);
        fputs(shown++ ? ",\n{\"name\":" : "{\"name\":", fp);
        snprintf(name, sizeof name, "%s at %s", fn, label);
        ms_html_json_str(fp, name);
        snprintf(name, sizeof name, "%s at %s", fn, full);
        put_key_str(fp, "full", name);
        put_key_num(fp, "imbalance_pct", r->imbalance_pct);
        put_key_str(fp, "imbalance_text", imb);
        fprintf(fp, ",\"total_ns\":%" PRIu64 ",\"totals_ns\":[", r->total_ns);
        site_per_rank(run, r, t);
        for (size_t k = 0; k < run->nranks; k++)
            fprintf(fp, "%s%" PRIu64, k ? "," : "", t[k]);
        fputs("]}", fp);
    }
    fputs("],\n", fp);
    free(t);
    return 0;
}

static void put_functions(FILE *fp, const ms_mpi_sites *s, const ms_site_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ",\n{" : "{", fp);
        put_row(fp, s, &rows[i]);
        fputc('}', fp);
    }
}

static int put_sites(FILE *fp, const ms_run *run, const ms_mpi_sites *s, const named *idx)
{
    const ms_site_place **v = malloc((run->nplaces ? run->nplaces : 1) * sizeof *v);
    if (!v)
        return -1;
    char mpi[32], app[32], life[32];
    ms_fmt_time(mpi, sizeof mpi, (double)run->mpi_ns);
    ms_fmt_time(app, sizeof app, (double)run->app_ns);
    ms_fmt_time(life, sizeof life, (double)(s ? s->lifecycle_ns : 0));
    fprintf(fp, "\"sites\":{\"mpi_ns\":%" PRIu64 ",\"app_ns\":%" PRIu64, run->mpi_ns, run->app_ns);
    put_key_str(fp, "mpi_text", mpi);
    put_key_str(fp, "app_text", app);
    fprintf(fp, ",\"has_wait\":%s,\"total\":%zu,\"rows\":[", s && s->has_wait ? "true" : "false", s ? s->nsites : 0);
    for (size_t i = 0; s && i < s->nsites && i < SITE_ROWS; i++) {
        fputs(i ? ",\n{" : "{", fp);
        put_row(fp, s, &s->sites[i]);
        put_site(fp, s->sites[i].at);
        put_regions(fp, run, idx, &s->sites[i], v);
        fputc('}', fp);
    }
    fputs("],\n\"functions\":[", fp);
    if (s)
        put_functions(fp, s, s->functions, s->nfunctions);
    fprintf(fp, "],\n\"lifecycle\":{\"total_ns\":%" PRIu64, s ? s->lifecycle_ns : 0);
    put_key_str(fp, "total_text", life);
    fputs(",\"functions\":[", fp);
    if (s)
        put_functions(fp, s, s->lifecycle, s->nlifecycle);
    fputs("]}},\n", fp);
    free(v);
    return 0;
}

int ms_html_sites(FILE *fp, const ms_run *run)
{
    named *idx = malloc((run->nregions ? run->nregions : 1) * sizeof *idx);
    if (!idx)
        return -1;
    for (size_t i = 0; i < run->nregions; i++)
        idx[i] = (named){run->regions[i].name, &run->regions[i]};
    qsort(idx, run->nregions, sizeof *idx, named_cmp);
    int rc = put_sites(fp, run, run->sites, idx);
    if (rc == 0)
        rc = put_imbalance(fp, run, run->sites);
    free(idx);
    return rc == 0 && !ferror(fp) ? 0 : -1;
}
