/* JSON report: see report.h. Strings and numbers are written by json_str.h,
 * so the output is valid JSON for any input. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../read/worlds.h"
#include "json_str.h"
#include "report.h"
#include "report_spawn.h"
#include "run_model.h"

/* A string as the JSON report spells it: \n, \t and \r in short form. */
static void put_str(FILE *fp, const char *s)
{
    ms_json_write_str(fp, s, strlen(s), MS_JSON_SHORT_CONTROLS);
}

static void put_key(FILE *fp, const char *key)
{
    put_str(fp, key);
    fputc(':', fp);
}

/* A region's numbers, and those of its part on one rank (before and
 * after its first and last call's times). */
static const ms_model_num region_nums[] = {
    MS_MN_RANKS, MS_MN_CALLS, MS_MN_TOTAL, MS_MN_MEAN, MS_MN_STD, MS_MN_MIN, MS_MN_MAX, MS_MN_P50, MS_MN_P95,
    MS_MN_P99, MS_MN_FIRST, MS_MN_LAST, MS_MN_IMBALANCE, MS_MN_WINDOW, MS_MN_EXCL, MS_MN_TOTAL_NS, MS_MN_EXCL_NS,
    MS_MN_END,
};
static const ms_model_num rank_nums[] = {
    MS_MN_CALLS, MS_MN_TOTAL, MS_MN_MEAN, MS_MN_STD, MS_MN_MIN, MS_MN_MAX, MS_MN_P50, MS_MN_P95, MS_MN_P99,
    MS_MN_FIRST, MS_MN_LAST, MS_MN_END,
};
static const ms_model_num rank_totals[] = {MS_MN_EXCL, MS_MN_TOTAL_NS, MS_MN_EXCL_NS, MS_MN_END};

static double rel_s(const ms_run *run, int64_t t)
{
    return ((double)t - (double)run->origin) / 1e9;
}

/* The run's model in seconds, strings in the JSON report's spelling. */
static const ms_model_style json_style = {.ns = 0, .put_str = put_str};

static void put_run(FILE *fp, const ms_run *run)
{
    fputs("\"run\":{", fp);
    ms_model_run(fp, run, &json_style);
    fputs(",\"start_realtime_ns\":", fp);
    if (run->has_events)
        fprintf(fp, "%" PRId64, run->origin);
    else
        fputs("null", fp);
    fputc('}', fp);
}

/* ,"spawned_worlds":[{"dir","ranks"}] when the run spawned worlds (report_spawn.h). */
static void put_spawned(FILE *fp, const ms_run *run)
{
    if (ms_worlds_count()) {
        /* Read as one run (--with-spawned): each world's ranks. */
        fputs(",\n\"worlds\":[", fp);
        for (size_t i = 0; i < ms_worlds_count(); i++) {
            const ms_world *v = ms_world_at(i);
            char sub[32] = "";
            if (v->k)
                snprintf(sub, sizeof sub, "spawn-%u", v->k);
            fprintf(fp, "%s{\"world\":%" PRIu32 ",", i ? "," : "", v->index);
            put_key(fp, "dir");
            put_str(fp, sub);
            fprintf(fp, ",\"first_rank\":%" PRId32 ",\"ranks\":%" PRId32 ",\"parent\":", v->offset, v->size);
            if (v->parent >= 0)
                fprintf(fp, "%" PRId32 "}", v->parent);
            else
                fputs("null}", fp);
        }
        fputc(']', fp);
        return;
    }
    ms_spawned_world *w = NULL;
    size_t n = ms_spawned_worlds(run->dir, &w);
    if (!n)
        return;
    fputs(",\n\"spawned_worlds\":[", fp);
    for (size_t i = 0; i < n; i++) {
        char sub[32];
        snprintf(sub, sizeof sub, "spawn-%u", w[i].k);
        fputs(i ? ",{" : "{", fp);
        put_key(fp, "dir");
        put_str(fp, sub);
        fprintf(fp, ",\"ranks\":%zu}", w[i].logs);
    }
    fputc(']', fp);
    free(w);
}

