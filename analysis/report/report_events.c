/*
 * --events-csv: one row per call (DESIGN section 6),
 *   name,rank,thread,call_index,start_s,end_s,duration_s
 * ordered by rank, thread, call_index; call_index counts the calls of one
 * (rank, thread) stream from 0, in the order the thread made them. Times are
 * seconds on the common clock, relative to the run's earliest event start
 * (run->origin), with nanosecond digits.
 *
 * The rows are streamed: each rank's log is read again after the
 * reduction and rows are written as the reader delivers events; nothing
 * grows with the number of events. The events of a log's threads are
 * interleaved in the file, so a rank with several threads is read once
 * per thread that recorded events (the first read also lists the threads).
 * Summary-mode logs have no events and add no rows. A window (window.h)
 * keeps the rows of the calls inside it on the ranks it lists; call_index
 * still counts every call of the thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "report.h"
#include "u32set.h"

typedef struct events_ctx {
    FILE *fp;
    ms_reader *rd;
    const ms_rank_info *in;
    int64_t origin;
    const ms_window *w;
    uint32_t thread;               /* the thread whose rows this pass writes */
    uint64_t call_index;
    ms_u32set threads;             /* first pass: distinct threads */
    int collect;                   /* first pass: collect threads */
    int nomem;
} events_ctx;

/* ns as seconds with 9 decimals, exactly. */
static void put_seconds(FILE *fp, int64_t ns)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    fprintf(fp, "%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "", a / 1000000000u, a % 1000000000u);
}

static int on_event(void *ctx, const ms_read_event *ev)
{
    events_ctx *c = ctx;
    if (c->collect && (c->threads.n == 0 || c->threads.v[c->threads.n - 1] != ev->thread) &&
        ms_u32set_add(&c->threads, ev->thread) < 0) {
        c->nomem = 1;
        return -1;
    }
    if (ev->thread != c->thread)
        return 0;
    const char *name = ms_reader_region_name(c->rd, ev->region, NULL);
    int64_t start = ms_rank_time(c->in, ev->start_ns) - c->origin;
    int64_t dur = (int64_t)(ev->end_ns - ev->start_ns);
    if (!ms_window_time(c->w, start, start + dur)) {
        c->call_index++;
        return 0;
    }
    ms_csv_field(c->fp, name ? name : "");
    fprintf(c->fp, ",%" PRId32 ",%" PRIu32 ",%" PRIu64 ",", c->in->rank, ev->thread, c->call_index++);
    put_seconds(c->fp, start);
    fputc(',', c->fp);
    put_seconds(c->fp, start + dur);
    fputc(',', c->fp);
    put_seconds(c->fp, dur);
    fputc('\n', c->fp);
    return 0;
}

static const ms_read_callbacks events_callbacks = {.event = on_event};

/* One pass over a rank's log for the rows of thread c->thread. */
static int read_pass(events_ctx *c)
{
    ms_read_result res;
    c->call_index = 0;
    ms_read_status st = ms_reader_read(c->rd, c->in->file, &events_callbacks, c, &res);
    if (c->nomem || st == MS_READ_NOMEM) {
        errno = ENOMEM;
        return -1;
    }
    if (st != MS_READ_OK && st != MS_READ_TRUNCATED) {
        fprintf(stderr, "mpiscope-merge: reading again for the events: %s\n", res.message);
        errno = EIO;
        return -1;
    }
    return ferror(c->fp) ? -1 : 0;
}

int ms_report_events_csv(FILE *fp, const ms_run *run)
{
    fputs(MS_EVENTS_CSV_HEADER "\n", fp);
    ms_reader *rd = ms_reader_create();
    if (!rd) {
        errno = ENOMEM;
        return -1;
    }
    events_ctx c = {.fp = fp, .rd = rd, .origin = run->origin, .w = run->window};
    int rc = 0;
    for (size_t r = 0; rc == 0 && r < run->nranks; r++) {
        c.in = &run->ranks[r];
        if (!c.in->has_events || !ms_window_rank(c.w, c.in->rank))
            continue;
        /* Thread 0 first, listing the threads; then the others in order. */
        c.threads.n = 0;
        c.collect = 1;
        c.thread = 0;
        rc = read_pass(&c);
        c.collect = 0;
        for (size_t k = 0; rc == 0 && k < c.threads.n; k++) {
            if (c.threads.v[k] == 0)
                continue;
            c.thread = c.threads.v[k];
            rc = read_pass(&c);
        }
    }
    free(c.threads.v);
    ms_reader_destroy(rd);
    return rc != 0 || ferror(fp) ? -1 : 0;
}
