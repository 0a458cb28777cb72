/*
 * The types of the wait-state analysis (waits.h): the plain facts of a
 * rank it reads, and the waiting calls, rows and critical path it gives.
 */
#ifndef MPISCOPE_WAIT_TYPES_H
#define MPISCOPE_WAIT_TYPES_H

#include <stddef.h>
#include <stdint.h>

#define MS_WX_NONE UINT32_MAX

/* What an event is to the analyses. */
enum ms_wx_kind {
    MS_WX_MPI = 0,      /* an MPI call */
    MS_WX_USER = 1,     /* a user region (may enclose MPI calls) */
};

/* One event of a rank, on the common clock. */
typedef struct ms_wx_event {
    int64_t start, end;
    uint32_t region;    /* the caller's region index */
    uint16_t thread;
    uint8_t kind;       /* enum ms_wx_kind */
    uint8_t charge;     /* waits in it count (blocking calls, the wait family) */
} ms_wx_event;

/* One end of a point-to-point message. */
typedef struct ms_wx_msg {
    int64_t comm;       /* communicator id */
    int64_t entry;      /* send: its call's start (a start's, for persistent
                           requests); receive: when it was posted */
    int32_t tag;
    int32_t other;      /* world rank of the partner: destination or source */
    uint32_t ev;        /* the event it is completed in (waits happen there);
                           MS_WX_NONE: not seen */
    uint8_t is_send;
    uint8_t sync;       /* sends: 1 synchronous, 2 standard blocking (held
                           until the receive was posted when it returned
                           after that post), 0 otherwise */
    uint8_t pad[2];
} ms_wx_msg;

/* Collective classes. */
enum ms_wx_coll_class {
    MS_WX_BARRIER = 0,  /* wait_at_barrier */
    MS_WX_NXN = 1,      /* wait_at_nxn */
    MS_WX_BCAST = 2,    /* late_broadcast (1 to N) */
    MS_WX_REDUCE = 3,   /* early_reduce (N to 1) */
};

/* One collective a rank entered. */
typedef struct ms_wx_coll {
    int64_t comm;
    int64_t entry;      /* the blocking call's start, or the post of a
                           non-blocking or persistent one */
    int32_t root;       /* world rank of the root; -1: none */
    uint32_t ev;        /* the event it completes in; MS_WX_NONE: not seen */
    uint8_t cls;        /* enum ms_wx_coll_class */
    uint8_t pad[7];
} ms_wx_coll;

/* One rank's facts. Events are in start order per thread (any order
 * across threads); messages and collectives in any order. */
typedef struct ms_wx_rank {
    int32_t rank;
    int64_t app_start;  /* its start of application time (after MPI_Init) */
    int64_t app_end;    /* MPI_Finalize's entry, or its last event's end */
    int finalized;
    uint64_t app_ns;
    const ms_wx_event *ev;
    size_t nev;
    const ms_wx_msg *msg;
    size_t nmsg;
    const ms_wx_coll *coll;
    size_t ncoll;
} ms_wx_rank;

enum ms_wx_pattern {
    MS_WX_LATE_SENDER = 0,
    MS_WX_LATE_RECEIVER,
    MS_WX_WAIT_BARRIER,
    MS_WX_WAIT_NXN,
    MS_WX_LATE_BCAST,
    MS_WX_EARLY_REDUCE,
    MS_WX_NPATTERNS,
};

/* "late_sender", ... (wait_types.c) */
static inline const char *ms_wx_pattern_name(int pattern)
{
    static const char *const names[MS_WX_NPATTERNS] = {
        "late_sender", "late_receiver", "wait_at_barrier", "wait_at_nxn", "late_broadcast", "early_reduce",
    };
    return pattern >= 0 && pattern < MS_WX_NPATTERNS ? names[pattern] : "?";
}

/* One waiting call. */
typedef struct ms_wx_instance {
    int32_t rank;       /* the waiting rank */
    uint32_t ev;        /* its event */
    uint32_t thread;    /* that event's thread */
    uint8_t pattern;
    uint8_t pad;
    uint16_t cause_thread;  /* the thread of the cause's call (its send,
                               its collective call) */
    int32_t cause;      /* the rank that caused it */
    int64_t from, to;   /* the waiting time, within the event */
    int64_t cause_at;   /* the cause's entry (the critical path goes there) */
} ms_wx_instance;

