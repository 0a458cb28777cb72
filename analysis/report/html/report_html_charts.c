/* HTML report: the data of the charts, from the reduced run (report_html.h).
 * Times are ns, relative times count from the run's earliest event. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../json_str.h"
#include "../names.h"
#include "../run_model.h"
#include "../../reduce/matrix.h"
#include "../../reduce/ops.h"
#include "../../reduce/sites.h"
#include "html_parts.h"
#include "../../reduce/tool_stalls.h"

#define TOP_REGIONS 100      /* rows of the region table */
#define TOOL_REGIONS 20      /* rows of the tool's regions */

/* The run's model in ns, strings safe inside the page's script. */
static const ms_model_style page_style = {.ns = 1, .put_str = ms_html_json_str};

static void put_run(FILE *fp, const ms_run *run)
{
    fputs("\"run\":{", fp);
    ms_model_run(fp, run, &page_style);
    fputs(",\"program\":", fp);
    ms_html_json_str(fp, run->nranks ? run->ranks[0].argv0 : "");
    char library[256];
    ms_mpi_library_short(library, sizeof library, run->nranks ? run->ranks[0].mpi_library : "");
    fputs(",\"mpi_library\":", fp);
    ms_html_json_str(fp, library);
    fputs("},\n", fp);
}

static void put_ranks(FILE *fp, const ms_run *run)
{
    fputs("\"ranks\":[", fp);
    for (size_t i = 0; i < run->nranks; i++) {
        const ms_rank_info *in = &run->ranks[i];
        fprintf(fp, "%s{\"rank\":%" PRId32 ",\"host\":", i ? ",\n" : "", in->rank);
        ms_html_json_str(fp, in->host);
        fputc(',', fp);
        ms_model_rank_times(fp, run, in, &page_style);
        fprintf(fp, ",\"truncated\":%s}", in->status == MS_READ_OK ? "false" : "true");
    }
    fputs("],\n", fp);
}

/* Whether region g is in the region table: the tool's own (tool_stalls.h)
 * are in "tool", and MPI_Init and MPI_Finalize (MPI regions with no time in
 * the application window, sites.h) in the sites' start-up and shutdown. */
static int program_region(const ms_region *g)
{
    if (ms_region_lifecycle(g))
        return 0;
    return !ms_stall_name(g->name, strlen(g->name));
}

/* A region's row in the region table: its names, numbers and dominant
 * call site. */
static void put_region(FILE *fp, const ms_run *run, const ms_region *g, const ms_model_style *st)
{
    static const ms_model_num nums[] = {MS_MN_CALLS, MS_MN_RANKS, MS_MN_TOTAL, MS_MN_MEAN, MS_MN_MAX,
                                        MS_MN_P95, MS_MN_IMBALANCE, MS_MN_END};
    char name[2048];
    ms_short_name(run, name, sizeof name, g);
    char full[2048];
    ms_long_name(run, full, sizeof full, g->name);
    fputs("\"name\":", fp);
    ms_html_json_str(fp, full);
    fputs(",\"short\":", fp);
    ms_html_json_str(fp, name);
    fputc(',', fp);
    ms_model_region_nums(fp, g, nums, st);
    size_t first, np = ms_site_places_of(run->places, run->nplaces, g->name, &first);
    if (np) {
        const ms_callsite *c = run->places[first].row;
        fputs(",\"site\":{\"file\":", fp);
        ms_html_json_str(fp, c->file);
        fprintf(fp, ",\"line\":%d,\"function\":", c->line);
        ms_html_json_str(fp, c->function);
        fputs(",\"location\":", fp);
        ms_html_json_str(fp, c->location);
        char label[2304];
        ms_site_label(label, sizeof label, c, 0);
        fputs(",\"label\":", fp);
        ms_html_json_str(fp, label);
        fprintf(fp, ",\"sites\":%zu}", np);
    }
}

/* The regions of the program, most time first. */
static void put_regions(FILE *fp, const ms_run *run)
{
    static const ms_model_rows rows = {.keep = program_region, .max = TOP_REGIONS, .first = "", .row = put_region};
    fprintf(fp, "\"regions_total\":%zu,\"regions\":[", ms_model_regions_kept(run, program_region));
    ms_model_regions(fp, run, &rows, &page_style);
    fputs("],\n", fp);
}

/* The tool's own regions (tool_stalls.h: flushes, waits for room). */
static int tool_region(const ms_region *g)
{
    return ms_stall_name(g->name, strlen(g->name));
}

static void put_tool_region(FILE *fp, const ms_run *run, const ms_region *g, const ms_model_style *st)
{
    static const ms_model_num nums[] = {MS_MN_CALLS, MS_MN_RANKS, MS_MN_TOTAL, MS_MN_MAX, MS_MN_END};
    (void)run;
    fputs("\"name\":", fp);
    ms_html_json_str(fp, g->name);
    fputc(',', fp);
    ms_model_region_nums(fp, g, nums, st);
}

/* The tool's own regions, most time first: the page shows them in the
 * tool's section only. */
