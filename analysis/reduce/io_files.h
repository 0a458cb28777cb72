/*
 * Files of MPI-IO (docs/FORMAT.md "Files (version 5)"): each rank's file records, as
 * the reduction keeps them in its ms_rank_info (run.h). What the reports
 * make of them is in io_rows.h.
 */
#ifndef MPISCOPE_IO_FILES_H
#define MPISCOPE_IO_FILES_H

#include <stddef.h>
#include <stdint.h>

/* One file record of a rank. */
typedef struct ms_io_file {
    uint32_t id;
    uint32_t unused;
    int64_t comm;                  /* -1: none */
    char *path;
} ms_io_file;

/* A rank's files, by id (an id recorded twice: the later path). */
typedef struct ms_io_files {
    ms_io_file *v;
    size_t n;
} ms_io_files;

/* 0, or -1 when out of memory. */
int ms_io_files_add(ms_io_files *f, uint32_t id, int64_t comm, const char *path, size_t len);
const ms_io_file *ms_io_files_find(const ms_io_files *f, uint32_t id);
void ms_io_files_free(ms_io_files *f);

#endif
