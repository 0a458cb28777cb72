/*
 * Wait states and the critical path in the reports (run->waits,
 * analysis/waits/waits.h):
 *   waits_csv   pattern,rank,region,instances,wait_s,cause_rank: one row per
 *               (pattern, waiting rank, region), most waiting first
 *   waits_text  the root causes, what a fix would save and the late ranks
 *               (report_causes_text.c), then the "Wait states" (each row
 *               with its root-cause rank where another) and "Critical
 *               path" sections, in words
 *   waits_json  the values of "wait_states" (the rows, with their cause and
 *               root-cause ranks and the region's dominant call site on
 *               that rank) and "critical_path" (per rank, and per thread
 *               where the path runs on a rank's thread but the first)
 * A run recorded in summary mode has neither: the text says that wait
 * states need a trace, the JSON holds null.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../read/worlds.h"
#include "csv.h"
#include "json_str.h"
#include "report.h"
#include "names.h"
#include "wait_sites.h"
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
        fprintf(fp, "%s,%s,", ms_wx_pattern_name(r->pattern), ms_rank_s(r->rank).s);
        ms_csv_field(fp, ms_run_wait_region(run, r->region));
        fprintf(fp, ",%" PRIu64 ",%.9f,%s\n", r->instances, (double)r->wait_ns / 1e9, ms_rank_s(r->cause_rank).s);
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
    /* One row per (pattern, rank, MPI function, call site). */
    size_t ng = 0;
    ms_wait_site *g = NULL;
    if (ms_wait_sites_rows(run, &g, &ng) != 0)
        g = NULL, ng = 0;
    size_t n = ng < TEXT_ROWS ? ng : TEXT_ROWS;
    for (size_t i = 0; g && i < n; i++) {
        char t[32], call[256], where[512];
        ms_fmt_ns(t, sizeof t, g[i].ns);
        ms_printable(call, sizeof call, g[i].call);
        site_text(where, sizeof where, ms_wait_site_at(run, &g[i]));
        fprintf(fp, "  rank %s · %s%s · %s · %" PRIu64 " call%s · %s · waited for rank %s", ms_rank_s(g[i].rank).s,
                call, where, pattern_words[g[i].pattern], g[i].instances, g[i].instances == 1 ? "" : "s", t,
                ms_rank_s(g[i].cause).s);
        if (g[i].root >= 0 && g[i].root != g[i].cause)
            fprintf(fp, " (root cause: rank %s)", ms_rank_s(g[i].root).s);
        fputc('\n', fp);
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
        if (w->clock_violations == 1)
            fprintf(fp, "  1 receive appears to end before its send began, by %s, because clocks differ between\n"
                        "  ranks; it was adjusted\n", by);
        else
            fprintf(fp, "  %" PRIu64 " receives appear to end before their send began, by at most %s, because clocks\n"
                        "  differ between ranks; they were adjusted\n", w->clock_violations, by);
    }
}

/* "MPI_Waitall at main (halo.c:87)", the compute between calls, or a user
 * region's name: a piece of the path. */
static void path_label(char *buf, size_t cap, const ms_run *run, const ms_wait_site *g)
{
    char call[256], site[400];
    ms_printable(call, sizeof call, g->call);
    const ms_callsite *at = ms_wait_site_at(run, g);
    if (g->region == MS_WX_NONE || g->region >= run->nregions) {
        snprintf(buf, cap, "(compute: outside MPI calls and user regions)");
    } else if (run->regions[g->region].info.is_mpi && at) {
        ms_site_label(site, sizeof site, at, 70);
        snprintf(buf, cap, "%.100s at %.360s", call, site);
    } else {
        snprintf(buf, cap, "%s", call);
    }
}

/* The rows of w->path_threads of rank `rank` from *at (they are by rank):
 * their count; *at moves to the first of them. */
static size_t thread_rows(const ms_waits *w, int32_t rank, size_t *at)
{
    while (*at < w->npath_threads && w->path_threads[*at].rank < rank)
        (*at)++;
    size_t n = 0;
    while (*at + n < w->npath_threads && w->path_threads[*at + n].rank == rank)
        n++;
    return n;
}

static void text_share(FILE *fp, const ms_waits *w, uint64_t compute_ns, uint64_t mpi_ns)
{
    char c[32], m[32], pct[32];
    ms_fmt_ns(c, sizeof c, compute_ns);
    ms_fmt_ns(m, sizeof m, mpi_ns);
    ms_fmt_pct(pct, sizeof pct, w->path_ns ? 100.0 * (double)(compute_ns + mpi_ns) / (double)w->path_ns : 0);
    ms_cell(fp, c, 11, 1);
    fputc(' ', fp);
    ms_cell(fp, m, 11, 1);
    fprintf(fp, "  %10s %%\n", pct);
}

