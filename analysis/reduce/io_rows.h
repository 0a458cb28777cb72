/*
 * What the reports say per file of MPI-IO: the calls of each rank's MPI
 * regions of kind io with ` file=<id>` in their name, per (path, rank, op),
 * the path from the rank's file records (io_files.h).
 *
 * A read is a call whose op starts file_read or file_iread, a write one
 * whose op starts file_write or file_iwrite; the _begin half of a split
 * collective is neither (its _end says what was moved); every other call
 * on a file is an "other" call. Bytes are calls x the region's bytes (0
 * when not known).
 */
#ifndef MPISCOPE_IO_ROWS_H
#define MPISCOPE_IO_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "run.h"

/* One row of the report: a file's calls of one op on one rank. */
typedef struct ms_io_row {
    const char *path;              /* the run's (points into its ranks) */
    int32_t rank;
    const char *op;                /* the run's region name info */
    uint64_t calls;
    uint64_t bytes;
    uint64_t total_ns;
} ms_io_row;

enum ms_io_class { MS_IO_READ, MS_IO_WRITE, MS_IO_OTHER };
enum ms_io_class ms_io_class_of(const char *op);

/* A file over its ranks, for the text, JSON and HTML reports. */
typedef struct ms_io_sum {
    const char *path;
    size_t ranks;
    uint64_t reads, read_bytes, writes, write_bytes, others;
    uint64_t total_ns;
} ms_io_sum;

/* The rows of a run, by path, rank, op; and the files, by path. 0 (*rows
 * NULL and *n 0 when the run has no file calls), or -1 when out of memory.
 * Free both with free(). */
int ms_io_rows(const ms_run *run, ms_io_row **rows, size_t *n);
int ms_io_sums(const ms_io_row *rows, size_t n, ms_io_sum **sums, size_t *nsums);

#endif
