/* The run's model as JSON: see run_model.h. */
#include "run_model.h"

#include <inttypes.h>

#include "json_str.h"
#include "../reduce/tool_stalls.h"

/* A time member: "<name>_ns" as an integer, or "<name>_s" in seconds. */
static void put_time(FILE *fp, const ms_model_style *st, const char *name, uint64_t ns)
{
    if (st->ns) {
        fprintf(fp, "\"%s_ns\":%" PRIu64, name, ns);
        return;
    }
    char key[64];
    snprintf(key, sizeof key, "%s_s", name);
    ms_json_put_num(fp, key, (double)ns / 1e9);
}

void ms_model_run(FILE *fp, const ms_run *run, const ms_model_style *st)
{
    fputs("\"dir\":", fp);
    st->put_str(fp, run->dir);
    fprintf(fp, ",\"ranks\":%zu,\"world_size\":%" PRId32 ",\"hosts\":[", run->nranks, run->world_size);
    for (size_t i = 0; i < run->nhosts; i++) {
        if (i)
            fputc(',', fp);
        st->put_str(fp, run->hosts[i]);
    }
    fputs("],", fp);
    put_time(fp, st, "wall", run->wall_ns);
    fputc(',', fp);
    put_time(fp, st, "app", run->app_ns);
    fputc(',', fp);
    put_time(fp, st, "mpi", run->mpi_ns);
    fputc(',', fp);
    ms_json_put_num(fp, "mpi_pct", run->mpi_pct);
    fputc(',', fp);
    double stall_pct;
    put_time(fp, st, "tool_stall", ms_stall_total_ns(run, &stall_pct));
    fputc(',', fp);
    ms_json_put_num(fp, "tool_stall_pct", stall_pct);
    fputc(',', fp);
    ms_json_put_num(fp, "mpi_pct_min", run->mpi_pct_min);
    fputc(',', fp);
    ms_json_put_num(fp, "mpi_pct_mean", run->mpi_pct_mean);
    fputc(',', fp);
    ms_json_put_num(fp, "mpi_pct_max", run->mpi_pct_max);
    fprintf(fp, ",\"events\":%" PRIu64, run->events);
}

void ms_model_rank_times(FILE *fp, const ms_run *run, const ms_rank_info *in, const ms_model_style *st)
{
    put_time(fp, st, "app", in->app_ns);
    fputc(',', fp);
    put_time(fp, st, "mpi", in->mpi_ns);
    fputc(',', fp);
    ms_json_put_num(fp, "mpi_pct", in->mpi_pct);
    fputc(',', fp);
    put_time(fp, st, "wall", in->wall_ns);
    fputc(',', fp);
    put_time(fp, st, "tool_stall", ms_stall_rank_ns(run, (size_t)(in - run->ranks), NULL));
}

/* A time member that the run counts in seconds: "<name>_s", or
 * "<name>_ns" as the same number of ns. */
static void put_secs(FILE *fp, const ms_model_style *st, const char *name, double secs)
{
    char key[64];
    snprintf(key, sizeof key, "%s_%s", name, st->ns ? "ns" : "s");
    ms_json_put_num(fp, key, st->ns ? secs * 1e9 : secs);
}

/* A time member that the run counts in ns: "<name>_s" in seconds, or
 * "<name>_ns" as an integer. */
static void put_ns(FILE *fp, const ms_model_style *st, const char *name, uint64_t ns)
{
    if (st->ns)
        fprintf(fp, "\"%s_ns\":%" PRIu64, name, ns);
    else
        put_secs(fp, st, name, (double)ns / 1e9);
}

void ms_model_nums(FILE *fp, const ms_model_nums_of *of, const ms_model_num *list, const ms_model_style *st)
{
    const ms_summary *s = of->s;
    for (const ms_model_num *n = list; *n != MS_MN_END; n++) {
        if (n != list)
            fputc(',', fp);
        switch (*n) {
        case MS_MN_END: break;
        case MS_MN_CALLS: fprintf(fp, "\"calls\":%" PRIu64, s->calls); break;
        case MS_MN_RANKS: fprintf(fp, "\"ranks\":%" PRIu32, s->ranks); break;
        case MS_MN_TOTAL:
            if (st->ns)
                put_ns(fp, st, "total", of->total_ns);
            else
                put_secs(fp, st, "total", s->total_s);
            break;
        case MS_MN_MEAN: put_secs(fp, st, "mean", s->mean_s); break;
        case MS_MN_STD: put_secs(fp, st, "std", s->std_s); break;
        case MS_MN_MIN: put_secs(fp, st, "min", s->min_s); break;
        case MS_MN_MAX: put_secs(fp, st, "max", s->max_s); break;
        case MS_MN_P50: put_secs(fp, st, "p50", s->p50_s); break;
        case MS_MN_P95: put_secs(fp, st, "p95", s->p95_s); break;
        case MS_MN_P99: put_secs(fp, st, "p99", s->p99_s); break;
        case MS_MN_FIRST: put_secs(fp, st, "first", s->first_s); break;
        case MS_MN_LAST: put_secs(fp, st, "last", s->last_s); break;
        case MS_MN_IMBALANCE: ms_json_put_num(fp, "imbalance_pct", s->imbalance_pct); break;
        case MS_MN_WINDOW: put_ns(fp, st, "mpi_window", of->window_ns); break;
        case MS_MN_EXCL: put_ns(fp, st, "excl_total", of->excl_ns); break;
        case MS_MN_TOTAL_NS: fprintf(fp, "\"total_ns\":%" PRIu64, of->total_ns); break;
        case MS_MN_EXCL_NS: fprintf(fp, "\"excl_total_ns\":%" PRIu64, of->excl_ns); break;
        }
    }
}

void ms_model_region_nums(FILE *fp, const ms_region *g, const ms_model_num *list, const ms_model_style *st)
{
    ms_model_nums_of of = {.s = &g->summary, .total_ns = g->total_ns, .excl_ns = g->excl_ns,
                           .window_ns = g->window_ns};
    ms_model_nums(fp, &of, list, st);
}

void ms_model_regions(FILE *fp, const ms_run *run, const ms_model_rows *rows, const ms_model_style *st)
{
    for (size_t i = 0, n = 0; i < run->nregions && (!rows->max || n < rows->max); i++) {
        const ms_region *g = &run->regions[i];
        if (rows->keep && !rows->keep(g))
            continue;
        fputs(n++ ? ",\n" : rows->first, fp);
        fputc('{', fp);
        rows->row(fp, run, g, st);
        fputc('}', fp);
    }
}

size_t ms_model_regions_kept(const ms_run *run, int (*keep)(const ms_region *g))
{
    size_t n = 0;
    for (size_t i = 0; i < run->nregions; i++)
        n += !keep || keep(&run->regions[i]);
    return n;
}
