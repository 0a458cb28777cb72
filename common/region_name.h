/*
 * Canonical region names of MPI calls (DESIGN §4):
 *   mpi:<op> kind=<kind> bytes=<n> peer=<p> root=<r> tag=<t> comm=<c>[ request=<op>][ file=<id>]
 * MPI-free: shared by the wrappers and by tests.
 */
#ifndef MPISCOPE_REGION_NAME_H
#define MPISCOPE_REGION_NAME_H

#include <stddef.h>
#include <stdint.h>

typedef struct ms_region_fields {
    const char *op;       /* lower case, without MPI_: "send", "allreduce" */
    const char *kind;     /* point-to-point, collective, wait, rma, io, other */
    int64_t bytes;        /* -1: not applicable or unknown */
    int32_t peer;         /* -1: none */
    int32_t root;         /* -1: none */
    int32_t tag;          /* -1: none */
    int64_t comm;         /* 0 world, 1 self, else a derived id; -1: none */
    const char *request;  /* completion calls: creating op or "mixed"; NULL: absent */
    int has_file;         /* MPI-IO calls on a file: file=<file> follows; 0: absent */
    int64_t file;         /* the file's id (its file record, docs/FORMAT.md) */
} ms_region_fields;

/* Writes the name into buf (always terminated when cap > 0) and returns its
 * length as snprintf does. */
size_t ms_region_format(char *buf, size_t cap, const ms_region_fields *f);

#endif
