/*
 * The command line and the outputs of mpiscope-merge, shared by the serial
 * merge (merge_main.c) and the MPI merge (merge_mpi_main.c); the reports
 * and their options are the rows of merge_reports.c.
 *
 * Exit status: 0 success (a truncated log is a warning, its readable part is
 * used); 1 bad usage (also: no such directory, no logs in it, an output that
 * cannot be written); 2 an input that is not an mpiscope log or is corrupt
 * beyond its readable prefix, or logs of two different runs in DIR
 * (docs/RELIABILITY.md).
 */
#ifndef MPISCOPE_MERGE_CLI_H
#define MPISCOPE_MERGE_CLI_H

#include "../reduce/reduce.h"
#include "../reduce/roofline.h"
#include "merge_reports.h"

/* The program name in messages, usage and --version. */
extern const char *ms_merge_prog;

typedef struct ms_merge_opts {
    /* By row of ms_merge_reports: the FILE or DIR asked for, or NULL. */
    const char *report[MS_MERGE_REPORTS_MAX];
    ms_roofline_opts roof;
    unsigned jobs;                 /* -j; 0: not given */
    const ms_window *window;       /* --from, --to, --ranks (ms_merge_finish
                                      frees its ranks) */
    const char *dir;
    int no_waits;                  /* --no-waits */
    int with_spawned;              /* --with-spawned: DIR's spawn-K worlds too
                                      (reduce/world_setup.h) */
    int mem_limit_set;             /* --mem-limit given */
    uint64_t mem_limit;            /* bytes; 0: none */
    char waits_skipped[256];       /* why the guard left the analysis out
                                      (merge_guard.c); "" when it did not */
} ms_merge_opts;

/* Parse the command line into *o. Returns -1 to go on with the merge, else
 * the exit status (after --help or --version, or a usage error and its
 * message). quiet: print nothing, only return the same status. */
int ms_merge_parse(int argc, char **argv, int quiet, ms_merge_opts *o);

/* The memory guard (merge_guard.c; DESIGN section 6), before the logs are
 * read: when the wait-state analysis of the logs at paths would exceed
 * --mem-limit (or its default), say so on stderr with what to do, leave the analysis out
 * (ms_reduce_set_waits) and keep the reason in o for the reports. Returns 1
 * when it left it out, else 0. */
int ms_merge_guard(ms_merge_opts *o, const char *const *paths, size_t n);

/* The same for the serial merge, listing o->dir itself (a directory that
 * cannot be listed is left to the reduction to report). */
int ms_merge_guard_dir(ms_merge_opts *o);

/* After the reduction (st, run as ms_reduce_dir gives them): print its
 * errors and warnings, write every output asked for; frees run. Returns
 * the exit status. */
int ms_merge_finish(ms_reduce_status st, ms_run *run, const ms_merge_opts *o);

#endif
