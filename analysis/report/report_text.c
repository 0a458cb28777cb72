/* Text report: see report.h. Laid out for 100 columns, in the manner of
 * mpiP and IPM, leading with the answer: run header, MPI time by call site
 * and by function (report_sites.c), per-rank table, user regions, message
 * sizes, counters, GPU, files, wait states, the tool's own part, warnings.
 * Names are never cut: a long one is the last cell of its row. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../read/worlds.h"
#include "../reduce/ops.h"
#include "names.h"
#include "report.h"
#include "units.h"
#include "../reduce/tool_stalls.h"
#include "report_spawn.h"

#define TOP_REGIONS 20
#define RANK_ROWS_ALL 64      /* more ranks than this: show the first RANK_ROWS_SOME */
#define RANK_ROWS_SOME 32
#define HOST_WIDTH 20
#define TEXT_WARNINGS 50

/* ---- names ---- */

/* The display name of a region, whole: an MPI call without the fields that
 * say nothing (kind, -1 values, comm=0). */
static void short_name(const ms_run *run, char *dst, size_t cap, const ms_region *g)
{
    char buf[4096];
    ms_short_name(run, buf, sizeof buf, g);
    ms_printable(dst, cap, buf);
}

/* ---- sections ---- */

/* The worlds the run spawned (report_spawn.h): read with it (--with-spawned,
 * read/worlds.h), or left out, in one line that says how to take them in. */
static void spawned(FILE *fp, const ms_run *run)
{
    if (ms_worlds_count()) {
        fprintf(fp, "  %-12s", "worlds");
        for (size_t i = 0; i < ms_worlds_count(); i++) {
            const ms_world *w = ms_world_at(i);
            char sub[32] = ".";
            if (w->k)
                snprintf(sub, sizeof sub, "spawn-%u/", w->k);
            fprintf(fp, "%s %" PRIu32 ": %s (%" PRId32 " rank%s)", i ? "," : "", w->index, sub, w->size,
                    w->size == 1 ? "" : "s");
        }
        fputs("; ranks named world:rank\n", fp);
        return;
    }
    ms_spawned_world *w = NULL;
    size_t n = ms_spawned_worlds(run->dir, &w);
    if (!n)
        return;
    char dir[4096];
    ms_printable(dir, sizeof dir, run->dir);   /* whole: a command to copy */
    fprintf(fp, "  %-12s", "spawned");
    for (size_t i = 0; i < n; i++)
        fprintf(fp, "%s spawn-%u/ (%zu rank%s)", i ? "," : "", w[i].k, w[i].logs, w[i].logs == 1 ? "" : "s");
    fprintf(fp, ": world%s this run spawned, left out of this report; mpiscope-merge --with-spawned %s takes %s in\n",
            n == 1 ? "" : "s", dir, n == 1 ? "it" : "them");
    free(w);
}

