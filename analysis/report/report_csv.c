/* CSV reports: see report.h. Fields follow RFC 4180. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "../read/worlds.h"
#include "csv.h"
#include "report.h"

static void put_num(FILE *fp, double v)
{
    fprintf(fp, ",%.9g", isfinite(v) ? v : 0.0);
}

static void put_times(FILE *fp, const ms_summary *s)
{
    put_num(fp, s->total_s);
    put_num(fp, s->mean_s);
    put_num(fp, s->std_s);
    put_num(fp, s->min_s);
    put_num(fp, s->max_s);
    put_num(fp, s->p50_s);
    put_num(fp, s->p95_s);
    put_num(fp, s->p99_s);
}

int ms_report_csv(FILE *fp, const ms_run *run)
{
    fputs(MS_REGIONS_CSV_HEADER "\n", fp);
    for (size_t i = 0; i < run->nregions; i++) {
        const ms_region *g = &run->regions[i];
        const ms_region_info *f = &g->info;
        ms_csv_field(fp, g->name);
        if (f->is_mpi) {
            fputc(',', fp);
            ms_csv_field(fp, f->op);
            fputc(',', fp);
            ms_csv_field(fp, f->kind);
            fprintf(fp, ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",", f->bytes, f->peer,
                    f->root, f->tag, f->comm);
            ms_csv_field(fp, f->request);
        } else {
            fputs(",,,,,,,,", fp);
        }
        const ms_summary *s = &g->summary;
        fprintf(fp, ",%" PRIu32 ",%" PRIu64, s->ranks, s->calls);
        put_times(fp, s);
        put_num(fp, s->first_s);
        put_num(fp, s->last_s);
        put_num(fp, s->imbalance_pct);
        fputc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}

int ms_report_ranks_csv(FILE *fp, const ms_run *run)
{
    fputs(MS_RANKS_CSV_HEADER "\n", fp);
    for (size_t i = 0; i < run->nregions; i++) {
        const ms_region *g = &run->regions[i];
        for (size_t k = 0; k < g->nranks; k++) {
            const ms_region_rank *p = &g->ranks[k];
            ms_summary s;
            ms_stats_summarize(&p->stats, &s);
            ms_csv_field(fp, g->name);
            fprintf(fp, ",%s,%" PRIu64, ms_rank_s(run->ranks[p->rank_index].rank).s, s.calls);
            put_times(fp, &s);
            fputc('\n', fp);
        }
    }
    return ferror(fp) ? -1 : 0;
}

int ms_report_callsites_csv(FILE *fp, const ms_run *run)
{
    fputs(MS_CALLSITES_CSV_HEADER "\n", fp);
    for (size_t i = 0; i < run->ncallsites; i++) {
        const ms_callsite *c = &run->callsites[i];
        ms_csv_field(fp, c->region);
        fprintf(fp, ",%s,", ms_rank_s(c->rank).s);
        ms_csv_field(fp, c->function);
        fputc(',', fp);
        ms_csv_field(fp, c->file);
        fprintf(fp, ",%d,%" PRIu64, c->line, c->calls);
        put_num(fp, (double)c->total_ns * 1e-9);
        fputc('\n', fp);
    }
    return ferror(fp) ? -1 : 0;
}

/* --matrix-csv: the point-to-point traffic matrix (matrix.h), one row per
 * (src, dst) pair that exchanged at least one message, by src then dst. */
int ms_report_matrix_csv(FILE *fp, const ms_run *run)
{
    fputs(MS_MATRIX_CSV_HEADER "\n", fp);
    for (size_t i = 0; i < run->nmatrix; i++) {
        const ms_matrix_cell *c = &run->matrix[i];
        fprintf(fp, "%s,%s,%" PRIu64 ",%" PRIu64 "\n", ms_rank_s(c->src).s, ms_rank_s(c->dst).s, c->messages,
                c->bytes);
    }
    return ferror(fp) ? -1 : 0;
}
