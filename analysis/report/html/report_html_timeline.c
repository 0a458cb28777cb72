/* HTML report: the timeline (report_html.h). The logs are read a second
 * time, one rank after the other; of each rank only the `cap` longest
 * events are kept (a min-heap on duration), so memory and the page follow
 * that bound, never the number of events. A window (window.h) keeps the
 * ranks it lists and the calls inside it. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "html_parts.h"
#include "../../reduce/ops.h"

#define NO_REGION UINT32_MAX

typedef struct tl_event {
    int64_t start;        /* relative to the run's origin, ns */
    uint64_t dur;
    uint32_t region;      /* index into run->regions */
} tl_event;

typedef struct tl_ctx {
    const ms_run *run;
    const ms_region **by_name;  /* run->regions sorted by name */
    const ms_rank_info *in;     /* the rank being read */
    uint32_t *map;              /* per-file region index -> run region */
    size_t nmap;
    tl_event *heap;             /* min-heap on dur, cap entries */
    size_t n, cap;
    uint64_t seen;
    int nomem;
} tl_ctx;

static int by_name_cmp(const void *a, const void *b)
{
    return strcmp((*(const ms_region *const *)a)->name, (*(const ms_region *const *)b)->name);
}

static uint32_t find_region(const tl_ctx *c, const char *name, size_t len)
{
    size_t lo = 0, hi = c->run->nregions;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *s = c->by_name[mid]->name;
        int cmp = strncmp(s, name, len);
        if (cmp == 0)
            cmp = s[len] != '\0';   /* s is longer than name */
        if (cmp == 0)
            return (uint32_t)(c->by_name[mid] - c->run->regions);
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NO_REGION;
}

static int on_region(void *ctx, uint32_t region, const char *name, size_t len)
{
    tl_ctx *c = ctx;
    if (region >= c->nmap) {
        size_t cap = c->nmap ? c->nmap : 64;
        while (cap <= region)
            cap *= 2;
        uint32_t *m = realloc(c->map, cap * sizeof *m);
        if (!m) {
            c->nomem = 1;
            return 1;
        }
        for (size_t i = c->nmap; i < cap; i++)
            m[i] = NO_REGION;
        c->map = m;
        c->nmap = cap;
    }
    c->map[region] = find_region(c, name, len);
    return 0;
}

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

static int on_event(void *ctx, const ms_read_event *ev)
{
    tl_ctx *c = ctx;
    if (ev->region >= c->nmap || c->map[ev->region] == NO_REGION)
        return 0;
    tl_event e = {ms_rank_time(c->in, ev->start_ns) - c->run->origin, ev->end_ns - ev->start_ns,
                  c->map[ev->region]};
    if (!ms_window_time(c->run->window, e.start, e.start + (int64_t)e.dur))
        return 0;
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
    tl_ctx c = {.run = run, .cap = MS_HTML_TIMELINE_EVENTS};
    if (nranks * c.cap > MS_HTML_TIMELINE_TOTAL)
        c.cap = MS_HTML_TIMELINE_TOTAL / nranks;
    c.by_name = malloc((run->nregions ? run->nregions : 1) * sizeof *c.by_name);
    c.heap = malloc(c.cap * sizeof *c.heap);
    /* Region -> index into the names list (assigned on first use). */
    uint32_t *name_of = malloc((run->nregions ? run->nregions : 1) * sizeof *name_of);
    uint32_t *names = malloc((run->nregions ? run->nregions : 1) * sizeof *names);
    ms_reader *rd = ms_reader_create();
    int rc = -1;
    if (!c.by_name || !c.heap || !name_of || !names || !rd)
        goto out;
    for (size_t i = 0; i < run->nregions; i++) {
        c.by_name[i] = &run->regions[i];
        name_of[i] = NO_REGION;
    }
    qsort(c.by_name, run->nregions, sizeof *c.by_name, by_name_cmp);
    uint32_t nnames = 0;

    fprintf(fp, "\"timeline\":{\"cap\":%zu,\"ranks_total\":%zu,\"lanes\":[", c.cap, run->nranks);
    const ms_read_callbacks cb = {.region = on_region, .event = on_event};
    for (size_t r = 0, lanes = 0; r < run->nranks && lanes < nranks; r++) {
        const ms_rank_info *in = &run->ranks[r];
        if (!ms_window_rank(run->window, in->rank))
            continue;
        c.in = in;
        c.n = 0;
        c.seen = 0;
        for (size_t i = 0; i < c.nmap; i++)
            c.map[i] = NO_REGION;
        ms_read_result res;
        ms_read_status st = ms_reader_read(rd, in->file, &cb, &c, &res);
        if (c.nomem)
            goto out;
        int readable = st == MS_READ_OK || st == MS_READ_TRUNCATED;
        qsort(c.heap, c.n, sizeof *c.heap, start_cmp);
        for (size_t i = 0; i < c.n; i++)
            if (name_of[c.heap[i].region] == NO_REGION) {
                name_of[c.heap[i].region] = nnames;
                names[nnames++] = c.heap[i].region;
            }
        if (lanes++)
            fputs(",\n", fp);
        put_lane(fp, run, in, &c, name_of, readable);
    }
    fputs("],\n\"names\":[", fp);
    for (uint32_t i = 0; i < nnames; i++) {
        const ms_region *g = &run->regions[names[i]];
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
    ms_reader_destroy(rd);
    free(c.map);
    free(c.heap);
    free(c.by_name);
    free(name_of);
    free(names);
    return rc;
}
