/* Text report: see report.h. Laid out for 100 columns, in the manner of
 * mpiP and IPM: run header, per-rank table, top regions, MPI operations,
 * message sizes, warnings. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../reduce/ops.h"
#include "report.h"
#include "../reduce/tool_stalls.h"
#include "report_spawn.h"

#define TOP_REGIONS 20
#define RANK_ROWS_ALL 64      /* more ranks than this: show the first RANK_ROWS_SOME */
#define RANK_ROWS_SOME 32
#define NAME_WIDTH 44
/* Top call sites: region and call-site columns (the row fits 100 columns). */
#define SITE_REGION_WIDTH 30
#define SITE_WIDTH 42
#define HOST_WIDTH 20
#define TEXT_WARNINGS 50

/* ---- cells: UTF-8 aware padding, units ---- */

/* Columns taken by s: one per character (continuation bytes take none). */
static size_t columns(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

static void cell(FILE *fp, const char *s, int width, int right)
{
    size_t c = columns(s);
    size_t pad = (size_t)width > c ? (size_t)width - c : 0;
    if (right)
        fprintf(fp, "%*s%s", (int)pad, "", s);
    else
        fprintf(fp, "%s%*s", s, (int)pad, "");
}

/* A number with 3 significant digits, or more for values of 1000 and up. */
static void sig3(char *buf, size_t cap, double v, const char *unit)
{
    int dec = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
    snprintf(buf, cap, "%.*f %s", dec, v, unit);
}

static void fmt_time(char *buf, size_t cap, double ns)
{
    if (!isfinite(ns) || ns <= 0)
        snprintf(buf, cap, "0");
    else if (ns < 999.5)
        snprintf(buf, cap, "%.0f ns", ns);
    else if (ns < 999.5e3)
        sig3(buf, cap, ns / 1e3, "\xc2\xb5s");
    else if (ns < 999.5e6)
        sig3(buf, cap, ns / 1e6, "ms");
    else
        sig3(buf, cap, ns / 1e9, "s");
}

static void fmt_bytes(char *buf, size_t cap, double b)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (b < 1023.5) {
        snprintf(buf, cap, "%.0f B", b);
        return;
    }
    size_t u = 0;
    b /= 1024.0;
    while (b >= 1023.5 && u + 1 < sizeof units / sizeof units[0]) {
        b /= 1024.0;
        u++;
    }
    sig3(buf, cap, b, units[u]);
}

/* 2^k bytes, exactly: "512 B", "1 KiB", "64 MiB". */
static void fmt_pow2(char *buf, size_t cap, unsigned k)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    snprintf(buf, cap, "%llu %s", 1ull << (k % 10), units[k / 10]);
}

static void fmt_count(char *buf, size_t cap, uint64_t n)
{
    snprintf(buf, cap, "%" PRIu64, n);
}

static void fmt_pct(char *buf, size_t cap, double p)
{
    snprintf(buf, cap, "%.1f", isfinite(p) ? p : 0.0);
}

/* ---- names ---- */

/* Copy s into dst (cap bytes), printable: white space becomes a space,
 * other control bytes '?'. */