static void put_rank(FILE *fp, const ms_run *run, const ms_rank_info *in)
{
    fprintf(fp, "{\"rank\":%" PRId32 ",\"size\":%" PRId32 ",\"pid\":%" PRId64 ",", in->rank, in->size, in->pid);
    static const struct { const char *key; size_t off; } strs[] = {
        {"file", offsetof(ms_rank_info, file)},
        {"host", offsetof(ms_rank_info, host)},
        {"mpi_library", offsetof(ms_rank_info, mpi_library)},
        {"argv0", offsetof(ms_rank_info, argv0)},
        {"run_dir", offsetof(ms_rank_info, run_dir)},
        {"clock", offsetof(ms_rank_info, clock)},
    };
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
        put_key(fp, strs[i].key);
        put_str(fp, *(char *const *)((const char *)in + strs[i].off));
        fputc(',', fp);
    }
    fprintf(fp, "\"mode\":\"%s\",\"status\":\"%s\",\"finalized\":%s,\"threads\":%" PRIu32
                ",\"events\":%" PRIu64 ",\"dropped\":%" PRIu64 ",",
            in->mode == MS_MODE_SUMMARY ? "summary" : "trace", ms_read_status_str(in->status),
            in->finalized ? "true" : "false", in->threads, in->events, in->dropped);
    ms_model_rank_times(fp, run, in, &json_style);
    static const char *const models[] = {"none", "offset", "offset+drift"};
    fprintf(fp, ",\"clock_sync\":\"%s\",\"clock_offset_ns\":%" PRId64 ",",
            in->align.same_clock ? "host" : models[in->align.model],
            ms_clock_ahead_ns(&in->align));
    ms_json_put_num(fp, "clock_drift_ppm", ms_clock_drift_ppm(&in->align));
    fprintf(fp, ",\"clock_error_ns\":%" PRId64, ms_clock_error_ns(&in->align));
    if (in->has_events) {
        fputc(',', fp);
        ms_json_put_num(fp, "start_s", rel_s(run, in->first_start));
        fputc(',', fp);
        ms_json_put_num(fp, "end_s", rel_s(run, in->last_end));
    }
    fputc('}', fp);
}

static void put_site(FILE *fp, const ms_callsite *c)
{
    fputs("\"function\":", fp);
    put_str(fp, c->function);
    fputs(",\"file\":", fp);
    put_str(fp, c->file);
    fprintf(fp, ",\"line\":%d,\"text\":", c->line);
    put_str(fp, c->text);
    fputs(",\"location\":", fp);
    put_str(fp, c->location);
    fputs(",\"object\":", fp);
    put_str(fp, c->object);
    fprintf(fp, ",\"object_changed\":%s,\"object_missing\":%s", c->object_changed ? "true" : "false",
            c->object_missing ? "true" : "false");
}

/* The region's source (its dominant call site, as scope-profiler's fields)
 * and its call sites over ranks. */
static void put_sources(FILE *fp, const ms_run *run, const char *region)
{
    size_t first, n = ms_site_places_of(run->places, run->nplaces, region, &first);
    const ms_callsite *d = n ? run->places[first].row : NULL;
    fprintf(fp, ",\"has_source\":%s,\"source_file\":", d && d->line > 0 ? "true" : "false");
    if (d && d->line > 0) {
        put_str(fp, d->file);
        fprintf(fp, ",\"source_lineno\":%d,\"source_text\":", d->line);
        put_str(fp, d->text);
    } else {
        fputs("null,\"source_lineno\":null,\"source_text\":null", fp);
    }
    fputs(",\"callsites\":[", fp);
    for (size_t i = 0; i < n; i++) {
        const ms_site_place *p = &run->places[first + i];
        fputs(i ? ",{" : "{", fp);
        put_site(fp, p->row);
        fprintf(fp, ",\"ranks\":%" PRIu32 ",\"calls\":%" PRIu64 ",", p->ranks, p->calls);
        ms_json_put_num(fp, "total_s", (double)p->total_ns / 1e9);
        fputc('}', fp);
    }
    fputc(']', fp);
}

