/*
 * MPI time per function and call site in the reports (run->sites,
 * analysis/reduce/sites.h):
 *   sites_csv   the --sites-csv table (MS_SITES_CSV_HEADER)
 *   sites_text  the text report's first tables: "MPI time by call site",
 *               "MPI time by function", start-up and shutdown, and the
 *               message regions of the top sites
 *   sites_json  the members "sites", "functions" and "startup_shutdown"
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "json_str.h"
#include "names.h"
#include "report.h"
#include "units.h"
#include "../reduce/ops.h"
#include "../reduce/sites.h"

#define TEXT_SITES 20
#define TEXT_FUNCTIONS 20
#define DRILL_SITES 5
#define DRILL_REGIONS 5
#define LINE_WIDTH 100

static void put_pct_csv(FILE *fp, double v)
{
    fprintf(fp, ",%.6f", v);
}

int ms_report_sites_csv(FILE *fp, const ms_run *run)
{
    fputs(MS_SITES_CSV_HEADER "\n", fp);
    const ms_mpi_sites *s = run->sites;
    for (size_t i = 0; s && i < s->nsites; i++) {
        const ms_site_row *r = &s->sites[i];
        ms_csv_field(fp, r->op);
        fputc(',', fp);
        ms_csv_field(fp, r->at ? r->at->function : "");
        fputc(',', fp);
        ms_csv_field(fp, r->at ? r->at->file : "");
        fprintf(fp, ",%d,", r->at ? r->at->line : 0);
        ms_csv_field(fp, r->at ? r->at->object : "");
        fprintf(fp, ",%" PRIu64 ",%" PRIu32 ",%.9f", r->calls, r->ranks, (double)r->total_ns / 1e9);
        put_pct_csv(fp, r->mpi_pct);
        put_pct_csv(fp, r->app_pct);
        fprintf(fp, ",%" PRId64, r->bytes);
        put_pct_csv(fp, r->imbalance_pct);
        if (s->has_wait)
            put_pct_csv(fp, r->wait_pct);
        else
            fputc(',', fp);
        fputc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}

/* ---- JSON ---- */

static void json_str(FILE *fp, const char *s)
{
    ms_json_write_str(fp, s, strlen(s), MS_JSON_SHORT_CONTROLS);
}

static void json_row(FILE *fp, const ms_mpi_sites *s, const ms_site_row *r, int with_site, int with_wait)
{
    fputs("{\"operation\":", fp);
    json_str(fp, r->op);
    if (with_site) {
        fputs(",\"function\":", fp);
        json_str(fp, r->at ? r->at->function : "");
        fputs(",\"file\":", fp);
        json_str(fp, r->at ? r->at->file : "");
        fprintf(fp, ",\"line\":%d,\"object\":", r->at ? r->at->line : 0);
        json_str(fp, r->at ? r->at->object : "");
    }
    fprintf(fp, ",\"calls\":%" PRIu64 ",\"ranks\":%" PRIu32 ",\"total_s\":%.9f", r->calls, r->ranks,
            (double)r->total_ns / 1e9);
    /* Start-up and shutdown lie outside the MPI and application time. */
    if (with_wait)
        fprintf(fp, ",\"mpi_pct\":%.6f,\"app_pct\":%.6f", r->mpi_pct, r->app_pct);
    fprintf(fp, ",\"bytes\":%" PRId64 ",\"imbalance_pct\":%.6f", r->bytes, r->imbalance_pct);
    if (with_wait) {
        if (s->has_wait)
            fprintf(fp, ",\"wait_pct\":%.6f", r->wait_pct);
        else
            fputs(",\"wait_pct\":null", fp);
    }
    fputc('}', fp);
}

int ms_report_sites_json(FILE *fp, const ms_run *run)
{
    const ms_mpi_sites *s = run->sites;
    fputs("\"sites\":[", fp);
    for (size_t i = 0; s && i < s->nsites; i++) {
        fputs(i ? ",\n" : "\n", fp);
        json_row(fp, s, &s->sites[i], 1, 1);
    }
    fputs("],\n\"functions\":[", fp);
    for (size_t i = 0; s && i < s->nfunctions; i++) {
        fputs(i ? ",\n" : "\n", fp);
        json_row(fp, s, &s->functions[i], 0, 1);
    }
    fprintf(fp, "],\n\"startup_shutdown\":{\"total_s\":%.9f,\"functions\":[", s ? (double)s->lifecycle_ns / 1e9 : 0.0);
    for (size_t i = 0; s && i < s->nlifecycle; i++) {
        fputs(i ? "," : "", fp);
        json_row(fp, s, &s->lifecycle[i], 0, 0);
    }
    fputs("]}", fp);
    return ferror(fp) ? -1 : 0;
}

