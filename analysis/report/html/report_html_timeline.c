/* HTML report: the timeline (report_html.h). The calls come from the
 * replay of the timeline (timeline_replay.h), one rank after the other; of
 * each rank only the `cap` longest events are kept (a min-heap on
 * duration), so memory and the page follow that bound, never the number of
 * events. A window (window.h) keeps the ranks it lists and the calls inside
 * it. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "html_parts.h"
#include "../../reduce/ops.h"
#include "../timeline_replay.h"

#define NO_REGION UINT32_MAX

typedef struct tl_event {
    int64_t start;        /* relative to the run's origin, ns */
    uint64_t dur;
    uint32_t region;      /* index into run->regions */
} tl_event;

typedef struct tl_ctx {
    FILE *fp;
    const ms_run *run;
    tl_event *heap;             /* min-heap on dur, cap entries */
    size_t n, cap;
    uint64_t seen;
    uint32_t *name_of;          /* run region -> index into the names */
    uint32_t *names;            /* the names' run regions */
    uint32_t nnames;
    size_t lanes, maxlanes;
} tl_ctx;

static void sift_down(tl_event *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && h[l].dur < h[m].dur)
            m = l;
        if (l + 1 < n && h[l + 1].dur < h[m].dur)
            m = l + 1;
        if (m == i)
            return;
        tl_event t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static int on_call(void *ctx, const ms_replay_call *k)
{
    tl_ctx *c = ctx;
    if (!k->run_region || !k->kept)
        return 0;
    tl_event e = {k->start, (uint64_t)k->dur, (uint32_t)(k->run_region - c->run->regions)};
    c->seen++;
    if (c->n < c->cap) {
        size_t i = c->n++;
        c->heap[i] = e;
        while (i > 0 && c->heap[(i - 1) / 2].dur > c->heap[i].dur) {
            tl_event t = c->heap[i];
            c->heap[i] = c->heap[(i - 1) / 2];
            c->heap[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
    } else if (e.dur > c->heap[0].dur) {
        c->heap[0] = e;
        sift_down(c->heap, c->n, 0);
    }
    return 0;
}

static int start_cmp(const void *a, const void *b)
{
    const tl_event *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->dur < y->dur ? -1 : x->dur > y->dur;
}

/* One rank's lane: its extent, counts and kept events as a flat array
 * [start, duration, name, ...] (name: index into the timeline's names). */
static void put_lane(FILE *fp, const ms_run *run, const ms_rank_info *in, const tl_ctx *c,
                     const uint32_t *name_of, int readable)
{
    fprintf(fp, "{\"rank\":%" PRId32 ",\"begin\":%" PRId64 ",\"end\":%" PRId64 ",\"events\":%" PRIu64
                ",\"readable\":%s,\"ev\":[",
            in->rank, in->has_events ? in->first_start - run->origin : 0,
            in->has_events ? in->last_end - run->origin : 0, c->seen, readable ? "true" : "false");
    for (size_t i = 0; i < c->n; i++)
        fprintf(fp, "%s%" PRId64 ",%" PRIu64 ",%" PRIu32, i ? "," : "", c->heap[i].start, c->heap[i].dur,
                name_of[c->heap[i].region]);
    fputs("]}", fp);
}

static int on_rank(void *ctx, const ms_rank_info *in)
{
    (void)in;
    tl_ctx *c = ctx;
    c->n = 0;
    c->seen = 0;
    return 0;
}

/* A rank read: its lane written; the replay stops after the last lane. */
static int on_rank_done(void *ctx, const ms_rank_info *in, ms_read_status st, const char *message)
{
    (void)message;
    tl_ctx *c = ctx;
    if (st == MS_READ_STOPPED)
        return -1;
    int readable = st == MS_READ_OK || st == MS_READ_TRUNCATED;
    qsort(c->heap, c->n, sizeof *c->heap, start_cmp);
    for (size_t i = 0; i < c->n; i++)
        if (c->name_of[c->heap[i].region] == NO_REGION) {
            c->name_of[c->heap[i].region] = c->nnames;
            c->names[c->nnames++] = c->heap[i].region;
        }
    if (c->lanes++)
        fputs(",\n", c->fp);
    put_lane(c->fp, c->run, in, c, c->name_of, readable);
    return c->lanes >= c->maxlanes ? 1 : 0;
}

int ms_html_timeline(FILE *fp, const ms_run *run)
{
    if (run->summary_ranks) {
        /* Summary mode keeps aggregates, no calls: no timeline to draw. */
        fprintf(fp, "\"timeline\":{\"cap\":0,\"ranks_total\":%zu,\"summary\":true,\"lanes\":[],\"names\":[]}",
                run->nranks);
        return 0;
    }
    size_t nranks = 0;
    for (size_t r = 0; r < run->nranks; r++)
        nranks += ms_window_rank(run->window, run->ranks[r].rank);
    if (nranks > MS_HTML_TIMELINE_RANKS)
        nranks = MS_HTML_TIMELINE_RANKS;
    tl_ctx c = {.fp = fp, .run = run, .cap = MS_HTML_TIMELINE_EVENTS, .maxlanes = nranks};
    if (nranks * c.cap > MS_HTML_TIMELINE_TOTAL)
        c.cap = MS_HTML_TIMELINE_TOTAL / nranks;
    c.heap = malloc(c.cap * sizeof *c.heap);
    /* Region -> index into the names list (assigned on first use). */
    c.name_of = malloc((run->nregions ? run->nregions : 1) * sizeof *c.name_of);
    c.names = malloc((run->nregions ? run->nregions : 1) * sizeof *c.names);
    int rc = -1;
    if (!c.heap || !c.name_of || !c.names)
        goto out;
    for (size_t i = 0; i < run->nregions; i++)
        c.name_of[i] = NO_REGION;

    fprintf(fp, "\"timeline\":{\"cap\":%zu,\"ranks_total\":%zu,\"lanes\":[", c.cap, run->nranks);
    static const ms_replay_ops ops = {.rank = on_rank, .call = on_call, .rank_done = on_rank_done};
    if (nranks > 0 && ms_replay_run(run, &ops, &c) != 0)
        goto out;
    fputs("],\n\"names\":[", fp);
    for (uint32_t i = 0; i < c.nnames; i++) {
        const ms_region *g = &run->regions[c.names[i]];
        fputs(i ? ",\n[" : "[", fp);
        char full[2048];
        ms_long_name(run, full, sizeof full, g->name);
        ms_html_json_str(fp, full);
        fputc(',', fp);
        ms_html_json_str(fp, g->info.is_mpi ? g->info.op : "");
        fputc(']', fp);
    }
    fputs("]}", fp);
    rc = 0;
out:
    free(c.heap);
    free(c.name_of);
    free(c.names);
    return rc;
}
