/*
 * Reports of a reduced run (reduce.h). Each writes to fp and returns 0, or
 * -1 when writing failed.
 *   csv        one row per region over all ranks (DESIGN section 6 header)
 *   ranks_csv  one row per (region, rank)
 *   callsites_csv  one row per (region, rank, call site)
 *   json       everything: run, ranks, regions with their per-rank rows,
 *              sources and call sites, the traffic matrix, call-site rows,
 *              warnings
 *   text       the human report: run header, ranks, top regions, top call
 *              sites, MPI operations, message sizes, warnings; fits 100
 *              columns
 *   html       one self-contained page with the charts (report_html.h);
 *              reads the logs a second time for its timeline
 *   matrix_csv  point-to-point messages and bytes by world rank (matrix.h)
 *   events_csv  one row per call; reads the logs a second time
 *   trace      Chrome trace-event JSON with message flows; reads the logs
 *              a second time (report_trace.c)
 */
#ifndef MPISCOPE_REPORT_H
#define MPISCOPE_REPORT_H

#include <stdio.h>

#include "../reduce/reduce.h"
#include "../reduce/roofline.h"

#define MS_REGIONS_CSV_HEADER                                                                  \
    "name,operation,kind,bytes,peer,root,tag,comm,request,ranks,calls,total_s,mean_s,std_s,"   \
    "min_s,max_s,p50_s,p95_s,p99_s,first_s,last_s,imbalance_pct"
#define MS_RANKS_CSV_HEADER "name,rank,calls,total_s,mean_s,std_s,min_s,max_s,p50_s,p95_s,p99_s"
#define MS_CALLSITES_CSV_HEADER "region,rank,function,file,line,calls,total_s"
#define MS_EVENTS_CSV_HEADER "name,rank,thread,call_index,start_s,end_s,duration_s"
#define MS_SITES_CSV_HEADER                                                                    \
    "operation,function,file,line,object,calls,ranks,total_s,mpi_pct,app_pct,bytes,imbalance_pct,wait_pct"
#define MS_WAITS_CSV_HEADER "pattern,rank,region,instances,wait_s,cause_rank"

int ms_report_csv(FILE *fp, const ms_run *run);
int ms_report_ranks_csv(FILE *fp, const ms_run *run);
int ms_report_callsites_csv(FILE *fp, const ms_run *run);
int ms_report_json(FILE *fp, const ms_run *run, const char *tool_version);
int ms_report_text(FILE *fp, const ms_run *run);
int ms_report_html(FILE *fp, const ms_run *run);
int ms_report_matrix_csv(FILE *fp, const ms_run *run);
int ms_report_events_csv(FILE *fp, const ms_run *run);
int ms_report_trace(FILE *fp, const ms_run *run);
/* Hardware counters and the roofline (report_counters.c): the text
 * sections (nothing without counters) and the JSON value of "counters". */
int ms_report_counters_text(FILE *fp, const ms_run *run);
int ms_report_counters_json(FILE *fp, const ms_run *run);
/* The --roofline-csv table (header MS_ROOFLINE_CSV_HEADER, roofline.h); 0,
 * or -1 when writing failed. */
int ms_roofline_csv(FILE *fp, const ms_roofline *r);
/* Wait states and the critical path (report_waits.c): the --waits-csv
 * table, the text sections, and the JSON members "wait_states",
 * "wait_summary" and "critical_path" (written with their names). */
int ms_report_waits_csv(FILE *fp, const ms_run *run);
int ms_report_waits_text(FILE *fp, const ms_run *run);
int ms_report_waits_json(FILE *fp, const ms_run *run);

/* Root causes and the what-if (report_causes.c): --causes-csv, and the
 * JSON's "root_causes" and "what_if" members. */
int ms_report_causes_csv(FILE *fp, const ms_run *run);
int ms_report_causes_json(FILE *fp, const ms_run *run);
/* The sections that lead the text report's wait-state part
 * (report_causes_text.c): "Root causes", "What a fix would save" and "The
 * late ranks", each only when the analysis has something for it. */
int ms_report_causes_text(FILE *fp, const ms_run *run);
/* How the run ended (report_ending.c, run_end.h): the text section "Run
 * ended" (nothing when every rank finished) and the JSON member "ending"
 * (with its name). */
int ms_report_ending_text(FILE *fp, const ms_run *run);
int ms_report_ending_json(FILE *fp, const ms_run *run);
/* Their parts, for the HTML page: one rank's end in words ("MPI_Abort(3)
 * at app.c:40 (main)"), whether any rank waited at the end, and the lines
 * of who waits for whom (cycles, groups, the ranks waited on). */
struct ms_run_end;
struct ms_end_rank;
void ms_end_how(char *buf, size_t cap, const ms_rank_info *in, const struct ms_end_rank *er);
int ms_end_any_waiting(const struct ms_run_end *end);
int ms_end_graph_text(FILE *fp, const ms_run *run, const struct ms_run_end *end);
/* MPI time per function and call site (report_sites.c, sites.h): the
 * --sites-csv table, the text report's leading sections, and the JSON
 * members "sites", "functions" and "startup_shutdown" (with their names). */
int ms_report_sites_csv(FILE *fp, const ms_run *run);
/* A row's numbers as the text report prints them, for the HTML page to
 * show the same: % MPI, % app, total, calls, ranks, imbal %, wait % ("-"
 * without the analysis), bytes ("-" when none is known). */
typedef struct ms_site_cells {
    char mpi[32], app[32], total[32], calls[32], ranks[16], imbalance[32], wait[32], bytes[32];
} ms_site_cells;
struct ms_site_row;
struct ms_mpi_sites;
void ms_site_cells_of(const struct ms_mpi_sites *s, const struct ms_site_row *r, ms_site_cells *c);
int ms_report_sites_text(FILE *fp, const ms_run *run);
int ms_report_sites_json(FILE *fp, const ms_run *run);
/* GPU activity (report_gpu.c): the text section (nothing without GPU
 * records) and the JSON value of "gpu". */
int ms_report_gpu_text(FILE *fp, const ms_run *run);
int ms_report_gpu_json(FILE *fp, const ms_run *run);
/* Files of MPI-IO (report_files.c, io_rows.h): nothing without calls on
 * files, except the CSV header. The JSON part is the key and its value
 * after a comma. */
int ms_report_files_text(FILE *fp, const ms_run *run);
int ms_report_files_json(FILE *fp, const ms_run *run);
int ms_report_files_csv(FILE *fp, const ms_run *run);
/* Communicators (report_comms.c, comms.h): the text section (nothing when
 * the run has only world and self, unnamed), and the JSON key and value
 * after a comma. */
int ms_report_comms_text(FILE *fp, const ms_run *run);
int ms_report_comms_json(FILE *fp, const ms_run *run);

/* Reports that are directories, reading the logs a second time. Each
 * returns 0, or -1 with a message in err (no program name, no newline).
 *   otf2  an OTF2 archive DIR/traces.otf2 (report_otf2.c); 1: written, with
 *         a warning in err. Without libotf2 at build time it only fails.
 *   spt   scope-profiler native traces DIR/mpiscope_rank<NNNNN>.spt
 *         (report_spt.c) */
int ms_report_otf2(const char *dir, const ms_run *run, char *err, size_t errlen);
int ms_report_otf2_built(void);  /* 1 when built with libotf2 */
int ms_report_spt(const char *dir, const ms_run *run, char *err, size_t errlen);

#endif
