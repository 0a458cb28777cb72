/* The root causes and the fixes in words: see cause_words.h. */
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

void ms_fix_action(char *buf, size_t cap, const ms_run *run, const ms_wx_fix *f)
{
    char place[1700];
    ms_cause_place(place, sizeof place, run, f->kind, f->region, f->region2);
    if (f->kind == MS_WX_CAUSE_COMPUTE)
        snprintf(buf, cap, "balancing rank %d's %s", (int)f->rank, place);
    else
        snprintf(buf, cap, "balancing rank %d's time in %s", (int)f->rank, place);
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
