/*
 * The reports of mpiscope-merge, one row each (DESIGN section 6): the option
 * that asks for one, its help text and how it is written. merge_cli.c builds
 * from these rows the option list, the usage text, the refusal of timeline
 * reports for a run recorded in summary mode, and the output loop: adding a
 * report is adding a row to ms_merge_reports.
 */
#ifndef MPISCOPE_MERGE_REPORTS_H
#define MPISCOPE_MERGE_REPORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../reduce/reduce.h"

/* A report that is a file: written to fp; 0, or -1 when writing failed. */
typedef int (*ms_merge_file_fn)(FILE *fp, const ms_run *run);

/* A report that is a directory: 0 written; 1 written, with a warning in err;
 * -1 not written, with the reason in err (no program name, no newline). */
typedef int (*ms_merge_dir_fn)(const char *dir, const ms_run *run, char *err, size_t errlen);

typedef struct ms_merge_report {
    const char *option;     /* the long option, without "--" */
    const char *help;       /* its usage text; each '\n' starts a line under the first */
    /* The writer, exactly one of the two: the option's argument is then a
     * FILE ("-": stdout) or a DIR. */
    ms_merge_file_fn file;
    ms_merge_dir_fn dir;
    bool timeline;          /* made of single calls: refused for a run recorded in summary mode */
    bool roofline;          /* needs run->roofline even when the run has no counters */
    bool is_default;        /* written to stdout when no report is asked for (a FILE report) */
    /* A timeline's size per call, for the estimate before it is written
     * (measured on traces of MPI calls): bytes beside the name, and
     * whether each call repeats its region's name. 0: not estimated. */
    unsigned call_bytes;
    bool call_names;
    int (*built)(void);     /* NULL, or 0 when this build cannot write the report ... */
    const char *not_built;  /* ... and why, for the message */
} ms_merge_report;

/* The most rows the table may have: ms_merge_opts holds a path per row. */
#define MS_MERGE_REPORTS_MAX 32

/* In the order of the usage text, of the writing and of the messages. */
extern const ms_merge_report ms_merge_reports[];
extern const size_t ms_merge_nreports;

/* "FILE" or "DIR": the argument of r's option. */
const char *ms_merge_report_arg(const ms_merge_report *r);

#endif
