/* The root causes and the what-if, machine-readable (DESIGN section 6,
 * "Root causes"):
 *
 *   causes_csv   rank,region,call_site,delay_s,direct_s,indirect_s: one row
 *                per (rank, place) that delayed others, most costly first
 *   JSON         "root_causes" and "what_if"
 *
 * A place is named by a region and a call site: "(compute)" and
 * "A .. B" (the call sites of the MPI calls before and after the stretch,
 * "(start)" and "(end)" at the application's ends) for time outside MPI,
 * a user region's or an MPI call's name and its call site otherwise. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../read/worlds.h"
#include "csv.h"
#include "json_str.h"
#include "report.h"
#include "../reduce/run_waits.h"
#include "../waits/waits.h"

static const char *const kind_names[] = {"compute", "user", "mpi"};

/* "compute", "user", "mpi" (enum ms_wx_cause_kind). */
static const char *cause_kind_name(int kind)
{
    return kind >= 0 && kind < 3 ? kind_names[kind] : "compute";
}

/* The call site of key (a region at a call site), or its region's name
 * when it has none; `none` for MS_WX_NONE. */
static const char *key_site(const ms_run *run, uint32_t key, const char *none)
{
    if (key == MS_WX_NONE)
        return none;
    const char *loc = ms_run_wait_key_location(run, key);
    return loc ? loc : ms_run_wait_region(run, ms_run_wait_key_region(run, key));
}

static void cause_fields(const ms_run *run, int kind, uint32_t region, uint32_t region2, const char **name, char *site,
                    size_t cap)
{
    if (kind == MS_WX_CAUSE_COMPUTE) {
        *name = "(compute)";
        snprintf(site, cap, "%s .. %s", key_site(run, region, "(start)"), key_site(run, region2, "(end)"));
        return;
    }
    *name = ms_run_wait_region(run, ms_run_wait_key_region(run, region));
    const char *loc = ms_run_wait_key_location(run, region);
    snprintf(site, cap, "%s", loc ? loc : "");
}

int ms_report_causes_csv(FILE *fp, const ms_run *run)
{
    fputs("rank,region,call_site,delay_s,direct_s,indirect_s\n", fp);
    const ms_waits *w = run->waits;
    char site[2048];
    for (size_t i = 0; w && i < w->ncauses; i++) {
        const ms_wx_cause *c = &w->causes[i];
        const char *name;
        cause_fields(run, c->kind, c->region, c->region2, &name, site, sizeof site);
        fprintf(fp, "%s,", ms_rank_s(c->rank).s);
        ms_csv_field(fp, name);
        fputc(',', fp);
        ms_csv_field(fp, site);
        fprintf(fp, ",%.9f,%.9f,%.9f\n", (double)c->delay_ns / 1e9, (double)c->direct_ns / 1e9,
                (double)c->indirect_ns / 1e9);
    }
    return ferror(fp) ? -1 : 0;
}

static void json_place(FILE *fp, const ms_run *run, int kind, uint32_t region, uint32_t region2)
{
    const char *name;
    char site[2048];
    cause_fields(run, kind, region, region2, &name, site, sizeof site);
    fprintf(fp, "\"kind\":\"%s\",\"region\":", cause_kind_name(kind));
    ms_json_write_str(fp, name, strlen(name), MS_JSON_SHORT_CONTROLS);
    fputs(",\"call_site\":", fp);
    ms_json_write_str(fp, site, strlen(site), MS_JSON_SHORT_CONTROLS);
}

int ms_report_causes_json(FILE *fp, const ms_run *run)
{
    const ms_waits *w = run->waits;
    if (!w || !w->has_causes) {
        fputs("\"root_causes\":null,\n\"what_if\":null", fp);
        return ferror(fp) ? -1 : 0;
    }
    fprintf(fp, "\"root_causes\":{\"direct_s\":%.9f,\"indirect_s\":%.9f,\"unexplained_s\":%.9f,\"launch_s\":%.9f,"
                "\"places\":%zu,\"causes\":[",
            (double)w->cause_direct_ns / 1e9, (double)w->cause_indirect_ns / 1e9,
            (double)w->cause_unexplained_ns / 1e9, (double)w->cause_launch_ns / 1e9, w->ncauses_all);
    for (size_t i = 0; i < w->ncauses; i++) {
        const ms_wx_cause *c = &w->causes[i];
        fprintf(fp, "%s\n{\"rank\":%" PRId32 ",", i ? "," : "", c->rank);
        json_place(fp, run, c->kind, c->region, c->region2);
        fprintf(fp, ",\"delay_s\":%.9f,\"direct_s\":%.9f,\"indirect_s\":%.9f}", (double)c->delay_ns / 1e9,
                (double)c->direct_ns / 1e9, (double)c->indirect_ns / 1e9);
    }
    fputs("]},\n\"what_if\":", fp);
    if (!w->has_what_if) {
        fputs("null", fp);
        return ferror(fp) ? -1 : 0;
    }
    fprintf(fp, "{\"run_s\":%.9f,\"no_waiting_s\":%.9f,\"fixes\":[", (double)w->run_ns / 1e9,
            (double)w->no_waiting_ns / 1e9);
    for (size_t i = 0; i < w->nfixes; i++) {
        const ms_wx_fix *f = &w->fixes[i];
        fprintf(fp, "%s\n{\"rank\":%" PRId32 ",", i ? "," : "", f->rank);
        json_place(fp, run, f->kind, f->region, f->region2);
        fprintf(fp, ",\"from\":\"%s\",\"removed_s\":%.9f,\"saving_s\":%.9f}",
                f->from == MS_WX_FIX_PATH ? "path" : "cause", (double)f->removed_ns / 1e9,
                (double)f->saving_ns / 1e9);
    }
    fputs("]}", fp);
    return ferror(fp) ? -1 : 0;
}