static void put_tool(FILE *fp, const ms_run *run)
{
    static const ms_model_rows rows = {.keep = tool_region, .max = TOOL_REGIONS, .first = "",
                                       .row = put_tool_region};
    fputs("\"tool\":[", fp);
    ms_model_regions(fp, run, &rows, &page_style);
    fputs("],\n", fp);
}

/* Time per MPI operation (op and kind), whatever the sizes and peers. */
static int put_ops(FILE *fp, const ms_run *run)
{
    ms_op_row *rows;
    size_t n;
    if (ms_op_rollup(run, &rows, &n) != 0)
        return -1;
    fputs("\"ops\":[", fp);
    for (size_t k = 0; k < n; k++) {
        fputs(k ? ",\n{\"op\":" : "{\"op\":", fp);
        ms_html_json_str(fp, rows[k].op);
        fputs(",\"kind\":", fp);
        ms_html_json_str(fp, rows[k].kind);
        fprintf(fp, ",\"calls\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"bytes\":", rows[k].calls,
                rows[k].total_ns);
        if (rows[k].has_bytes)
            fprintf(fp, "%" PRIu64 "}", rows[k].bytes);
        else
            fputs("null}", fp);
    }
    fputs("],\n", fp);
    free(rows);
    return 0;
}

/* Calls per size class: class 0 is 0 bytes, class k >= 1 is [2^(k-1), 2^k). */
static void put_sizes(FILE *fp, const ms_run *run)
{
    uint64_t p2p[MS_SIZE_CLASSES], coll[MS_SIZE_CLASSES];
    ms_size_histogram(run, p2p, coll);
    fputs("\"sizes\":[", fp);
    int first = 1;
    for (unsigned k = 0; k < MS_SIZE_CLASSES; k++) {
        if (!p2p[k] && !coll[k])
            continue;
        fprintf(fp, "%s{\"class\":%u,\"p2p\":%" PRIu64 ",\"coll\":%" PRIu64 "}", first ? "" : ",", k, p2p[k],
                coll[k]);
        first = 0;
    }
    fputs("],\n", fp);
}

/* Point-to-point traffic between world ranks (matrix.h). */
static void put_matrix(FILE *fp, const ms_run *run)
{
    fprintf(fp, "\"matrix\":{\"size\":%" PRId32 ",\"cells\":[", run->world_size);
    for (size_t i = 0; i < run->nmatrix; i++) {
        const ms_matrix_cell *c = &run->matrix[i];
        fprintf(fp, "%s[%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64 "]", i ? "," : "", (int64_t)c->src,
                (int64_t)c->dst, (uint64_t)c->messages, (uint64_t)c->bytes);
    }
    fputs("]},\n", fp);
}

/* The GPU regions (cuda:kernel <name>, cuda:memcpy <kind> bytes=<n>,
 * cuda:memset bytes=<n>); cuda:overhead is CUPTI's own host time, not GPU
 * work. */
static int gpu_region(const ms_region *g)
{
    return strncmp(g->name, "cuda:", 5) == 0 && strncmp(g->name, "cuda:overhead ", 14) != 0;
}

static void put_gpu_region(FILE *fp, const ms_run *run, const ms_region *g, const ms_model_style *st)
{
    static const ms_model_num nums[] = {MS_MN_CALLS, MS_MN_TOTAL, MS_MN_END}, mean[] = {MS_MN_MEAN, MS_MN_END};
    (void)run;
    const char *what = strncmp(g->name, "cuda:kernel ", 12) == 0   ? "kernel"
                       : strncmp(g->name, "cuda:memcpy", 11) == 0 ? "memcpy"
                                                                   : "other";
    long long bytes = -1;
    const char *b = strstr(g->name, " bytes=");
    if (b)
        bytes = strtoll(b + 7, NULL, 10);
    fputs("\"name\":", fp);
    ms_html_json_str(fp, g->name + 5);
    fprintf(fp, ",\"what\":\"%s\",", what);
    ms_model_region_nums(fp, g, nums, st);
    fprintf(fp, ",\"bytes\":%lld,", bytes);
    ms_model_region_nums(fp, g, mean, st);
}

static void put_gpu(FILE *fp, const ms_run *run)
{
    static const ms_model_rows rows = {.keep = gpu_region, .max = 0, .first = "", .row = put_gpu_region};
    fputs("\"gpu\":[", fp);
    ms_model_regions(fp, run, &rows, &page_style);
    fputs("],\n", fp);
}

static void put_warnings(FILE *fp, const ms_run *run)
{
    fputs("\"warnings\":[", fp);
    for (size_t i = 0; i < run->nwarnings; i++) {
        if (i)
            fputc(',', fp);
        ms_html_json_str(fp, run->warnings[i]);
    }
    fputs("],\n", fp);
}

int ms_html_charts(FILE *fp, const ms_run *run)
{
    put_run(fp, run);
    put_ranks(fp, run);
    put_regions(fp, run);
    put_tool(fp, run);
    if (put_ops(fp, run) != 0)
        return -1;
    put_sizes(fp, run);
    put_matrix(fp, run);
    put_gpu(fp, run);
    put_warnings(fp, run);
    return 0;
}