static int text_path(FILE *fp, const ms_run *run, const ms_waits *w)
{
    if (!w->has_path)
        return 0;
    uint64_t compute = 0, mpi = 0;
    for (size_t i = 0; i < w->npath_ranks; i++) {
        compute = ms_sat_add(compute, w->path_ranks[i].compute_ns);
        mpi = ms_sat_add(mpi, w->path_ranks[i].mpi_ns);
    }
    char len[32], imb[32], c[32], m[32];
    ms_fmt_ns(len, sizeof len, w->path_ns);
    ms_fmt_ns(imb, sizeof imb, w->imbalance_ns);
    ms_fmt_ns(c, sizeof c, compute);
    ms_fmt_ns(m, sizeof m, mpi);
    fprintf(fp, "\nCritical path: %s, of it compute %s and MPI %s\n"
                "  the chain of compute and MPI calls that set the run's length: walked back from the last rank to\n"
                "  enter MPI_Finalize, it moves, where a call waited, to the rank that call waited for\n",
            len, c, m);
    fprintf(fp, "  imbalance %s: how much longer the critical path is than the average rank's busy time\n"
                "  (application time less waiting): a perfectly balanced run could end %s sooner\n", imb, imb);
    if (w->npath_threads)
        fputs("  on a rank, the path follows the thread whose call it is in; rows t0, t1, ... below a rank:\n"
              "  its threads 0 (the one that made MPI_Init), 1, ..., where the path runs on one but the first\n",
              fp);
    fputs("   rank     compute         MPI   of the path\n", fp);
    size_t at = 0;
    for (size_t i = 0; i < w->npath_ranks; i++) {
        const ms_wx_path_rank *p = &w->path_ranks[i];
        if (!p->compute_ns && !p->mpi_ns)
            continue;
        fprintf(fp, "  %5s ", ms_rank_s(p->rank).s);
        text_share(fp, w, p->compute_ns, p->mpi_ns);
        size_t nt = thread_rows(w, p->rank, &at);
        for (size_t k = 0; k < nt; k++) {
            const ms_wx_path_thread *t = &w->path_threads[at + k];
            fprintf(fp, "    t%-2" PRIu32 " ", t->thread);
            text_share(fp, w, t->compute_ns, t->mpi_ns);
        }
    }
    /* One row per MPI function and call site. */
    ms_wait_site *g;
    size_t ng;
    if (ms_wait_sites_path(run, &g, &ng) != 0)
        return -1;
    size_t n = ng < TEXT_PATH_ROWS ? ng : TEXT_PATH_ROWS;
    fputs("  on the path  per call site\n", fp);
    for (size_t i = 0; i < n; i++) {
        char t[32], label[512];
        ms_fmt_ns(t, sizeof t, g[i].ns);
        path_label(label, sizeof label, run, &g[i]);
        fputs("  ", fp);
        ms_cell(fp, t, 11, 1);
        fprintf(fp, "  %s\n", label);
    }
    if (ng > n)
        fprintf(fp, "  ... %zu more (--json \"critical_path\" lists every region)\n", ng - n);
    free(g);
    return 0;
}

int ms_report_waits_text(FILE *fp, const ms_run *run)
{
    if (!run->waits) {
        if (run->waits_skipped)
            fprintf(fp, "\nWait states: left out, with the critical path: %s (a higher --mem-limit "
                        "gives them)\n",
                    run->waits_skipped);
        else if (run->summary_ranks)
            fputs("\nWait states: they need a trace; this run was recorded in summary mode "
                  "(MPISCOPE_MODE=summary)\n", fp);
        return ferror(fp) ? -1 : 0;
    }
    if (run->summary_ranks)
        fprintf(fp, "\nWait states: of the %zu traced ranks only; %zu ranks were recorded in summary mode\n",
                run->wait_ranks, run->summary_ranks);
    if (ms_report_causes_text(fp, run) != 0)
        return -1;
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
        if (run->waits_skipped) {
            fputs(",\n\"wait_states_skipped\":", fp);
            ms_json_put_str(fp, run->waits_skipped, strlen(run->waits_skipped));
        }
        return ferror(fp) ? -1 : 0;
    }
    fputs("\"wait_states\":[", fp);
    for (size_t i = 0; i < w->nrows; i++) {
        const ms_wx_row *r = &w->rows[i];
        const char *region = ms_run_wait_region(run, r->region);
        fprintf(fp, "%s\n{\"pattern\":\"%s\",\"rank\":%" PRId32 ",\"region\":", i ? "," : "",
                ms_wx_pattern_name(r->pattern), r->rank);
        ms_json_write_str(fp, region, strlen(region), MS_JSON_SHORT_CONTROLS);
        fprintf(fp, ",\"instances\":%" PRIu64 ",\"wait_s\":%.9f,\"cause_rank\":%" PRId32 ",\"root_rank\":%" PRId32
                    ",\"site\":",
                r->instances, (double)r->wait_ns / 1e9, r->cause_rank, r->root_rank);
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
    size_t at = 0;
    for (size_t i = 0; i < w->npath_ranks; i++) {
        fprintf(fp, "%s{\"rank\":%" PRId32 ",\"compute_s\":%.9f,\"mpi_s\":%.9f", i ? "," : "",
                w->path_ranks[i].rank, (double)w->path_ranks[i].compute_ns / 1e9,
                (double)w->path_ranks[i].mpi_ns / 1e9);
        size_t nt = thread_rows(w, w->path_ranks[i].rank, &at);
        if (nt)
            fputs(",\"threads\":[", fp);
        for (size_t k = 0; k < nt; k++) {
            const ms_wx_path_thread *t = &w->path_threads[at + k];
            fprintf(fp, "%s{\"thread\":%" PRIu32 ",\"compute_s\":%.9f,\"mpi_s\":%.9f}", k ? "," : "", t->thread,
                    (double)t->compute_ns / 1e9, (double)t->mpi_ns / 1e9);
        }
        fputs(nt ? "]}" : "}", fp);
    }
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