static void printable(char *dst, size_t cap, const char *s)
{
    size_t i = 0;
    for (; *s && i + 1 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        dst[i++] = (c == '\t' || c == '\n' || c == '\r') ? ' ' : (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    dst[i] = '\0';
}

/* Byte offset of the character at column col. */
static size_t offset_of_column(const char *s, size_t col)
{
    size_t i = 0, c = 0;
    while (s[i]) {
        if (((unsigned char)s[i] & 0xc0) != 0x80) {
            if (c == col)
                return i;
            c++;
        }
        i++;
    }
    return i;
}

/* Fit s into width columns, cutting out its middle ("..."). */
static void fit(char *dst, size_t cap, const char *s, size_t width)
{
    size_t c = columns(s);
    if (c <= width) {
        snprintf(dst, cap, "%s", s);
        return;
    }
    size_t head = (width - 3) / 2, tail = width - 3 - head;
    size_t h = offset_of_column(s, head);
    size_t t = offset_of_column(s, c - tail);
    snprintf(dst, cap, "%.*s...%s", (int)h, s, s + t);
}

/* The display name of a region: an MPI call without the fields that say
 * nothing (kind, -1 values, comm=0). */
static void short_name(const ms_run *run, char *dst, size_t cap, const ms_region *g)
{
    char buf[2048], clean[2048];
    ms_short_name(run, buf, sizeof buf, g);
    printable(clean, sizeof clean, buf);
    fit(dst, cap, clean, NAME_WIDTH);
}

/* ---- sections ---- */

/* The worlds the run spawned (report_spawn.h): logged apart, merged apart. */
static void spawned(FILE *fp, const ms_run *run)
{
    ms_spawned_world *w = NULL;
    size_t n = ms_spawned_worlds(run->dir, &w);
    char dir[4096];
    printable(dir, sizeof dir, run->dir);   /* whole: a command to copy */
    size_t len = strlen(dir);
    const char *slash = len && dir[len - 1] == '/' ? "" : "/";
    for (size_t i = 0; i < n; i++)
        fprintf(fp, "  %-12s spawn-%u/: a world of %zu rank%s this run spawned, not in this report; its own: "
                    "mpiscope-merge %s%sspawn-%u\n",
                i ? "" : "spawned", w[i].k, w[i].logs, w[i].logs == 1 ? "" : "s", dir, slash, w[i].k);
    free(w);
}

static void header(FILE *fp, const ms_run *run)
{
    char dir[512], a[64], b[64], c[64], fitted[512];
    printable(dir, sizeof dir, run->dir);
    fit(fitted, sizeof fitted, dir, 80);
    fprintf(fp, "mpiscope report: %s\n\n", fitted);
    fmt_time(a, sizeof a, (double)run->wall_ns);
    fprintf(fp, "  ranks        %zu", run->nranks);
    if (run->world_size > 0 && (size_t)run->world_size != run->nranks)
        fprintf(fp, " of %" PRId32, run->world_size);
    fprintf(fp, "\n  hosts        %zu", run->nhosts);
    if (run->nhosts > 0) {
        char h[256];
        fputs(" (", fp);
        for (size_t i = 0; i < run->nhosts && i < 4; i++) {
            printable(h, sizeof h, run->hosts[i]);
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
        char s[600], f[600];
        if (r0->argv0[0]) {
            printable(s, sizeof s, r0->argv0);
            fit(f, sizeof f, s, 80);
            fprintf(fp, "  program      %s\n", f);
        }
        if (r0->mpi_library[0]) {
            printable(s, sizeof s, r0->mpi_library);
            fit(a, sizeof a, s, 60);
            fprintf(fp, "  MPI library  %s\n", a);
        }
    }
    fmt_time(a, sizeof a, (double)run->mpi_ns);
    fmt_time(b, sizeof b, (double)run->app_ns);
    fprintf(fp, "  MPI time     %.1f %% of application time (%s of %s, all ranks)\n", run->mpi_pct, a, b);
    fmt_pct(a, sizeof a, run->mpi_pct_min);
    fmt_pct(b, sizeof b, run->mpi_pct_mean);
    fmt_pct(c, sizeof c, run->mpi_pct_max);
    fprintf(fp, "  MPI %% / rank min %s  mean %s  max %s\n", a, b, c);
    fprintf(fp, "  events       %" PRIu64 "\n", run->events);
    double stall_pct;
    uint64_t stall = ms_stall_total_ns(run, &stall_pct);
    if (stall) {
        fmt_time(a, sizeof a, (double)stall);
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
    cell(fp, "host", HOST_WIDTH, 0);
    fputs("      app time      MPI time   MPI %  status\n", fp);
    size_t rows = run->nranks > RANK_ROWS_ALL ? RANK_ROWS_SOME : run->nranks;
    for (size_t i = 0; i < rows; i++) {
        const ms_rank_info *in = &run->ranks[i];
        char host[256], h[64], app[32], mpi[32], pct[32];
        printable(host, sizeof host, in->host);
        fit(h, sizeof h, host, HOST_WIDTH);
        fmt_time(app, sizeof app, (double)in->app_ns);
        fmt_time(mpi, sizeof mpi, (double)in->mpi_ns);
        fmt_pct(pct, sizeof pct, in->mpi_pct);
        fprintf(fp, "  %5" PRId32 "  ", in->rank);
        cell(fp, h, HOST_WIDTH, 0);
        cell(fp, app, 14, 1);
        cell(fp, mpi, 14, 1);
        cell(fp, pct, 8, 1);
        fprintf(fp, "  %s\n", in->status == MS_READ_OK ? (in->finalized ? "" : "not finalized") : "truncated");
    }
    if (rows < run->nranks)
        fprintf(fp, "  ... %zu more ranks (--ranks-csv and --json list every rank)\n", run->nranks - rows);
    if (!ms_stall_any(run))
        return;
    fputs("\nTool stalls per rank (waits the tool imposed: buffers full, final flush; not the program's time)\n"
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
        fmt_time(tot, sizeof tot, (double)ns);
        fprintf(fp, "  %5" PRId32 "  %9" PRIu64 "  %12s  %9.2f\n", in->rank, n, tot,
                in->wall_ns ? 100.0 * (double)ns / (double)in->wall_ns : 0.0);
        shown++;
    }
    if (more)
        fprintf(fp, "  ... %zu more ranks stalled (--json gives tool_stall_s per rank)\n", more);
}

static void top_regions(FILE *fp, const ms_run *run)
{
    size_t n = run->nregions < TOP_REGIONS ? run->nregions : TOP_REGIONS;
    fprintf(fp, "\nTop regions by total time (%zu of %zu)\n", n, run->nregions);
    fputs("  ", fp);
    cell(fp, "region", NAME_WIDTH, 0);
    fputs("       calls      total       mean        max  imbal %\n", fp);
    for (size_t i = 0; i < n; i++) {
        const ms_region *g = &run->regions[i];
        const ms_summary *s = &g->summary;
        char name[NAME_WIDTH * 4 + 8], calls[32], tot[32], mean[32], max[32], imb[32];
        short_name(run, name, sizeof name, g);
        fmt_count(calls, sizeof calls, s->calls);
        fmt_time(tot, sizeof tot, (double)g->total_ns);
        fmt_time(mean, sizeof mean, s->mean_s * 1e9);
        fmt_time(max, sizeof max, s->max_s * 1e9);
        fmt_pct(imb, sizeof imb, s->imbalance_pct);
        fputs("  ", fp);
        cell(fp, name, NAME_WIDTH, 0);
        cell(fp, calls, 12, 1);
        cell(fp, tot, 11, 1);
        cell(fp, mean, 11, 1);
        cell(fp, max, 11, 1);
        cell(fp, imb, 9, 1);
        fputc('\n', fp);
    }
    if (n > 0)
        fputs("  (MPI names without \"mpi:\", kind, comm=0 and fields that are -1; --csv has full names)\n",
              fp);
}

/* Regions that can contain others (user, LIKWID and NVTX regions: neither
 * MPI calls nor GPU work), by total time: inclusive and exclusive time. */
static void nested_regions(FILE *fp, const ms_run *run)
{
    size_t total = 0, n = 0;
    for (size_t i = 0; i < run->nregions; i++)
        if (!run->regions[i].is_mpi && strncmp(run->regions[i].name, "cuda:", 5) != 0)
            total++;
    if (total == 0)
        return;
    fprintf(fp, "\nUser regions: inclusive and exclusive time (%zu of %zu)\n", total < TOP_REGIONS ? total : TOP_REGIONS,
            total);
    fputs("  ", fp);
    cell(fp, "region", NAME_WIDTH, 0);
    fputs("       calls  inclusive  exclusive   excl %\n", fp);
    for (size_t i = 0; i < run->nregions && n < TOP_REGIONS; i++) {
        const ms_region *g = &run->regions[i];
        if (g->is_mpi || strncmp(g->name, "cuda:", 5) == 0)
            continue;
        n++;
        char name[NAME_WIDTH * 4 + 8], calls[32], incl[32], excl[32], pct[32];
        short_name(run, name, sizeof name, g);
        fmt_count(calls, sizeof calls, g->summary.calls);
        fmt_time(incl, sizeof incl, (double)g->total_ns);
        fmt_time(excl, sizeof excl, (double)g->excl_ns);
        fmt_pct(pct, sizeof pct, g->total_ns ? 100.0 * (double)g->excl_ns / (double)g->total_ns : 0.0);
        fputs("  ", fp);
        cell(fp, name, NAME_WIDTH, 0);
        cell(fp, calls, 12, 1);
        cell(fp, incl, 11, 1);
        cell(fp, excl, 11, 1);
        cell(fp, pct, 9, 1);
        fputc('\n', fp);
    }
    fputs("  (exclusive: without the regions and MPI calls recorded directly inside, on the same thread)\n", fp);
}

static const ms_region *region_named(const ms_run *run, const char *name)
{
    for (size_t i = 0; i < run->nregions; i++)
        if (strcmp(run->regions[i].name, name) == 0)
            return &run->regions[i];
    return NULL;
}

static int place_time_cmp(const void *a, const void *b)
{
    const ms_site_place *x = *(const ms_site_place *const *)a, *y = *(const ms_site_place *const *)b;
    if (x->total_ns != y->total_ns)
        return x->total_ns > y->total_ns ? -1 : 1;
    int c = strcmp(x->row->region, y->row->region);
    return c ? c : strcmp(x->row->location, y->row->location);
}

/* The call sites of the most time, over all ranks: region and source line. */
static int top_sites(FILE *fp, const ms_run *run)
{
    if (run->nplaces == 0)
        return 0;
    const ms_site_place **v = malloc(run->nplaces * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < run->nplaces; i++)
        v[i] = &run->places[i];
    qsort(v, run->nplaces, sizeof *v, place_time_cmp);
    size_t n = run->nplaces < TOP_REGIONS ? run->nplaces : TOP_REGIONS;
    fprintf(fp, "\nTop call sites by total time (%zu of %zu)\n", n, run->nplaces);
    fputs("  ", fp);
    cell(fp, "region", SITE_REGION_WIDTH, 0);
    fputs("  calls      total ranks  call site\n", fp);
    for (size_t i = 0; i < n; i++) {
        const ms_site_place *p = v[i];
        const ms_region *g = region_named(run, p->row->region);
        char full[NAME_WIDTH * 4 + 8], name[SITE_REGION_WIDTH * 4 + 8], calls[32], tot[32], ranks[16],
            where[SITE_WIDTH * 4 + 8];
        if (g)
            short_name(run, full, sizeof full, g);
        else
            snprintf(full, sizeof full, "%s", p->row->region);
        fit(name, sizeof name, full, SITE_REGION_WIDTH);
        fmt_count(calls, sizeof calls, p->calls);
        fmt_time(tot, sizeof tot, (double)p->total_ns);
        snprintf(ranks, sizeof ranks, "%" PRIu32, p->ranks);
        fit(where, sizeof where, p->row->location, SITE_WIDTH);
        fputs("  ", fp);
        cell(fp, name, SITE_REGION_WIDTH, 0);
        cell(fp, calls, 7, 1);
        cell(fp, tot, 11, 1);
        cell(fp, ranks, 6, 1);
        fputs("  ", fp);
        fputs(where, fp);
        fputc('\n', fp);
    }
    fputs("  (--callsites-csv lists every call site per rank)\n", fp);
    free(v);
    return 0;
}

static int operations(FILE *fp, const ms_run *run)
{
    ms_op_row *rows;
    size_t n;
    if (ms_op_rollup(run, &rows, &n) != 0)
        return -1;
    fputs("\nMPI operations\n", fp);
    fputs("  operation             kind                    calls   total time  % MPI time         bytes\n", fp);
    for (size_t k = 0; k < n; k++) {
        const ms_op_row *r = &rows[k];
        char op[64], kind[64], calls[32], tot[32], pct[32], bytes[32];
        printable(op, sizeof op, r->op);
        printable(kind, sizeof kind, r->kind);
        char opf[32], kindf[32];
        fit(opf, sizeof opf, op, 20);
        fit(kindf, sizeof kindf, kind, 16);
        fmt_count(calls, sizeof calls, r->calls);
        fmt_time(tot, sizeof tot, (double)r->total_ns);
        fmt_pct(pct, sizeof pct, run->mpi_ns ? 100.0 * (double)r->window_ns / (double)run->mpi_ns : 0.0);
        if (r->has_bytes)
            fmt_bytes(bytes, sizeof bytes, (double)r->bytes);
        else
            snprintf(bytes, sizeof bytes, "-");
        fputs("  ", fp);
        cell(fp, opf, 20, 0);
        fputs("  ", fp);
        cell(fp, kindf, 16, 0);
        cell(fp, calls, 13, 1);
        cell(fp, tot, 13, 1);
        cell(fp, pct, 12, 1);
        cell(fp, bytes, 14, 1);
        fputc('\n', fp);
    }
    if (n == 0)
        fputs("  (no MPI calls recorded)\n", fp);
    else
        fputs("  (% MPI time counts calls between MPI_Init and MPI_Finalize, as the MPI time above)\n", fp);
    free(rows);
    return 0;
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
            fmt_pow2(lo, sizeof lo, k - 1);
            fmt_pow2(hi, sizeof hi, k);
            snprintf(range, sizeof range, "%s .. < %s", lo, hi);
        }
        fmt_count(a, sizeof a, p2p[k]);
        fmt_count(b, sizeof b, coll[k]);
        fputs("  ", fp);
        cell(fp, range, 26, 0);
        cell(fp, a, 20, 1);
        cell(fp, b, 15, 1);
        fputc('\n', fp);
    }
}

/* Print s indented by two columns, wrapped at spaces to fit the page;
 * longer words are cut. */
static void wrapped(FILE *fp, const char *s)
{
    const size_t width = 96;
    while (*s) {
        size_t cols = 0, i = 0, brk = 0;
        while (s[i] && cols < width) {
            if (s[i] == ' ')
                brk = i;
            i++;
            while (((unsigned char)s[i] & 0xc0) == 0x80)
                i++;
            cols++;
        }
        if (s[i] && s[i] != ' ' && brk > 0)
            i = brk;
        fprintf(fp, "  %.*s\n", (int)i, s);
        s += i;
        while (*s == ' ')
            s++;
    }
}

static void warnings(FILE *fp, const ms_run *run)
{
    if (run->nwarnings == 0)
        return;
    fprintf(fp, "\nWarnings (%zu)\n", run->nwarnings);
    for (size_t i = 0; i < run->nwarnings && i < TEXT_WARNINGS; i++) {
        char s[1024];
        printable(s, sizeof s, run->warnings[i]);
        wrapped(fp, s);
    }
    if (run->nwarnings > TEXT_WARNINGS)
        fprintf(fp, "  ... %zu more (--json lists all)\n", run->nwarnings - TEXT_WARNINGS);
}

int ms_report_text(FILE *fp, const ms_run *run)
{
    header(fp, run);
    rank_table(fp, run);
    top_regions(fp, run);
    nested_regions(fp, run);
    if (top_sites(fp, run) != 0)
        return -1;
    if (operations(fp, run) != 0)
        return -1;
    histogram(fp, run);
    if (ms_report_counters_text(fp, run) != 0)
        return -1;
    if (ms_report_gpu_text(fp, run) != 0)
        return -1;
    if (ms_report_files_text(fp, run) != 0 || ms_report_comms_text(fp, run) != 0)
        return -1;
    if (ms_report_waits_text(fp, run) != 0)
        return -1;
    warnings(fp, run);
    return ferror(fp) ? -1 : 0;
}