static void header(FILE *fp, const ms_run *run)
{
    char dir[4096], a[64], b[64], c[64];
    ms_printable(dir, sizeof dir, run->dir);
    fprintf(fp, "mpiscope report: %s\n\n", dir);
    ms_fmt_time(a, sizeof a, (double)run->wall_ns);
    fprintf(fp, "  ranks        %zu", run->nranks);
    if (run->world_size > 0 && (size_t)run->world_size != run->nranks)
        fprintf(fp, " of %" PRId32, run->world_size);
    fprintf(fp, "\n  hosts        %zu", run->nhosts);
    if (run->nhosts > 0) {
        char h[256];
        fputs(" (", fp);
        for (size_t i = 0; i < run->nhosts && i < 4; i++) {
            ms_printable(h, sizeof h, run->hosts[i]);
            fprintf(fp, "%s%s", i ? ", " : "", h);
        }
        fputs(run->nhosts > 4 ? ", ...)" : ")", fp);
    }
    fprintf(fp, "\n  wall time    %s\n", a);
    if (run->summary_ranks == run->nranks && run->nranks > 0)
        fputs("  mode         summary (per-region aggregates, no timeline)\n", fp);
    else if (run->summary_ranks)
        fprintf(fp, "  mode         summary on %zu of %zu ranks, trace on the others\n", run->summary_ranks, run->nranks);
    if (run->nranks > 0) {
        const ms_rank_info *r0 = &run->ranks[0];
        char s[4096];
        if (r0->argv0[0]) {
            ms_printable(s, sizeof s, r0->argv0);
            fprintf(fp, "  program      %s\n", s);
        }
        if (r0->mpi_library[0]) {
            ms_mpi_library_short(s, sizeof s, r0->mpi_library);
            fprintf(fp, "  MPI library  %s\n", s);
        }
    }
    ms_fmt_time(a, sizeof a, (double)run->mpi_ns);
    ms_fmt_time(b, sizeof b, (double)run->app_ns);
    fprintf(fp, "  MPI time     %.1f %% of application time (%s of %s, all ranks)\n", run->mpi_pct, a, b);
    ms_fmt_pct(a, sizeof a, run->mpi_pct_min);
    ms_fmt_pct(b, sizeof b, run->mpi_pct_mean);
    ms_fmt_pct(c, sizeof c, run->mpi_pct_max);
    fprintf(fp, "  MPI %% / rank min %s  mean %s  max %s\n", a, b, c);
    ms_fmt_count(a, sizeof a, run->events);
    fprintf(fp, "  events       %s\n", a);
    double stall_pct;
    uint64_t stall = ms_stall_total_ns(run, &stall_pct);
    if (stall) {
        ms_fmt_time(a, sizeof a, (double)stall);
        fprintf(fp, "  tool stalls  %s, %.2f %% of the ranks' wall time (waits the tool imposed on them)\n", a,
                stall_pct);
        if (stall_pct > MS_STALL_WARN_PCT) {
            fprintf(fp, "  warning      the tool's writer could not keep up and stalled the ranks for more than %.0f %%\n"
                        "               of the run: that time is the tool's, not the program's\n", MS_STALL_WARN_PCT);
            /* Summary mode's writer writes little but folds every event, at
             * about a third of the rate at which trace mode's compresses
             * (docs/PERFORMANCE.md). */
            if (run->summary_ranks)
                fputs("               (in summary mode the writer folds every event: a thread that makes MPI calls\n"
                      "               faster than it folds them waits; trace mode's writer keeps up with more)\n", fp);
            else
                fputs("               (a slow file system, or a writer thread without a core of its own)\n", fp);
        }
    }
    char clocks[256];
    if (ms_clock_align_describe(run, clocks, sizeof clocks))
        fprintf(fp, "  clocks       %s\n", clocks);
    spawned(fp, run);
}

static void rank_table(FILE *fp, const ms_run *run)
{
    fputs("\nPer rank\n", fp);
    fputs("   rank  ", fp);
    ms_cell(fp, "host", HOST_WIDTH, 0);
    fputs("      app time      MPI time   MPI %  status\n", fp);
    size_t rows = run->nranks > RANK_ROWS_ALL ? RANK_ROWS_SOME : run->nranks;
    for (size_t i = 0; i < rows; i++) {
        const ms_rank_info *in = &run->ranks[i];
        char host[256], h[64], app[32], mpi[32], pct[32];
        ms_printable(host, sizeof host, in->host);
        ms_fit_end(h, sizeof h, host, HOST_WIDTH);
        ms_fmt_time(app, sizeof app, (double)in->app_ns);
        ms_fmt_time(mpi, sizeof mpi, (double)in->mpi_ns);
        ms_fmt_pct(pct, sizeof pct, in->mpi_pct);
        fprintf(fp, "  %5s  ", ms_rank_s(in->rank).s);
        ms_cell(fp, h, HOST_WIDTH, 0);
        ms_cell(fp, app, 14, 1);
        ms_cell(fp, mpi, 14, 1);
        ms_cell(fp, pct, 8, 1);
        fprintf(fp, "  %s\n", in->status == MS_READ_OK ? (in->finalized ? "" : "not finalized") : "truncated");
    }
    if (rows < run->nranks)
        fprintf(fp, "  ... %zu more ranks (--ranks-csv and --json list every rank)\n", run->nranks - rows);
}

/* The tool's own part: the time it made the ranks wait (its regions
 * "mpiscope:...", tool_stalls.h), per rank. Never among the program's. */
static void tool_section(FILE *fp, const ms_run *run)
{
    if (!ms_stall_any(run))
        return;
    fputs("\nThe tool: stalls per rank (waits the tool imposed: buffers full, final flush; not the program's time)\n"
          "   rank     stalls         total    % of wall\n", fp);
    size_t shown = 0, more = 0;
    for (size_t i = 0; i < run->nranks; i++) {
        uint64_t n;
        uint64_t ns = ms_stall_rank_ns(run, i, &n);
        if (!n)
            continue;
        if (shown == RANK_ROWS_SOME) {
            more++;
            continue;
        }
        const ms_rank_info *in = &run->ranks[i];
        char tot[32];
        ms_fmt_time(tot, sizeof tot, (double)ns);
        fprintf(fp, "  %5s  %9" PRIu64 "  %12s  %9.2f\n", ms_rank_s(in->rank).s, n, tot,
                in->wall_ns ? 100.0 * (double)ns / (double)in->wall_ns : 0.0);
        shown++;
    }
    if (more)
        fprintf(fp, "  ... %zu more ranks stalled (--json gives tool_stall_s per rank)\n", more);
}

