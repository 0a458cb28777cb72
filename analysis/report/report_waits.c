/*
 * Wait states and the critical path in the reports (run->waits,
 * analysis/waits/waits.h):
 *   waits_csv   pattern,rank,region,instances,wait_s,cause_rank: one row per
 *               (pattern, waiting rank, region), most waiting first
 *   waits_text  the "Wait states" and "Critical path" sections, in words
 *   waits_json  the values of "wait_states" (the rows, with the region's
 *               dominant call site on that rank) and "critical_path"
 * A run recorded in summary mode has neither: the text says that wait
 * states need a trace, the JSON holds null.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "json_str.h"
#include "report.h"
#include "names.h"
#include "units.h"
#include "../reduce/ops.h"
#include "../reduce/run_waits.h"
#include "../waits/waits.h"

#define TEXT_ROWS 10
#define TEXT_PATH_ROWS 8

/* The region's call site of most time on that rank, or NULL. */
static const ms_callsite *site_of(const ms_run *run, const char *region, int32_t rank)
{
    return ms_callsite_top(run->callsites, run->ncallsites, region, rank);
}

/* "MPI_Recv" for a region of op "recv"; the name itself otherwise. */
static void call_name(char *buf, size_t cap, const ms_run *run, uint32_t region)
{
    const char *name = ms_run_wait_region(run, region);
    if (region < run->nregions && run->regions[region].info.is_mpi && run->regions[region].info.op[0]) {
        const char *op = run->regions[region].info.op;
        snprintf(buf, cap, "MPI_%c%s", op[0] >= 'a' && op[0] <= 'z' ? op[0] - 'a' + 'A' : op[0], op + 1);
        return;
    }
    snprintf(buf, cap, "%s", name);
}

