/*
 * The text report's sections that lead its wait-state part (report.h):
 *   Root causes             where the waiting began: per (rank, place) the
 *                           delay it caused and the waiting that followed,
 *                           direct and passed on (ms_waits.causes)
 *   What a fix would save   the what-if's projections (ms_waits.fixes) and
 *                           its bound, the run without any waiting
 *   The late ranks          the waiting each rank caused in others
 *                           (ms_waits.late)
 * Each is left out when the analysis has nothing for it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../read/worlds.h"
#include "cause_words.h"
#include "report.h"
#include "units.h"
#include "../waits/waits.h"

#define LATE_ROWS 10

static const char *plural(size_t n)
{
    return n == 1 ? "" : "s";
}

static void causes(FILE *fp, const ms_run *run, const ms_waits *w)
{
    if (!w->has_causes || !w->ncauses)
        return;
    size_t n = w->ncauses < MS_CAUSE_ROWS ? w->ncauses : MS_CAUSE_ROWS;
    size_t all = w->ncauses_all > w->ncauses ? w->ncauses_all : w->ncauses;
    if (all > n)
        fprintf(fp, "\nRoot causes: where the waiting began (the %zu of %zu places that led to the most waiting)\n", n,
                all);
    else
        fprintf(fp, "\nRoot causes: where the waiting began (%zu place%s)\n", n, plural(n));
    char line[4096];
    for (size_t i = 0; i < n; i++) {
        ms_cause_line(line, sizeof line, run, &w->causes[i]);
        ms_put_hanging(fp, line, 2, 6);
    }
    ms_cause_total(line, sizeof line, w);
    fprintf(fp, "  %s\n", line);
    ms_put_wrapped(fp, MS_CAUSE_TERMS);
    if (w->cause_unexplained_ns) {
        ms_cause_unexplained(line, sizeof line, w);
        ms_put_wrapped(fp, line);
    }
    if (w->cause_launch_ns) {
        ms_cause_launch(line, sizeof line, w);
        ms_put_wrapped(fp, line);
    }
}

static void fixes(FILE *fp, const ms_run *run, const ms_waits *w)
{
    if (!w->has_what_if)
        return;
    fputs("\nWhat a fix would save\n", fp);
    ms_put_wrapped(fp, "(" MS_WHAT_IF_TERMS ")");
    char line[4096];
    ms_what_if_bound(line, sizeof line, w);
    fprintf(fp, "  %s\n", line);
    size_t n = w->nfixes < MS_CAUSE_ROWS ? w->nfixes : MS_CAUSE_ROWS;
    for (size_t i = 0; i < n; i++) {
        ms_fix_line(line, sizeof line, run, w, &w->fixes[i]);
        ms_put_hanging(fp, line, 2, 6);
    }
}

static int late(FILE *fp, const ms_waits *w)
{
    if (!w->nlate)
        return 0;
    ms_wx_late *s = ms_late_by_time(w);
    if (!s)
        return -1;
    fputs("\nThe late ranks: the waiting each rank caused in others (the late sender, the late root, the last\n"
          "one in), summed over the calls that waited for it\n"
          "   rank       caused   % of waiting   calls that waited\n", fp);
    size_t n = w->nlate < LATE_ROWS ? w->nlate : LATE_ROWS;
    for (size_t i = 0; i < n; i++) {
        char t[32], pct[32], calls[32];
        ms_fmt_ns(t, sizeof t, s[i].ns);
        ms_fmt_pct(pct, sizeof pct, w->wait_ns ? 100.0 * (double)s[i].ns / (double)w->wait_ns : 0.0);
        ms_fmt_count(calls, sizeof calls, s[i].calls);
        fprintf(fp, "  %5s  ", ms_rank_s(s[i].rank).s);
        ms_cell(fp, t, 11, 1);
        ms_cell(fp, pct, 15, 1);
        ms_cell(fp, calls, 20, 1);
        fputc('\n', fp);
    }
    if (w->nlate > n)
        fprintf(fp, "  ... %zu more rank%s\n", w->nlate - n, plural(w->nlate - n));
    free(s);
    return 0;
}

int ms_report_causes_text(FILE *fp, const ms_run *run)
{
    const ms_waits *w = run->waits;
    if (!w)
        return 0;
    causes(fp, run, w);
    fixes(fp, run, w);
    if (late(fp, w) != 0)
        return -1;
    return ferror(fp) ? -1 : 0;
}