/* Regions that can contain others (user, LIKWID and NVTX regions: neither
 * MPI calls nor GPU work), by total time: inclusive and exclusive time. */
static void nested_regions(FILE *fp, const ms_run *run)
{
    size_t total = 0, n = 0;
    for (size_t i = 0; i < run->nregions; i++)
        if (!run->regions[i].is_mpi && strncmp(run->regions[i].name, "cuda:", 5) != 0 &&
            !ms_stall_name(run->regions[i].name, strlen(run->regions[i].name)))
            total++;
    if (total == 0)
        return;
    fprintf(fp, "\nUser regions: inclusive and exclusive time (%zu of %zu)\n", total < TOP_REGIONS ? total : TOP_REGIONS,
            total);
    fputs("         calls  inclusive  exclusive   excl %  region\n", fp);
    for (size_t i = 0; i < run->nregions && n < TOP_REGIONS; i++) {
        const ms_region *g = &run->regions[i];
        if (g->is_mpi || strncmp(g->name, "cuda:", 5) == 0 || ms_stall_name(g->name, strlen(g->name)))
            continue;
        n++;
        char name[4096], calls[32], incl[32], excl[32], pct[32];
        short_name(run, name, sizeof name, g);
        ms_fmt_count(calls, sizeof calls, g->summary.calls);
        ms_fmt_time(incl, sizeof incl, (double)g->total_ns);
        ms_fmt_time(excl, sizeof excl, (double)g->excl_ns);
        ms_fmt_pct(pct, sizeof pct, g->total_ns ? 100.0 * (double)g->excl_ns / (double)g->total_ns : 0.0);
        fputs("  ", fp);
        ms_cell(fp, calls, 12, 1);
        ms_cell(fp, incl, 11, 1);
        ms_cell(fp, excl, 11, 1);
        ms_cell(fp, pct, 9, 1);
        fprintf(fp, "  %s\n", name);
    }
    fputs("  (exclusive: without the regions and MPI calls recorded directly inside, on the same thread)\n", fp);
}

static void histogram(FILE *fp, const ms_run *run)
{
    uint64_t p2p[MS_SIZE_CLASSES], coll[MS_SIZE_CLASSES];
    int any = ms_size_histogram(run, p2p, coll);
    fputs("\nMessage sizes (calls per size, point-to-point and collective calls of known size)\n", fp);
    if (!any) {
        fputs("  (none)\n", fp);
        return;
    }
    fputs("  bytes                          point-to-point     collective\n", fp);
    for (unsigned k = 0; k < MS_SIZE_CLASSES; k++) {
        if (!p2p[k] && !coll[k])
            continue;
        char range[96], lo[32], hi[32], a[32], b[32];
        if (k == 0) {
            snprintf(range, sizeof range, "0");
        } else {
            ms_fmt_pow2(lo, sizeof lo, k - 1);
            ms_fmt_pow2(hi, sizeof hi, k);
            snprintf(range, sizeof range, "%s .. < %s", lo, hi);
        }
        ms_fmt_count(a, sizeof a, p2p[k]);
        ms_fmt_count(b, sizeof b, coll[k]);
        fputs("  ", fp);
        ms_cell(fp, range, 26, 0);
        ms_cell(fp, a, 20, 1);
        ms_cell(fp, b, 15, 1);
        fputc('\n', fp);
    }
}

static void warnings(FILE *fp, const ms_run *run)
{
    if (run->nwarnings == 0)
        return;
    fprintf(fp, "\nWarnings (%zu)\n", run->nwarnings);
    for (size_t i = 0; i < run->nwarnings && i < TEXT_WARNINGS; i++) {
        char s[1024];
        ms_printable(s, sizeof s, run->warnings[i]);
        ms_put_wrapped(fp, s);
    }
    if (run->nwarnings > TEXT_WARNINGS)
        fprintf(fp, "  ... %zu more (--json lists all)\n", run->nwarnings - TEXT_WARNINGS);
}

int ms_report_text(FILE *fp, const ms_run *run)
{
    header(fp, run);
    if (ms_report_ending_text(fp, run) != 0)
        return -1;
    if (ms_report_sites_text(fp, run) != 0)
        return -1;
    rank_table(fp, run);
    nested_regions(fp, run);
    histogram(fp, run);
    if (ms_report_counters_text(fp, run) != 0)
        return -1;
    if (ms_report_gpu_text(fp, run) != 0)
        return -1;
    if (ms_report_files_text(fp, run) != 0 || ms_report_comms_text(fp, run) != 0)
        return -1;
    if (ms_report_waits_text(fp, run) != 0)
        return -1;
    tool_section(fp, run);
    warnings(fp, run);
    return ferror(fp) ? -1 : 0;
}
