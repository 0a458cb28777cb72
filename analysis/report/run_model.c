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