/* ---- text ---- */

/* "MPI_Waitall at main (halo.c:87)", shortened to fit `width` columns. */
static void call_and_site(char *buf, size_t cap, const ms_site_row *r, size_t width)
{
    char fn[128], site[4096];
    ms_mpi_function(fn, sizeof fn, r->op);
    size_t used = ms_columns(fn) + 4;
    ms_site_label(site, sizeof site, r->at, width > used + 12 ? width - used : 12);
    snprintf(buf, cap, "%s at %s", fn, site);
}

void ms_site_cells_of(const ms_mpi_sites *s, const ms_site_row *r, ms_site_cells *c)
{
    ms_fmt_pct(c->mpi, sizeof c->mpi, r->mpi_pct);
    ms_fmt_pct(c->app, sizeof c->app, r->app_pct);
    ms_fmt_time(c->total, sizeof c->total, (double)r->total_ns);
    ms_fmt_count(c->calls, sizeof c->calls, r->calls);
    snprintf(c->ranks, sizeof c->ranks, "%" PRIu32, r->ranks);
    ms_fmt_pct(c->imbalance, sizeof c->imbalance, r->imbalance_pct);
    if (s->has_wait)
        ms_fmt_pct(c->wait, sizeof c->wait, r->wait_pct);
    else
        snprintf(c->wait, sizeof c->wait, "-");
    if (r->bytes >= 0)
        ms_fmt_bytes(c->bytes, sizeof c->bytes, (double)r->bytes);
    else
        snprintf(c->bytes, sizeof c->bytes, "-");
}

/* The numbers of a row: % MPI, % app, total, calls, ranks, imbal %, wait %. */
static void numbers(FILE *fp, const ms_mpi_sites *s, const ms_site_row *r)
{
    ms_site_cells c;
    ms_site_cells_of(s, r, &c);
    fputs("  ", fp);
    ms_cell(fp, c.mpi, 6, 1);
    ms_cell(fp, c.app, 7, 1);
    ms_cell(fp, c.total, 10, 1);
    ms_cell(fp, c.calls, 13, 1);
    ms_cell(fp, c.ranks, 7, 1);
    ms_cell(fp, c.imbalance, 8, 1);
    ms_cell(fp, c.wait, 8, 1);
    fputs("  ", fp);
}

#define NUMBERS_HEAD "   % MPI  % app     total        calls  ranks imbal %  wait %  "
#define NUMBERS_WIDTH 63

static void denominators(FILE *fp, const ms_run *run)
{
    char m[32], a[32];
    ms_fmt_time(m, sizeof m, (double)run->mpi_ns);
    ms_fmt_time(a, sizeof a, (double)run->app_ns);
    fprintf(fp, "  (%% MPI: of the MPI time, %s; %% app: of the application time, %s; both summed over ranks)\n", m,
            a);
}

static void sites_table(FILE *fp, const ms_run *run, const ms_mpi_sites *s)
{
    size_t n = s->nsites < TEXT_SITES ? s->nsites : TEXT_SITES;
    char count[32], of[32];
    ms_fmt_count(count, sizeof count, n);
    ms_fmt_count(of, sizeof of, s->nsites);
    fprintf(fp, "\nMPI time by call site (%s of %s)\n", count, of);
    if (s->nsites == 0) {
        fputs("  (no MPI calls between MPI_Init and MPI_Finalize)\n", fp);
        return;
    }
    fputs(NUMBERS_HEAD "call and site\n", fp);
    for (size_t i = 0; i < n; i++) {
        char label[4352];
        call_and_site(label, sizeof label, &s->sites[i], LINE_WIDTH - NUMBERS_WIDTH - 2);
        numbers(fp, s, &s->sites[i]);
        fprintf(fp, "%s\n", label);
    }
    denominators(fp, run);
    fputs("  (imbal %: the busiest rank's time at the site over the mean rank's, less 1; wait %: of the\n"
          "  site's time, waiting for other ranks (wait states below); --sites-csv lists every site)\n",
          fp);
}