/* The waiting that one rank caused. */
typedef struct ms_wx_late {
    int32_t rank;
    uint64_t ns, calls;
} ms_wx_late;

/* The waiting calls kept for drawing them (ms_waits.marks): the longest;
 * of equal length, the earliest, then by rank and event. */
#define MS_WX_MARKS 20000u

/* Waiting of one (pattern, rank, region). */
typedef struct ms_wx_row {
    uint8_t pattern;
    int32_t rank;
    uint32_t region;
    uint64_t instances;
    uint64_t wait_ns;
    int32_t cause_rank; /* the rank accounting for most of wait_ns */
    uint64_t wait_best; /* of wait_ns, what cause_rank accounts for */
    int32_t root_rank;  /* the root cause of most of wait_ns (the delay
                           analysis follows waiting passed on); -1: none */
    uint64_t root_best; /* of wait_ns, what root_rank accounts for */
} ms_wx_row;

#define MS_WX_COMPUTE MS_WX_NONE  /* region of time outside MPI and user regions */

typedef struct ms_wx_path_rank {
    int32_t rank;
    uint64_t compute_ns, mpi_ns;
} ms_wx_path_rank;

/* A thread's part of a rank's time on the path (compute between two of
 * its calls is its own). */
typedef struct ms_wx_path_thread {
    int32_t rank;
    uint32_t thread;
    uint64_t compute_ns, mpi_ns;
} ms_wx_path_thread;

typedef struct ms_wx_path_region {
    uint32_t region;    /* MS_WX_COMPUTE: "(compute)" */
    uint64_t on_path_ns;
} ms_wx_path_region;

/* One stretch of the critical path on one rank: [from, to) in an MPI call
 * (is_mpi, region: the call's) or outside MPI (region: the innermost user
 * region, MS_WX_COMPUTE when none). */
/* The pieces of the path kept for drawing it (its longest; of equal
 * length, the latest): the timeline of the HTML report draws at most this
 * many. */
#define MS_WX_PATH_SEGS 20000u

typedef struct ms_wx_path_seg {
    int32_t rank;
    uint32_t region;
    int64_t from, to;
    uint8_t is_mpi;
    uint8_t pad;
    uint16_t thread;    /* the thread of the rank it is on */
} ms_wx_path_seg;

/* Root causes (root_causes.c). Where a rank's time goes, as the delay
 * analysis names it: a stretch outside MPI between two MPI calls of its
 * first thread, a user region (innermost), or an MPI call. */
enum ms_wx_cause_kind {
    MS_WX_CAUSE_COMPUTE = 0,  /* outside MPI: between the call `region`
                                 (MS_WX_NONE: the start of the application)
                                 and the call `region2` (MS_WX_NONE: its end) */
    MS_WX_CAUSE_USER = 1,     /* inside user region `region` (outside MPI) */
    MS_WX_CAUSE_MPI = 2,      /* inside MPI call `region`, not waiting */
};

/* What one (rank, place) delayed others, and the waiting that cost. The
 * delay is the time it spent beyond the waiting rank over the stretch
 * before each synchronization point it was late for (a point that several
 * ranks waited at counts once); direct: the waiting it caused itself;
 * indirect: the waiting that waiting passed on further. */
typedef struct ms_wx_cause {
    int32_t rank;
    uint8_t kind;             /* enum ms_wx_cause_kind */
    uint8_t pad[3];
    uint32_t region, region2; /* see ms_wx_cause_kind; region2 MS_WX_NONE
                                 but for compute */
    uint64_t delay_ns, direct_ns, indirect_ns;
} ms_wx_cause;

/* A fix the what-if projects: the place's time on that rank brought to the
 * mean of the other ranks' there (or, when no other rank has it, less by
 * the delay found there), the run re-walked with the changed durations. */
enum ms_wx_fix_from { MS_WX_FIX_CAUSE = 0, MS_WX_FIX_PATH = 1 };

