/*
 * Reports of a reduced run (reduce.h). Each writes to fp and returns 0, or
 * -1 when writing failed.
 *   csv        one row per region over all ranks (DESIGN section 6 header)
 *   ranks_csv  one row per (region, rank)
 *   json       everything: run, ranks, regions with their per-rank rows,
 *              warnings
 *   text       the human report: run header, ranks, top regions, MPI
 *              operations, message sizes, warnings; fits 100 columns
 */
#ifndef MPISCOPE_REPORT_H
#define MPISCOPE_REPORT_H

#include <stdio.h>

#include "reduce.h"

#define MS_REGIONS_CSV_HEADER                                                                  \
    "name,operation,kind,bytes,peer,root,tag,comm,request,ranks,calls,total_s,mean_s,std_s,"   \
    "min_s,max_s,p50_s,p95_s,p99_s,first_s,last_s,imbalance_pct"
#define MS_RANKS_CSV_HEADER "name,rank,calls,total_s,mean_s,std_s,min_s,max_s,p50_s,p95_s,p99_s"

int ms_report_csv(FILE *fp, const ms_run *run);
int ms_report_ranks_csv(FILE *fp, const ms_run *run);
int ms_report_json(FILE *fp, const ms_run *run, const char *tool_version);
int ms_report_text(FILE *fp, const ms_run *run);

#endif
