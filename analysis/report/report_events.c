/*
 * --events-csv: one row per call (DESIGN section 6),
 *   name,rank,thread,call_index,start_s,end_s,duration_s
 * ordered by rank, thread, call_index; call_index counts the calls of one
 * (rank, thread) stream from 0, in the order the thread made them. Times are
 * seconds on the common clock, relative to the run's earliest event start
 * (run->origin), with nanosecond digits.
 *
 * The rows are streamed from the replay of the timeline (timeline_replay.h),
 * one thread after the other; nothing grows with the number of events.
 * Summary-mode logs have no events and add no rows. A window (window.h)
 * keeps the rows of the calls inside it on the ranks it lists; call_index
 * still counts every call of the thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "../read/worlds.h"
#include "csv.h"
#include "report.h"
#include "timeline_replay.h"

/* ns as seconds with 9 decimals, exactly. */
static void put_seconds(FILE *fp, int64_t ns)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    fprintf(fp, "%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "", a / 1000000000u, a % 1000000000u);
}

static int on_rank(void *ctx, const ms_rank_info *in)
{
    (void)ctx;
    return in->has_events ? 0 : 1;
}

static int on_call(void *ctx, const ms_replay_call *k)
{
    FILE *fp = ctx;
    if (!k->kept)
        return 0;
    ms_csv_field(fp, k->name);
    fprintf(fp, ",%s,%" PRIu32 ",%" PRIu64 ",", ms_rank_s(k->in->rank).s, k->thread, k->index);
    put_seconds(fp, k->start);
    fputc(',', fp);
    put_seconds(fp, k->start + k->dur);
    fputc(',', fp);
    put_seconds(fp, k->dur);
    fputc('\n', fp);
    return 0;
}

static int on_rank_done(void *ctx, const ms_rank_info *in, ms_read_status st, const char *message)
{
    (void)in;
    if (st == MS_READ_NOMEM || st == MS_READ_STOPPED) {
        errno = ENOMEM;
        return -1;
    }
    if (st != MS_READ_OK && st != MS_READ_TRUNCATED) {
        fprintf(stderr, "mpiscope-merge: reading again for the events: %s\n", message);
        errno = EIO;
        return -1;
    }
    return ferror((FILE *)ctx) ? -1 : 0;
}

int ms_report_events_csv(FILE *fp, const ms_run *run)
{
    fputs(MS_EVENTS_CSV_HEADER "\n", fp);
    static const ms_replay_ops ops = {.by_thread = 1, .rank = on_rank, .call = on_call, .rank_done = on_rank_done};
    int rc = ms_replay_run(run, &ops, fp);
    return rc != 0 || ferror(fp) ? -1 : 0;
}
