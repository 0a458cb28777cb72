/*
 * The reduction (reduce.h) in its three stages, for merges that read one
 * run's logs in several processes (merge_mpi_main.c, DESIGN section 6):
 *
 *   list      the directory's rank-*.zst logs, in file order (rank in the
 *             file name, then name): ms_partial_list, or ms_partial_files
 *             with a list made elsewhere
 *   read      a subset of the files, with a pool of threads: each file gives
 *             a per-file result (ms_file_job), region parts (in per-thread
 *             tables, keyed by region name, rank_index = file index) and
 *             call-site rows; ms_partial_read
 *   assemble  every file's result -> the run (errors and warnings in file
 *             order, ranks, regions, call sites, channels, counters, run-wide
 *             facts): ms_partial_assemble
 *
 * The stages live in read_logs.c (list, read), rank_reduce.c (one file's
 * log -> its result), assemble.c (assemble) and partial.c (the partial's
 * files and tables); the run they fill is made with ms_run_new (run.h).
 *
 * ms_reduce_dir is list + read (every file) + assemble in one process. The
 * per-file results of a subset travel between processes as bytes
 * (partial_pack.h) and are added to the partial of the process that
 * assembles. The result does not depend on which process or thread read
 * which file.
 *
 * Every per-file result lives in the structs below (and the ms_rank_info,
 * ms_region_rank, ms_callsite, ms_p2p_chan and ms_counter_acc they hold):
 * a field added to one of them must also be carried by the wire format
 * (wire_rank.c, wire_file.c, partial_pack.c; docs/MERGE_MPI.md), whose
 * static size assertions fail until it is.
 */
#ifndef MPISCOPE_REDUCE_PARTIAL_H
#define MPISCOPE_REDUCE_PARTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "run.h"
#include "../read/strtab.h"
#include "wait_facts.h"

typedef struct ms_strlist {
    char **v;
    size_t n, cap;
} ms_strlist;

/* One log and what reading it gave. */
typedef struct ms_file_job {
    char *path;
    const char *base;              /* file name within the directory (in path) */
    long long name_rank;           /* from the file name */
    ms_read_result res;
    ms_rank_info info;             /* valid when res.has_header */
    ms_strlist warnings;
    int usable;                    /* has a header, and read OK or truncated */
    int read;                      /* read (by this process, or by another
                                      and added from its packet) */
    ms_p2p_chan *chans;            /* its point-to-point channels (p2p.h) */
    size_t nchans, chans_cap;
    ms_counter_acc *counters;      /* its counter samples (counters.h) */
    ms_wait_facts *waits;          /* the wait-state analysis's facts
                                      (wait_facts.h); NULL in summary mode */
} ms_file_job;

/* A region in a worker's (or the final) table: its parts per file. */
typedef struct ms_region_acc {
    ms_region_rank *parts;         /* rank_index holds the file index here */
    size_t n, cap;
} ms_region_acc;

/* Region name -> parts. */
typedef struct ms_region_table {
    ms_strtab names;
    ms_region_acc *regs;
    size_t cap;
} ms_region_table;

void ms_region_table_init(ms_region_table *t);
void ms_region_table_free(ms_region_table *t);
/* Append a part (taking over its stats) to region `name`; 0, or -1 when
 * out of memory (the part is then not taken). */
int ms_region_table_add(ms_region_table *t, const char *name, size_t len, const ms_region_rank *part);

typedef struct ms_partial {
    ms_file_job *files;            /* every log of the directory, file order */
    size_t nfiles;
    ms_region_table *tabs;         /* region parts of the files read */
    size_t ntabs;
    ms_callsite *sites;            /* call-site rows of the files read */
    size_t nsites, sites_cap;
    int nomem;                     /* some stage ran out of memory */
} ms_partial;

void ms_partial_init(ms_partial *p);
void ms_partial_free(ms_partial *p);

/* List dir's logs into p (which is empty). USAGE and NOMEM as
 * ms_reduce_dir, with the reason as run's only error for USAGE. */
ms_reduce_status ms_partial_list(ms_partial *p, const char *dir, ms_run *run);

/* The same from a list of file names (in file order) made by
 * ms_partial_list elsewhere. 0, or -1 when out of memory. */
int ms_partial_files(ms_partial *p, const char *dir, const char *const *names, size_t n);

/* Read the files i with mine[i] != 0 (mine NULL: every file) with `jobs`
 * threads (0: one per online CPU). 0, or -1 when out of memory (p->nomem). */
int ms_partial_read(ms_partial *p, unsigned jobs, const unsigned char *mine);

/* A new empty table at the end of p->tabs; NULL when out of memory. */
ms_region_table *ms_partial_add_table(ms_partial *p);

/* The run from p, once every file is read (the files' results are taken
 * over; p is then only to be freed). OK, BAD_INPUT (run->errors), or NOMEM
 * (also when p->nomem or a file was not read). */
ms_reduce_status ms_partial_assemble(ms_partial *p, ms_run *run);

#endif