typedef struct ms_wx_fix {
    int32_t rank;
    uint8_t kind;             /* enum ms_wx_cause_kind */
    uint8_t from;             /* enum ms_wx_fix_from: a top root cause or a
                                 top region of the critical path */
    uint8_t pad[2];
    uint32_t region, region2;
    uint64_t removed_ns;      /* time taken out of the rank */
    uint64_t saving_ns;       /* run_ns less the projected run */
} ms_wx_fix;

/* The root causes and fixes kept (the largest). */
#define MS_WX_CAUSES 1000u
#define MS_WX_FIXES 10u

typedef struct ms_waits {
    ms_wx_row *rows;            /* by wait time descending, then pattern, rank, region */
    size_t nrows;
    /* Where the regions were grouped (run_waits.h): rows and path_regions
     * before the grouping (a region at a call site), sorted alike; else
     * NULL. */
    ms_wx_row *site_rows;
    size_t nsite_rows;
    ms_wx_path_region *path_sites;
    size_t npath_sites;
    /* The waiting calls: ninst of them, on disk by rank, then event
     * (ms_waits_inst_read); in memory only what the reports show of them. */
    size_t ninst;
    void *inst_file;            /* the analysis's (waits.c) */
    ms_wx_late *late;           /* per rank that caused waiting: ascending rank */
    size_t nlate;
    ms_wx_instance *marks;      /* the MS_WX_MARKS longest waiting calls of the
                                   ranks up to ms_wx_opts.mark_rank, by start
                                   (then rank, event) */
    size_t nmarks;
    size_t marks_total;         /* the waiting calls of those ranks */
    uint64_t wait_ns;           /* all patterns, all ranks */
    uint64_t pattern_ns[MS_WX_NPATTERNS];
    uint64_t messages;          /* matched */
    uint64_t unmatched_sends, unmatched_recvs;
    uint64_t colls;             /* collective instances matched (over communicators) */
    uint64_t unmatched_colls;   /* calls of ranks beyond the others' count */
    uint64_t clock_violations;  /* receives that ended before their send began */
    uint64_t clock_violation_max_ns;  /* by how much, at most */
    /* The critical path. */
    int has_path;
    uint64_t path_ns;
    uint64_t imbalance_ns;      /* beyond the mean rank's busy time (app time - waiting) */
    ms_wx_path_rank *path_ranks;  /* ascending rank, every rank */
    size_t npath_ranks;
    ms_wx_path_thread *path_threads;  /* by rank, then thread: the threads
                                         on the path of the ranks where it
                                         runs on a thread but the first */
    size_t npath_threads;
    ms_wx_path_region *path_regions;  /* time on the path descending */
    size_t npath_regions;
    uint64_t path_steps;        /* segments walked */
    ms_wx_path_seg *path_segs;  /* the path's MS_WX_PATH_SEGS longest pieces,
                                   in time order (by from); when none was
                                   left out (npath_segs == npath_segs_all),
                                   per rank they sum to its compute_ns and
                                   mpi_ns */
    size_t npath_segs;
    size_t npath_segs_all;      /* pieces of the whole path */
    /* Root causes: the MS_WX_CAUSES largest by direct + indirect
     * (then rank, kind, region, region2); regions are the caller's (in
     * the merge, a region at a call site: ungrouped). */
    int has_causes;
    ms_wx_cause *causes;
    size_t ncauses;
    size_t ncauses_all;         /* (rank, place) pairs that delayed others */
    uint64_t cause_direct_ns, cause_indirect_ns;  /* over all of them */
    uint64_t cause_unexplained_ns;  /* waiting whose cause spent no more
                                       time than the waiter (clocks) */
    uint64_t cause_launch_ns;   /* waiting that began before every rank had
                                   left MPI_Init: the launch's skew, not the
                                   program's (and what it passed on) */
    /* What-if: a projection on the recorded waits (waits that a change
     * would create are not modelled). */
    int has_what_if;
    uint64_t run_ns;            /* the last rank out of MPI_Init to the
                                   last into MPI_Finalize */
    uint64_t no_waiting_ns;     /* the same with no waiting at all */
    ms_wx_fix *fixes;           /* by saving descending */
    size_t nfixes;
} ms_waits;

#endif