static void put_region(FILE *fp, const ms_run *run, const ms_region *g, const ms_model_style *st)
{
    const ms_region_info *f = &g->info;
    put_key(fp, "name");
    put_str(fp, g->name);
    if (f->is_mpi) {
        fputs(",\"operation\":", fp);
        put_str(fp, f->op);
        fputs(",\"kind\":", fp);
        put_str(fp, f->kind);
        fprintf(fp, ",\"bytes\":%" PRId64 ",\"peer\":%" PRId64 ",\"root\":%" PRId64 ",\"tag\":%" PRId64
                    ",\"comm\":%" PRId64 ",\"request\":",
                f->bytes, f->peer, f->root, f->tag, f->comm);
        if (f->request[0])
            put_str(fp, f->request);
        else
            fputs("null", fp);
    } else {
        fputs(",\"operation\":null,\"kind\":null,\"bytes\":null,\"peer\":null,\"root\":null,"
              "\"tag\":null,\"comm\":null,\"request\":null",
              fp);
    }
    fprintf(fp, ",\"mpi\":%s,", g->is_mpi ? "true" : "false");
    ms_model_region_nums(fp, g, region_nums, st);
    put_sources(fp, run, g->name);
    fputs(",\"per_rank\":[", fp);
    for (size_t k = 0; k < g->nranks; k++) {
        const ms_region_rank *p = &g->ranks[k];
        ms_summary s;
        ms_stats_summarize(&p->stats, &s);
        ms_model_nums_of of = {.s = &s, .total_ns = p->stats.total_ns, .excl_ns = p->excl_ns, .window_ns = 0};
        fprintf(fp, "%s{\"rank\":%" PRId32 ",", k ? "," : "", run->ranks[p->rank_index].rank);
        ms_model_nums(fp, &of, rank_nums, st);
        fputc(',', fp);
        ms_json_put_num(fp, "first_start_s", rel_s(run, p->stats.first_start));
        fputc(',', fp);
        ms_json_put_num(fp, "last_end_s", rel_s(run, p->stats.last_end));
        fputc(',', fp);
        ms_model_nums(fp, &of, rank_totals, st);
        fputc('}', fp);
    }
    fputc(']', fp);
}

/* Every region, one row each. */
static const ms_model_rows region_rows = {.keep = NULL, .max = 0, .first = "\n", .row = put_region};

int ms_report_json(FILE *fp, const ms_run *run, const char *tool_version)
{
    fputs("{\"tool\":\"mpiscope-merge\",\"version\":", fp);
    put_str(fp, tool_version);
    fprintf(fp, ",\"format_version\":%u,\n", MS_FORMAT_VERSION);
    put_run(fp, run);
    put_spawned(fp, run);
    fputs(",\n\"ranks\":[", fp);
    for (size_t i = 0; i < run->nranks; i++) {
        fputs(i ? ",\n" : "\n", fp);
        put_rank(fp, run, &run->ranks[i]);
    }
    fputs("],\n\"regions\":[", fp);
    ms_model_regions(fp, run, &region_rows, &json_style);
    fputs("],\n\"matrix\":[", fp);
    for (size_t i = 0; i < run->nmatrix; i++) {
        const ms_matrix_cell *m = &run->matrix[i];
        fprintf(fp, "%s{\"src\":%" PRId32 ",\"dst\":%" PRId32 ",\"messages\":%" PRIu64 ",\"bytes\":%" PRIu64 "}",
                i ? ",\n" : "\n", m->src, m->dst, m->messages, m->bytes);
    }
    fputs("],\n\"callsites\":[", fp);
    for (size_t i = 0; i < run->ncallsites; i++) {
        const ms_callsite *c = &run->callsites[i];
        fputs(i ? ",\n{" : "\n{", fp);
        put_key(fp, "region");
        put_str(fp, c->region);
        fprintf(fp, ",\"rank\":%" PRId32 ",", c->rank);
        put_site(fp, c);
        fprintf(fp, ",\"calls\":%" PRIu64 ",", c->calls);
        ms_json_put_num(fp, "total_s", (double)c->total_ns / 1e9);
        fputc('}', fp);
    }
    fputs("],\n", fp);
    if (ms_report_sites_json(fp, run) != 0)
        return -1;
    fputs(",\n\"counters\":", fp);
    if (ms_report_counters_json(fp, run) != 0)
        return -1;
    fputs(",\n\"gpu\":", fp);
    if (ms_report_gpu_json(fp, run) != 0)
        return -1;
    if (ms_report_files_json(fp, run) != 0 || ms_report_comms_json(fp, run) != 0)
        return -1;
    fputs(",\n", fp);
    if (ms_report_waits_json(fp, run) != 0)
        return -1;
    fputs(",\n", fp);
    if (ms_report_causes_json(fp, run) != 0)
        return -1;
    fputs(",\n", fp);
    if (ms_report_ending_json(fp, run) != 0)
        return -1;
    fputs(",\n\"warnings\":[", fp);
    for (size_t i = 0; i < run->nwarnings; i++) {
        fputs(i ? ",\n" : "\n", fp);
        put_str(fp, run->warnings[i]);
    }
    fputs("]}\n", fp);
    return ferror(fp) ? -1 : 0;
}
