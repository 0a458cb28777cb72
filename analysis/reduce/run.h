/*
 * The reduced run: per-rank facts, per-(region, rank) statistics and
 * per-region statistics over ranks, with what every report reads from them
 * (call sites, channels, matrix, counters, GPU activity, warnings, errors).
 * reduce.h makes one from a directory of logs; the stages that make it are
 * in reduce_partial.h; run_clock.h puts a rank's times on the common clock.
 *
 * Regions are identified by name across threads and ranks. Per rank:
 *   app time   init_end_ns (header) -> finalize_start_ns (end record); when
 *              the log has no end record or MPI_Finalize was not called,
 *              the end of the last event; when MPI_Init was not called
 *              (init_end_ns = 0), from the start of the first event
 *   MPI time   the durations of the calls of MPI regions (names "mpi:...")
 *              that lie inside [init_end_ns, finalize_start_ns]: mpi:init and
 *              mpi:finalize themselves are outside
 *   wall time  init_start_ns -> the end of app time, in the rank's clock
 * The run's wall time is the largest rank wall time. Times are compared
 * across ranks on a common clock: each rank's tool clock shifted by
 * realtime_ref_ns - clock_ref_ns from its header, then aligned to rank 0's
 * by the offset and drift its clock-sync measurements give (run_clock.h:
 * ms_rank_time); "relative" times count from the run's earliest event start
 * on that clock.
 */
#ifndef MPISCOPE_RUN_H
#define MPISCOPE_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "callsites.h"
#include "clock_align.h"
#include "comms.h"
#include "counters.h"
#include "ending.h"
#include "gpu.h"
#include "io_files.h"
#include "../read/log_reader.h"
#include "matrix.h"
#include "p2p.h"
#include "../../common/region_parse.h"
#include "../../common/stats.h"
#include "window.h"

typedef struct ms_rank_info {
    int32_t rank;
    int32_t size;                  /* world size from the header */
    int64_t pid;
    char *file;                    /* path of the log */
    char *host, *mpi_library, *argv0, *run_dir, *clock;
    char *run_id;                  /* "" when the log does not carry one */
    uint32_t mode;                 /* enum ms_mode */
    ms_read_status status;         /* MS_READ_OK or MS_READ_TRUNCATED */
    int has_end;                   /* the end record was read */
    int finalized;                 /* MPI_Finalize was called */
    uint32_t threads;
    uint64_t events;               /* events read */
    uint64_t dropped;              /* from the end record */
    uint64_t init_start_ns, init_end_ns, finalize_start_ns;  /* tool clock */
    int64_t clock_offset_ns;       /* tool clock -> header clock (clock_align.h) */
    ms_clock_align align;          /* header clock -> common clock: the sync
                                      measurements (per file) and the model
                                      fitted to them (per run) */
    int has_events;
    int64_t first_start, last_end; /* of all events, common clock */
    uint64_t app_ns, mpi_ns, wall_ns;
    double mpi_pct;                /* 100 mpi_ns / app_ns, 0 when app_ns is 0 */
    ms_gpu_rank gpu;               /* GPU activity (gpu.h); zero without */
    ms_io_files io_files;          /* its files of MPI-IO (io_files.h) */
    ms_comm_facts comms;           /* its communicators (comm_facts.h) */
    ms_rank_ending ending;         /* how it ended (ending.h) */
} ms_rank_info;

/* One rank's part of a region. */
typedef struct ms_region_rank {
    uint32_t rank_index;           /* into ms_run.ranks */
    uint64_t window_ns;            /* time inside [init_end, finalize_start] */
    uint64_t excl_ns;              /* exclusive time: without direct children
                                      on the same thread (nesting.h) */
    ms_stats stats;                /* start/end times on the common clock */
} ms_region_rank;

typedef struct ms_region {
    char *name;
    ms_region_info info;           /* parsed name */
    int is_mpi;                    /* name starts "mpi:" */
    size_t nranks;
    ms_region_rank *ranks;         /* ascending rank */
    uint64_t total_ns;
    uint64_t window_ns;            /* summed over ranks */
    uint64_t excl_ns;              /* exclusive time, summed over ranks */
    ms_summary summary;            /* over ranks */
} ms_region;