static void functions_table(FILE *fp, const ms_mpi_sites *s)
{
    if (s->nfunctions == 0)
        return;
    fputs("\nMPI time by function\n", fp);
    fputs(NUMBERS_HEAD "     bytes  function\n", fp);
    size_t n = s->nfunctions < TEXT_FUNCTIONS ? s->nfunctions : TEXT_FUNCTIONS;
    for (size_t i = 0; i < n; i++) {
        const ms_site_row *r = &s->functions[i];
        char fn[128];
        ms_site_cells c;
        ms_mpi_function(fn, sizeof fn, r->op);
        ms_site_cells_of(s, r, &c);
        numbers(fp, s, r);
        ms_cell(fp, c.bytes, 10, 1);
        char f[160];
        ms_printable(f, sizeof f, fn);
        fprintf(fp, "  %s\n", f);
    }
    if (s->nfunctions > n)
        fprintf(fp, "  ... %zu more (--json \"functions\" lists all)\n", s->nfunctions - n);
}

static void lifecycle_line(FILE *fp, const ms_mpi_sites *s)
{
    if (s->nlifecycle == 0)
        return;
    char tot[32];
    ms_fmt_time(tot, sizeof tot, (double)s->lifecycle_ns);
    fprintf(fp, "\nStart-up and shutdown: %s, all ranks (not in the application or MPI time above)\n", tot);
    for (size_t i = 0; i < s->nlifecycle; i++) {
        char fn[128], t[32], c[32];
        ms_mpi_function(fn, sizeof fn, s->lifecycle[i].op);
        ms_fmt_time(t, sizeof t, (double)s->lifecycle[i].total_ns);
        ms_fmt_count(c, sizeof c, s->lifecycle[i].calls);
        fprintf(fp, "  %s %s (%s call%s)\n", fn, t, c, s->lifecycle[i].calls == 1 ? "" : "s");
    }
}

static int place_time_cmp(const void *a, const void *b)
{
    const ms_site_place *x = *(const ms_site_place *const *)a, *y = *(const ms_site_place *const *)b;
    if (x->total_ns != y->total_ns)
        return x->total_ns > y->total_ns ? -1 : 1;
    return strcmp(x->row->region, y->row->region);
}

static const ms_region *region_named(const ms_run *run, const char *name)
{
    for (size_t i = 0; i < run->nregions; i++)
        if (strcmp(run->regions[i].name, name) == 0)
            return &run->regions[i];
    return NULL;
}

/* The message regions (the finest grain) of the top sites. */
static int drill_down(FILE *fp, const ms_run *run, const ms_mpi_sites *s)
{
    if (run->nplaces == 0 || s->nsites == 0)
        return 0;
    const ms_site_place **v = malloc(run->nplaces * sizeof *v);
    if (!v)
        return -1;
    int header = 0;
    for (size_t i = 0, shown = 0; i < s->nsites && shown < DRILL_SITES; i++) {
        const ms_site_row *r = &s->sites[i];
        if (!r->at)
            continue;
        size_t n = 0;
        for (size_t k = 0; k < run->nplaces; k++) {
            const ms_site_place *p = &run->places[k];
            if (strcmp(p->row->location, r->at->location) != 0)
                continue;
            const ms_region *g = region_named(run, p->row->region);
            if (g && g->info.is_mpi && strcmp(g->info.op, r->op) == 0)
                v[n++] = p;
        }
        if (n == 0)
            continue;
        qsort(v, n, sizeof *v, place_time_cmp);
        if (!header) {
            fputs("\nMessage regions at the top call sites (calls over all ranks; --csv has each region over ranks)\n",
                  fp);
            header = 1;
        }
        char label[4352];
        call_and_site(label, sizeof label, r, LINE_WIDTH - 2);
        fprintf(fp, "  %s\n", label);
        for (size_t k = 0; k < n && k < DRILL_REGIONS; k++) {
            char tot[32], calls[32], name[4096], clean[4096];
            const ms_region *g = region_named(run, v[k]->row->region);
            ms_fmt_time(tot, sizeof tot, (double)v[k]->total_ns);
            ms_fmt_count(calls, sizeof calls, v[k]->calls);
            ms_short_name(run, name, sizeof name, g);
            ms_printable(clean, sizeof clean, name);
            fputs("  ", fp);
            ms_cell(fp, tot, 12, 1);
            ms_cell(fp, calls, 13, 1);
            fprintf(fp, "  %s\n", clean);
        }
        if (n > DRILL_REGIONS)
            fprintf(fp, "  %25s  ... %zu more regions at this site\n", "", n - DRILL_REGIONS);
        shown++;
    }
    free(v);
    return 0;
}

int ms_report_sites_text(FILE *fp, const ms_run *run)
{
    const ms_mpi_sites *s = run->sites;
    if (!s)
        return 0;
    sites_table(fp, run, s);
    functions_table(fp, s);
    lifecycle_line(fp, s);
    if (drill_down(fp, run, s) != 0)
        return -1;
    return ferror(fp) ? -1 : 0;
}
