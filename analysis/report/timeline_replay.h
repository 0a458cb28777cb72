/*
 * The replay of a run's timeline: the one loop that the timeline reports
 * (--trace, --events-csv, --otf2, --spt, the HTML timeline) walk. It reads
 * the logs of the run's ranks a second time, after the reduction, and hands
 * each call to the report's callbacks on the common clock (run_clock.h),
 * with the window (window.h: --from, --to, --ranks) applied here once:
 *
 *   ranks    in the run's order (ascending world rank); a rank the window
 *            leaves out is not read and its callbacks are not called;
 *   calls    in the log's order (its threads interleaved as written), or,
 *            with by_thread, one thread after the other: thread 0 first,
 *            then the others ascending (the log is read once per thread
 *            that recorded calls, the first read also listing them);
 *   kept     whether the call lies inside the window's time bounds; calls
 *            outside it are still delivered (a report may count them, or
 *            match the messages they sent), marked not kept;
 *   messages the message records (docs/FORMAT.md "Messages") that an MPI
 *            call's thread wrote before it, handed with the call, in logs
 *            that write them (format version 5 on, trace mode).
 *
 * Nothing grows with the number of calls: a report that keeps them does so
 * itself.
 */
#ifndef MPISCOPE_TIMELINE_REPLAY_H
#define MPISCOPE_TIMELINE_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "../read/log_reader.h"
#include "../reduce/reduce.h"

/* One call as the timeline reports see it. */
typedef struct ms_replay_call {
    const ms_rank_info *in;        /* its rank */
    const ms_read_event *ev;       /* as the log has it (tool clock, site) */
    uint32_t thread;               /* thread index within the rank */
    uint32_t region;               /* per-file region index */
    const char *name;              /* its name, NUL-terminated, name_len bytes */
    size_t name_len;
    const ms_region *run_region;   /* the run's region of that name, or NULL */
    int64_t start, end;            /* common clock, ns from the run's origin */
    int64_t dur;                   /* end_ns - start_ns as recorded */
    int64_t start_abs, end_abs;    /* common clock, ns (not from the origin) */
    uint64_t index;                /* the call's index in its thread, from 0 */
    int kept;                      /* inside the window's time bounds */
    int messages;                  /* the log writes message records */
    const ms_read_message *msgs;   /* an MPI call's message records */
    size_t nmsgs;
} ms_replay_call;

/* A report's side of the replay. Any callback may be NULL. A region, call,
 * gpu or comm callback that returns non-zero stops the replay (the read
 * stops; rank_done still comes, with MS_READ_STOPPED). With by_thread, the
 * region, gpu and comm callbacks come in a log's first read only. */
typedef struct ms_replay_ops {
    int by_thread;                 /* calls one thread after the other */
    /* Before a rank's log is read: 0 read it, 1 leave it unread (no calls,
     * rank_done comes with MS_READ_OK), < 0 stop. */
    int (*rank)(void *ctx, const ms_rank_info *in);
    /* A region name first seen in this log (name NUL-terminated), with the
     * run's region of that name or NULL. By thread: in the first read only
     * (the indices are the same in every read of a log). */
    int (*region)(void *ctx, uint32_t region, const char *name, size_t len, const ms_region *run_region);
    int (*call)(void *ctx, const ms_replay_call *k);
    int (*gpu)(void *ctx, const ms_gpu_record *g);
    int (*comm)(void *ctx, uint32_t thread, uint64_t id, const int32_t *world_ranks, uint32_t n);
    /* After a rank's log, with how its reading ended (the worst read when
     * by thread) and the reader's message: 0 go on, 1 stop the replay
     * there (no failure), < 0 stop it (a failure). */
    int (*rank_done)(void *ctx, const ms_rank_info *in, ms_read_status st, const char *message);
} ms_replay_ops;

/* Replay the run's timeline through ops. 0; -1 when a callback stopped it.
 * The replay's own lack of memory reaches rank_done as MS_READ_NOMEM. */
int ms_replay_run(const ms_run *run, const ms_replay_ops *ops, void *ctx);

#endif
