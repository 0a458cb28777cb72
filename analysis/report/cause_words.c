/* The root causes and the fixes in words: see cause_words.h. */
#include "../read/worlds.h"
#include "cause_words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "units.h"
#include "wait_sites.h"

#define SITE_WIDTH 60   /* columns of a call site's label (names.h) */

/* "MPI_Waitall at exchange (halo.c:87)", a user region's short name at its
 * site, or `none` for MS_WX_NONE. */
static void call_at(char *buf, size_t cap, const ms_run *run, uint32_t key, const char *none)
{
    if (key == MS_WX_NONE) {
        snprintf(buf, cap, "%s", none);
        return;
    }
    ms_wait_site g;
    ms_wait_site_of_key(&g, run, key);
    char call[256], site[512];
    ms_printable(call, sizeof call, g.call);
    const ms_callsite *at = ms_wait_site_at(run, &g);
    if (at) {
        ms_site_label(site, sizeof site, at, SITE_WIDTH);
        snprintf(buf, cap, "%.250s at %.500s", call, site);
    } else {
        snprintf(buf, cap, "%s", call);
    }
}

void ms_cause_place(char *buf, size_t cap, const ms_run *run, uint8_t kind, uint32_t region, uint32_t region2)
{
    char a[800], b[800];
    call_at(a, sizeof a, run, region, "MPI_Init");
    switch (kind) {
    case MS_WX_CAUSE_COMPUTE:
        call_at(b, sizeof b, run, region2, "MPI_Finalize");
        snprintf(buf, cap, "compute between %s and %s", a, b);
        break;
    case MS_WX_CAUSE_USER:
        snprintf(buf, cap, "user region %s", a);
        break;
    default:
        snprintf(buf, cap, "%s", a);
        break;
    }
}

/* What a fix does: "balancing rank 3's compute between ..." */
static void fix_action(char *buf, size_t cap, const ms_run *run, const ms_wx_fix *f)
{
    char place[1700];
    ms_cause_place(place, sizeof place, run, f->kind, f->region, f->region2);
    if (f->kind == MS_WX_CAUSE_COMPUTE)
        snprintf(buf, cap, "balancing rank %s's %s", ms_rank_s(f->rank).s, place);
    else
        snprintf(buf, cap, "balancing rank %s's time in %s", ms_rank_s(f->rank).s, place);
}

void ms_cause_line(char *buf, size_t cap, const ms_run *run, const ms_wx_cause *c)
{
    char place[1700], delay[32], total[32], direct[32], indirect[32];
    ms_cause_place(place, sizeof place, run, c->kind, c->region, c->region2);
    ms_fmt_ns(delay, sizeof delay, c->delay_ns);
    uint64_t sum = c->direct_ns + c->indirect_ns;
    ms_fmt_ns(total, sizeof total, sum < c->direct_ns ? UINT64_MAX : sum);
    ms_fmt_ns(direct, sizeof direct, c->direct_ns);
    ms_fmt_ns(indirect, sizeof indirect, c->indirect_ns);
    snprintf(buf, cap, "rank %s · %s%s · delayed others by %s, which led to %s of waiting (%s direct, %s indirect)",
             ms_rank_s(c->rank).s, place, c->kind == MS_WX_CAUSE_MPI ? ", not waiting" : "", delay, total, direct, indirect);
}

void ms_fix_line(char *buf, size_t cap, const ms_run *run, const ms_waits *w, const ms_wx_fix *f)
{
    char action[2000], saving[32], removed[32], run_s[32];
    fix_action(action, sizeof action, run, f);
    ms_fmt_ns(saving, sizeof saving, f->saving_ns);
    ms_fmt_ns(removed, sizeof removed, f->removed_ns);
    ms_fmt_ns(run_s, sizeof run_s, w->run_ns);
    const char *from = f->from == MS_WX_FIX_PATH ? "on the critical path" : "a top root cause";
    if (f->saving_ns)
        snprintf(buf, cap, "%s would shorten the run by ~%s (of %s), taking %s out of it (%s)", action, saving, run_s,
                 removed, from);
    else
        snprintf(buf, cap, "%s would not shorten the run, taking %s out of it (%s)", action, removed, from);
}

void ms_cause_total(char *buf, size_t cap, const ms_waits *w)
{
    char direct[32], indirect[32];
    ms_fmt_ns(direct, sizeof direct, w->cause_direct_ns);
    ms_fmt_ns(indirect, sizeof indirect, w->cause_indirect_ns);
    snprintf(buf, cap, "in all: %s direct, %s indirect", direct, indirect);
}

void ms_cause_unexplained(char *buf, size_t cap, const ms_waits *w)
{
    char u[32];
    ms_fmt_ns(u, sizeof u, w->cause_unexplained_ns);
    snprintf(buf, cap, "%s of waiting had no cause found: the rank waited for took no longer than the waiter "
                       "(clocks differ between ranks)", u);
}

void ms_cause_launch(char *buf, size_t cap, const ms_waits *w)
{
    char u[32];
    ms_fmt_ns(u, sizeof u, w->cause_launch_ns);
    snprintf(buf, cap, "%s of waiting began before every rank had left MPI_Init (ranks start apart: the "
                       "launch, not the program)", u);
}

void ms_what_if_bound(char *buf, size_t cap, const ms_waits *w)
{
    char run_s[32], bound[32];
    ms_fmt_ns(run_s, sizeof run_s, w->run_ns);
    ms_fmt_ns(bound, sizeof bound, w->no_waiting_ns);
    snprintf(buf, cap, "with no waiting at all the run would take %s (of %s)", bound, run_s);
}

static int late_cmp(const void *a, const void *b)
{
    const ms_wx_late *x = a, *y = b;
    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

ms_wx_late *ms_late_by_time(const ms_waits *w)
{
    if (!w->nlate)
        return NULL;
    ms_wx_late *s = malloc(w->nlate * sizeof *s);
    if (!s)
        return NULL;
    memcpy(s, w->late, w->nlate * sizeof *s);
    qsort(s, w->nlate, sizeof *s, late_cmp);
    return s;
}
