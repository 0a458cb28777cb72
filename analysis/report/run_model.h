/*
 * The run's model as JSON: its facts (the run's header, each rank's times
 * and the per-region rows: the walk over the regions and each row's
 * numbers) written by one writer for --json and for the data of the HTML
 * page. A report picks the unit once: seconds ("wall_s", numbers as
 * json_str.h writes them), as --json has them, or integer nanoseconds
 * ("wall_ns"), as the page computes with; and how it writes a string.
 * What only one report carries (the page's program name, --json's clock
 * models) it writes around these members itself.
 */
#ifndef MPISCOPE_RUN_MODEL_H
#define MPISCOPE_RUN_MODEL_H

#include <stdio.h>

#include "../reduce/reduce.h"

typedef struct ms_model_style {
    int ns;                                    /* times in integer ns, else in seconds */
    void (*put_str)(FILE *fp, const char *s);  /* a string as the report writes one */
} ms_model_style;

/* The members of the run's object, without braces: "dir", "ranks",
 * "world_size", "hosts", wall, app and MPI time, "mpi_pct", the tool's
 * stalls and their share of the wall time, "mpi_pct_min", "mpi_pct_mean",
 * "mpi_pct_max", "events". */
void ms_model_run(FILE *fp, const ms_run *run, const ms_model_style *st);

/* A rank's times, as members without braces: app, MPI, "mpi_pct", wall,
 * the tool's stalls. */
void ms_model_rank_times(FILE *fp, const ms_run *run, const ms_rank_info *in, const ms_model_style *st);

/* The numbers of a region's row (or of one rank's part of it), as members
 * named in the report's unit: a time "<name>_s" in seconds (a double), or
 * "<name>_ns" in ns (an integer where the run counts it in ns: total, the
 * exclusive total, the MPI window; else the seconds times 1e9). */
typedef enum ms_model_num {
    MS_MN_END = 0,    /* ends a list */
    MS_MN_CALLS,      /* "calls" */
    MS_MN_RANKS,      /* "ranks": ranks with calls */
    MS_MN_TOTAL,      /* "total": the summary's seconds, or ns */
    MS_MN_MEAN, MS_MN_STD, MS_MN_MIN, MS_MN_MAX, MS_MN_P50, MS_MN_P95, MS_MN_P99,
    MS_MN_FIRST, MS_MN_LAST,   /* the first and last call's durations */
    MS_MN_IMBALANCE,  /* "imbalance_pct" */
    MS_MN_WINDOW,     /* "mpi_window": MPI time in the application window */
    MS_MN_EXCL,       /* "excl_total": time outside nested regions */
    MS_MN_TOTAL_NS,   /* "total_ns" in either unit (--json has both) */
    MS_MN_EXCL_NS,    /* "excl_total_ns" in either unit */
} ms_model_num;

/* What a row's numbers are read from. */
typedef struct ms_model_nums_of {
    const ms_summary *s;
    uint64_t total_ns, excl_ns, window_ns;
} ms_model_nums_of;

/* The numbers of list (ended by MS_MN_END) as members without braces, in
 * that order. */
void ms_model_nums(FILE *fp, const ms_model_nums_of *of, const ms_model_num *list, const ms_model_style *st);

/* The same for region g as a whole. */
void ms_model_region_nums(FILE *fp, const ms_region *g, const ms_model_num *list, const ms_model_style *st);

/* A report's rows of regions: which, how many, and what each row says. */
typedef struct ms_model_rows {
    int (*keep)(const ms_region *g);   /* the regions it lists; NULL: every one */
    size_t max;                        /* at most that many rows; 0: every one */
    const char *first;                 /* before the first row */
    /* The members of g's row, without braces. */
    void (*row)(FILE *fp, const ms_run *run, const ms_region *g, const ms_model_style *st);
} ms_model_rows;

/* The rows of the run's regions (most time first, as the run orders
 * them), each in braces, ",\n" between two. */
void ms_model_regions(FILE *fp, const ms_run *run, const ms_model_rows *rows, const ms_model_style *st);

/* How many regions keep lists (keep NULL: every one), before any max. */
size_t ms_model_regions_kept(const ms_run *run, int (*keep)(const ms_region *g));

#endif