/* A region at a call site: the wait-state analysis tells calls apart by
 * both, and its region indices (ms_wx_event.region, ms_wx_row.region, ...)
 * index run->wait_keys (run_waits.h). */
typedef struct ms_wait_key {
    uint32_t region;               /* into run->regions */
    char *location;                /* ms_callsite.location; NULL: no call site */
} ms_wait_key;

/* The ranks the HTML timeline shows at most (the first ones): the
 * analysis keeps the longest waiting calls of those for it to mark. */
#define MS_RUN_TIMELINE_RANKS 128

typedef struct ms_run {
    char *dir;
    size_t nranks;
    ms_rank_info *ranks;           /* ascending rank, one per rank */
    size_t nregions;
    ms_region *regions;            /* total time descending, then name; only
                                      regions with calls */
    int32_t world_size;            /* the world the logs bear out: the
                                      largest size in the headers, at most
                                      max(highest rank with a log + 1,
                                      2 x the ranks with a log, 64) */
    int32_t world_claimed;         /* largest size in the headers */
    size_t nhosts;
    char **hosts;                  /* distinct, sorted */
    uint64_t wall_ns;              /* largest rank wall time */
    uint64_t app_ns, mpi_ns;       /* summed over ranks */
    double mpi_pct;                /* 100 mpi_ns / app_ns */
    double mpi_pct_min, mpi_pct_mean, mpi_pct_max;  /* over ranks */
    int has_events;
    size_t summary_ranks;          /* ranks recorded in summary mode
                                      (MPISCOPE_MODE=summary): no timeline */
    int64_t origin;                /* earliest event start, common clock */
    uint64_t events;
    size_t ncallsites;
    ms_callsite *callsites;        /* by region, rank, total time descending */
    size_t nplaces;
    ms_site_place *places;         /* call sites over ranks, by region, total time descending */
    size_t nchans;
    ms_p2p_chan *chans;            /* point-to-point calls per rank (p2p.h),
                                      normalized: by rank, dir, comm, peer, tag */
    size_t nmatrix;
    ms_matrix_cell *matrix;        /* point-to-point traffic by world rank
                                      (matrix.h): by src, then dst */
    ms_comms comms;                /* communicators and their labels (comms.h) */
    ms_counters counters;          /* hardware counters (counters.h) */
    ms_gpu_run *gpu;               /* GPU activity over ranks (gpu.h); NULL without */
    struct ms_roofline *roofline;  /* set by the merge when asked for
                                      (roofline.h); freed with the run */
    struct ms_mpi_sites *sites;    /* MPI time per function and call site
                                      (sites.h); NULL when out of memory */
    struct ms_waits *waits;        /* wait states and the critical path
                                      (analysis/waits/waits.h, run_waits.h);
                                      NULL when no rank was traced */
    ms_wait_key *wait_keys;        /* what its region indices name */
    size_t nwait_keys;
    size_t wait_ranks;             /* ranks whose facts it has */
    size_t wait_ranks_old;         /* of them, logs older than message
                                      records (format version 5) */
    const ms_window *window;       /* the timeline outputs' bounds (window.h),
                                      set by the merge; NULL: everything */
    const char *waits_skipped;     /* why the merge left the wait-state
                                      analysis out (its --mem-limit guard),
                                      set by the merge; NULL: it did not */
    size_t nwarnings;
    char **warnings;               /* in file order, then run-wide ones */
    size_t nerrors;
    char **errors;                 /* inputs that are not readable logs, or
                                      logs of more than one run */
} ms_run;

typedef enum ms_reduce_status {
    MS_REDUCE_OK = 0,
    MS_REDUCE_USAGE,      /* no such directory, or no rank-*.zst in it */
    MS_REDUCE_BAD_INPUT,  /* some input is not a readable log, or the logs
                             are of different runs: run->errors */
    MS_REDUCE_NOMEM,
} ms_reduce_status;

/* A run with its directory and nothing else; NULL when out of memory. */
ms_run *ms_run_new(const char *dir);

/* Free the run and everything it holds (NULL: nothing). */
void ms_run_free(ms_run *run);

/* Free what a rank's info points to (its strings and GPU facts). */
void ms_rank_info_free(ms_rank_info *in);

/* Find a rank's info; NULL when the rank has no log. */
const ms_rank_info *ms_run_rank(const ms_run *run, int32_t rank);

#endif
