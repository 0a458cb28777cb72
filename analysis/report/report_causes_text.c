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

#include "cause_words.h"
#include "report.h"
#include "units.h"
#include "../reduce/ops.h"
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
    for (size_t i = 0; i < n; i++) {
        const ms_wx_cause *c = &w->causes[i];
        char place[1700], delay[32], total[32], direct[32], indirect[32];
        ms_cause_place(place, sizeof place, run, c->kind, c->region, c->region2);
        ms_fmt_ns(delay, sizeof delay, c->delay_ns);
        ms_fmt_ns(total, sizeof total, ms_sat_add(c->direct_ns, c->indirect_ns));
        ms_fmt_ns(direct, sizeof direct, c->direct_ns);
        ms_fmt_ns(indirect, sizeof indirect, c->indirect_ns);
        fprintf(fp, "  rank %" PRId32 " · %s%s · delayed others by %s, which led to %s of waiting (%s direct, %s "
                    "indirect)\n",
                c->rank, place, c->kind == MS_WX_CAUSE_MPI ? ", not waiting" : "", delay, total, direct, indirect);
    }
    char direct[32], indirect[32];
    ms_fmt_ns(direct, sizeof direct, w->cause_direct_ns);
    ms_fmt_ns(indirect, sizeof indirect, w->cause_indirect_ns);
    fprintf(fp, "  in all: %s direct, %s indirect\n", direct, indirect);
    fputs("  (delay: the time a rank took beyond the ranks that waited for it, before the point where they\n"
          "  met; direct: the waiting it caused there; indirect: the waiting passed on by those who waited)\n",
          fp);
    if (w->cause_unexplained_ns) {
        char u[32];
        ms_fmt_ns(u, sizeof u, w->cause_unexplained_ns);
        fprintf(fp, "  %s of waiting had no cause found: the rank waited for took no longer than the waiter\n"
                    "  (clocks differ between ranks)\n", u);
    }
}

static void fixes(FILE *fp, const ms_run *run, const ms_waits *w)
{
    if (!w->has_what_if)
        return;
    char run_s[32], bound[32];
    ms_fmt_ns(run_s, sizeof run_s, w->run_ns);
    ms_fmt_ns(bound, sizeof bound, w->no_waiting_ns);
    fputs("\nWhat a fix would save: a projection on the recorded run (the waits a change would create are\n"
          "not modelled)\n", fp);
    fprintf(fp, "  with no waiting at all the run would take %s (of %s)\n", bound, run_s);
    size_t n = w->nfixes < MS_CAUSE_ROWS ? w->nfixes : MS_CAUSE_ROWS;
    for (size_t i = 0; i < n; i++) {
        const ms_wx_fix *f = &w->fixes[i];
        char action[2000], saving[32], removed[32];
        ms_fix_action(action, sizeof action, run, f);
        ms_fmt_ns(saving, sizeof saving, f->saving_ns);
        ms_fmt_ns(removed, sizeof removed, f->removed_ns);
        const char *from = f->from == MS_WX_FIX_PATH ? "on the critical path" : "a top root cause";
        if (f->saving_ns)
            fprintf(fp, "  %s would shorten the run by ~%s (of %s), taking %s out of it (%s)\n", action, saving,
                    run_s, removed, from);
        else
            fprintf(fp, "  %s would not shorten the run, taking %s out of it (%s)\n", action, removed, from);
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
        fprintf(fp, "  %5" PRId32 "  ", s[i].rank);
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
