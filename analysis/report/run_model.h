/*
 * The run's model as JSON: its facts (the run's header and each rank's
 * times) written by one writer for --json and for the data of the HTML
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

#endif