/* " at waits.c:31", " at func+0x1a in libx.so", or "" when not known. */
static void site_text(char *buf, size_t cap, const ms_callsite *c)
{
    if (!c) {
        buf[0] = '\0';
        return;
    }
    if (c->line > 0) {
        const char *f = strrchr(c->file, '/');
        snprintf(buf, cap, " at %s:%d", f ? f + 1 : c->file, c->line);
    } else {
        snprintf(buf, cap, " at %s", c->location);
    }
    for (char *p = buf; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

int ms_report_waits_csv(FILE *fp, const ms_run *run)
{
    fputs(MS_WAITS_CSV_HEADER "\n", fp);
    const ms_waits *w = run->waits;
    for (size_t i = 0; w && i < w->nrows; i++) {
        const ms_wx_row *r = &w->rows[i];
        fprintf(fp, "%s,%" PRId32 ",", ms_wx_pattern_name(r->pattern), r->rank);
        ms_csv_field(fp, ms_run_wait_region(run, r->region));
        fprintf(fp, ",%" PRIu64 ",%.9f,%" PRId32 "\n", r->instances, (double)r->wait_ns / 1e9, r->cause_rank);
    }
    return ferror(fp) ? -1 : 0;
}

static const char *plural(uint64_t n)
{
    return n == 1 ? "" : "s";
}

static const char *const pattern_words[MS_WX_NPATTERNS] = {
    "late sender", "late receiver", "wait at barrier", "wait at N x N", "late broadcast", "early reduce",
};

/* The text's rows: the wait rows of one (pattern, rank, MPI call, call
 * site) summed, so that regions that differ only in bytes or peers (one
 * line of code sending varying sizes) read as one. Its cause: the rank
 * that most of its rows' time waited for. */
typedef struct group {
    uint8_t pattern;
    int32_t rank, cause;
    uint64_t instances, ns, cause_ns;
    char call[96], where[512];
} group;

static int group_cmp(const void *a, const void *b)
{
    const group *x = a, *y = b;
    if (x->pattern != y->pattern)
        return x->pattern < y->pattern ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    int c = strcmp(x->call, y->call);
    if (c)
        return c;
    c = strcmp(x->where, y->where);
    if (c)
        return c;
    /* Within a group, by cause, so that each cause's time adds up. */
    return x->cause < y->cause ? -1 : x->cause > y->cause;
}

static int group_time_cmp(const void *a, const void *b)
{
    const group *x = a, *y = b;
    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    return group_cmp(a, b);
}

/* The call site of a key of the site rows: a row of its place. */
static const ms_callsite *key_site(const ms_run *run, uint32_t key)
{
    uint32_t g = ms_run_wait_key_region(run, key);
    if (g == MS_WX_NONE)
        return NULL;
    const ms_site_place *p =
        ms_site_place_find(run->places, run->nplaces, run->regions[g].name, ms_run_wait_key_location(run, key));
    return p ? p->row : NULL;
}

static group *make_groups(const ms_run *run, const ms_waits *w, size_t *n)
{
    /* Per call site when the analysis kept them apart (site_rows). */
    int keyed = w->site_rows != NULL;
    const ms_wx_row *rows = keyed ? w->site_rows : w->rows;
    size_t nrows = keyed ? w->nsite_rows : w->nrows;
    group *g = malloc((nrows ? nrows : 1) * sizeof *g);
    if (!g)
        return NULL;
    for (size_t i = 0; i < nrows; i++) {
        const ms_wx_row *r = &rows[i];
        g[i] = (group){.pattern = r->pattern, .rank = r->rank, .cause = r->cause_rank, .instances = r->instances,
                       .ns = r->wait_ns, .cause_ns = r->wait_best};
        uint32_t region = keyed ? ms_run_wait_key_region(run, r->region) : r->region;
        call_name(g[i].call, sizeof g[i].call, run, region == MS_WX_NONE ? MS_WX_COMPUTE : region);
        site_text(g[i].where, sizeof g[i].where,
                  keyed ? key_site(run, r->region) : site_of(run, ms_run_wait_region(run, r->region), r->rank));
    }
    qsort(g, nrows, sizeof *g, group_cmp);
    size_t k = 0;
    for (size_t i = 0; i < nrows;) {
        group sum = g[i];
        sum.instances = sum.ns = sum.cause_ns = 0;
        uint64_t best = 0;
        size_t j = i;
        while (j < nrows && g[j].pattern == sum.pattern && g[j].rank == sum.rank &&
               strcmp(g[j].call, sum.call) == 0 && strcmp(g[j].where, sum.where) == 0) {
            uint64_t by = 0;
            int32_t cause = g[j].cause;
            for (; j < nrows && g[j].cause == cause && g[j].pattern == sum.pattern && g[j].rank == sum.rank &&
                   strcmp(g[j].call, sum.call) == 0 && strcmp(g[j].where, sum.where) == 0;
                 j++) {
                sum.instances += g[j].instances;
                sum.ns += g[j].ns;
                by += g[j].cause_ns;
            }
            if (by > best) {
                best = by;
                sum.cause = cause;
            }
        }
        g[k++] = sum;
        i = j;
    }
    qsort(g, k, sizeof *g, group_time_cmp);
    *n = k;
    return g;
}

static void text_rows(FILE *fp, const ms_run *run, const ms_waits *w)
{
    char tot[32], pct[32];
    ms_fmt_ns(tot, sizeof tot, w->wait_ns);
    if (run->mpi_ns)
        snprintf(pct, sizeof pct, "%.1f %%", 100.0 * (double)w->wait_ns / (double)run->mpi_ns);
    else
        snprintf(pct, sizeof pct, "-");
    fprintf(fp, "\nWait states: %s waiting in %zu calls, %s of MPI time\n", tot, w->ninst, pct);
    if (w->nrows == 0)
        fputs("  (no rank waited for another)\n", fp);
    size_t ng = 0;
    group *g = make_groups(run, w, &ng);
    size_t n = ng < TEXT_ROWS ? ng : TEXT_ROWS;
    for (size_t i = 0; g && i < n; i++) {
        char t[32];
        ms_fmt_ns(t, sizeof t, g[i].ns);
        fprintf(fp, "  rank %" PRId32 " · %s%s · %s · %" PRIu64 " call%s · %s · waited for rank %" PRId32 "\n",
                g[i].rank, g[i].call, g[i].where, pattern_words[g[i].pattern], g[i].instances,
                g[i].instances == 1 ? "" : "s", t, g[i].cause);
    }
    if (g && ng > n)
        fprintf(fp, "  ... %zu more (--waits-csv lists every region)\n", ng - n);
    free(g);
    fputs("  by pattern:", fp);
    int any = 0;
    for (int p = 0; p < MS_WX_NPATTERNS; p++)
        if (w->pattern_ns[p]) {
            ms_fmt_ns(tot, sizeof tot, w->pattern_ns[p]);
            fprintf(fp, "%s %s %s", any ? "," : "", ms_wx_pattern_name(p), tot);
            any = 1;
        }
    fprintf(fp, "%s\n", any ? "" : " none");
    fprintf(fp, "  matched %" PRIu64 " message%s and %" PRIu64 " collective%s", w->messages, plural(w->messages),
            w->colls, plural(w->colls));
    if (w->unmatched_sends || w->unmatched_recvs || w->unmatched_colls)
        fprintf(fp, "; without a partner: %" PRIu64 " send%s, %" PRIu64 " receive%s, %" PRIu64 " collective call%s",
                w->unmatched_sends, plural(w->unmatched_sends), w->unmatched_recvs, plural(w->unmatched_recvs),
                w->unmatched_colls, plural(w->unmatched_colls));
    fputs("\n", fp);
    if (run->wait_ranks_old)
        fprintf(fp, "  (the logs of %zu rank%s predate format version 5 and hold no message records:\n"
                "  receives completed several at a time and Sendrecv's received half are not matched)\n",
                run->wait_ranks_old, plural(run->wait_ranks_old));
    if (w->clock_violations) {
        char by[32];
        ms_fmt_ns(by, sizeof by, w->clock_violation_max_ns);
        fprintf(fp, "  %" PRIu64 " receive%s ended before the matched send began, by at most %s (clock "
                "condition): clamped to the call\n", w->clock_violations, w->clock_violations == 1 ? "" : "s", by);
    }
}

/* "MPI_Waitall at main (halo.c:87)", "(compute)", or a user region's name,
 * for a region (or key) of the path. */
static void path_label(char *buf, size_t cap, const ms_run *run, uint32_t region, int keyed)
{
    uint32_t g = keyed ? ms_run_wait_key_region(run, region) : region;
    if (g == MS_WX_NONE || g >= run->nregions) {
        snprintf(buf, cap, "(compute: outside MPI calls and user regions)");
        return;
    }
    const ms_region *r = &run->regions[g];
    char site[400], fn[128];
    const ms_callsite *at = keyed ? key_site(run, region) : NULL;
    if (r->info.is_mpi) {
        ms_mpi_function(fn, sizeof fn, r->info.op);
        if (at) {
            ms_site_label(site, sizeof site, at, 70);
            snprintf(buf, cap, "%.100s at %.360s", fn, site);
        } else {
            snprintf(buf, cap, "%s", fn);
        }
    } else {
        ms_printable(buf, cap, r->name);
    }
}

typedef struct path_row {
    uint64_t ns;
    char label[512];
} path_row;

static int path_label_cmp(const void *a, const void *b)
{
    return strcmp(((const path_row *)a)->label, ((const path_row *)b)->label);
}

static int path_time_cmp(const void *a, const void *b)
{
    const path_row *x = a, *y = b;
    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    return strcmp(x->label, y->label);
}

static int text_path(FILE *fp, const ms_run *run, const ms_waits *w)
{
    if (!w->has_path)
        return 0;
    char len[32], imb[32];
    ms_fmt_ns(len, sizeof len, w->path_ns);
    ms_fmt_ns(imb, sizeof imb, w->imbalance_ns);
    fprintf(fp, "\nCritical path: %s, imbalance %s (its time beyond the mean rank's busy time)\n", len, imb);
    fputs("   rank     compute         MPI\n", fp);
    for (size_t i = 0; i < w->npath_ranks; i++) {
        const ms_wx_path_rank *p = &w->path_ranks[i];
        if (!p->compute_ns && !p->mpi_ns)
            continue;
        char c[32], m[32];
        ms_fmt_ns(c, sizeof c, p->compute_ns);
        ms_fmt_ns(m, sizeof m, p->mpi_ns);
        fprintf(fp, "  %5" PRId32 " %11s %11s\n", p->rank, c, m);
    }
    /* Per call site when the analysis kept them apart (path_sites). */
    int keyed = w->path_sites != NULL;
    const ms_wx_path_region *pr = keyed ? w->path_sites : w->path_regions;
    size_t npr = keyed ? w->npath_sites : w->npath_regions;
    /* The regions of one MPI function at one call site (its messages'
     * sizes and peers) are one row. */
    path_row *rows = malloc((npr ? npr : 1) * sizeof *rows);
    if (!rows)
        return -1;
    for (size_t i = 0; i < npr; i++) {
        rows[i].ns = pr[i].on_path_ns;
        path_label(rows[i].label, sizeof rows[i].label, run, pr[i].region, keyed);
    }
    qsort(rows, npr, sizeof *rows, path_label_cmp);
    size_t m = 0;
    for (size_t i = 0; i < npr; i++) {
        if (m > 0 && strcmp(rows[m - 1].label, rows[i].label) == 0)
            rows[m - 1].ns += rows[i].ns;
        else
            rows[m++] = rows[i];
    }
    qsort(rows, m, sizeof *rows, path_time_cmp);
    size_t n = m < TEXT_PATH_ROWS ? m : TEXT_PATH_ROWS;
    fputs("  on the path  where\n", fp);
    for (size_t i = 0; i < n; i++) {
        char t[32];
        ms_fmt_ns(t, sizeof t, rows[i].ns);
        fprintf(fp, "  %11s  %s\n", t, rows[i].label);
    }
    if (m > n)
        fprintf(fp, "  ... %zu more (--json \"critical_path\" lists every region)\n", m - n);
    free(rows);
    return 0;
}

int ms_report_waits_text(FILE *fp, const ms_run *run)
{
    if (!run->waits) {
        if (run->summary_ranks)
            fputs("\nWait states: they need a trace; this run was recorded in summary mode "
                  "(MPISCOPE_MODE=summary)\n", fp);
        return ferror(fp) ? -1 : 0;
    }
    if (run->summary_ranks)
        fprintf(fp, "\nWait states: of the %zu traced ranks only; %zu ranks were recorded in summary mode\n",
                run->wait_ranks, run->summary_ranks);
    text_rows(fp, run, run->waits);
    if (text_path(fp, run, run->waits) != 0)
        return -1;
    return ferror(fp) ? -1 : 0;
}

int ms_report_waits_json(FILE *fp, const ms_run *run)
{
    const ms_waits *w = run->waits;
    if (!w) {
        fputs("\"wait_states\":null,\n\"critical_path\":null", fp);
        return ferror(fp) ? -1 : 0;
    }
    fputs("\"wait_states\":[", fp);
    for (size_t i = 0; i < w->nrows; i++) {
        const ms_wx_row *r = &w->rows[i];
        const char *region = ms_run_wait_region(run, r->region);
        fprintf(fp, "%s\n{\"pattern\":\"%s\",\"rank\":%" PRId32 ",\"region\":", i ? "," : "",
                ms_wx_pattern_name(r->pattern), r->rank);
        ms_json_write_str(fp, region, strlen(region), MS_JSON_SHORT_CONTROLS);
        fprintf(fp, ",\"instances\":%" PRIu64 ",\"wait_s\":%.9f,\"cause_rank\":%" PRId32 ",\"site\":", r->instances,
                (double)r->wait_ns / 1e9, r->cause_rank);
        const ms_callsite *c = site_of(run, region, r->rank);
        if (c) {
            fputs("{\"function\":", fp);
            ms_json_write_str(fp, c->function, strlen(c->function), MS_JSON_SHORT_CONTROLS);
            fputs(",\"file\":", fp);
            ms_json_write_str(fp, c->file, strlen(c->file), MS_JSON_SHORT_CONTROLS);
            fprintf(fp, ",\"line\":%d}", c->line);
        } else {
            fputs("null", fp);
        }
        fputc('}', fp);
    }
    fprintf(fp, "],\n\"wait_summary\":{\"wait_s\":%.9f,\"calls\":%zu,\"messages\":%" PRIu64
                ",\"collectives\":%" PRIu64 ",\"unmatched_sends\":%" PRIu64 ",\"unmatched_recvs\":%" PRIu64
                ",\"unmatched_collectives\":%" PRIu64 ",\"clock_violations\":%" PRIu64
                ",\"clock_violation_max_s\":%.9f},\n",
            (double)w->wait_ns / 1e9, w->ninst, w->messages, w->colls, w->unmatched_sends, w->unmatched_recvs,
            w->unmatched_colls, w->clock_violations, (double)w->clock_violation_max_ns / 1e9);
    if (!w->has_path) {
        fputs("\"critical_path\":null", fp);
        return ferror(fp) ? -1 : 0;
    }
    fprintf(fp, "\"critical_path\":{\"length_s\":%.9f,\"imbalance_s\":%.9f,\"ranks\":[", (double)w->path_ns / 1e9,
            (double)w->imbalance_ns / 1e9);
    for (size_t i = 0; i < w->npath_ranks; i++)
        fprintf(fp, "%s{\"rank\":%" PRId32 ",\"compute_s\":%.9f,\"mpi_s\":%.9f}", i ? "," : "",
                w->path_ranks[i].rank, (double)w->path_ranks[i].compute_ns / 1e9,
                (double)w->path_ranks[i].mpi_ns / 1e9);
    fputs("],\"regions\":[", fp);
    for (size_t i = 0; i < w->npath_regions; i++) {
        const char *name = ms_run_wait_region(run, w->path_regions[i].region);
        fprintf(fp, "%s{\"region\":", i ? "," : "");
        ms_json_write_str(fp, name, strlen(name), MS_JSON_SHORT_CONTROLS);
        fprintf(fp, ",\"on_path_s\":%.9f}", (double)w->path_regions[i].on_path_ns / 1e9);
    }
    fputs("]}", fp);
    return ferror(fp) ? -1 : 0;
}
