/*
 * Parsing a region name back into its fields (DESIGN section 4):
 *   mpi:<op> kind=<kind> bytes=<n> peer=<p> root=<r> tag=<t> comm=<c>[ request=<op>][ file=<id>]
 * The inverse of ms_region_format (common/region_name.h). It accepts what
 * scope-profiler's parse_mpi_region accepts: fields separated by spaces, in
 * any order, unknown fields ignored, the last of repeated fields wins.
 */
#ifndef MPISCOPE_REGION_PARSE_H
#define MPISCOPE_REGION_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define MS_FIELD_MAX 64   /* longest op, kind or request kept */

typedef struct ms_region_info {
    int is_mpi;                   /* 1: a canonical MPI name, fields below set */
    char op[MS_FIELD_MAX];        /* "" when not is_mpi */
    char kind[MS_FIELD_MAX];
    int64_t bytes;
    int64_t peer, root, tag;
    int64_t comm;                 /* -1: none */
    char request[MS_FIELD_MAX];   /* "" when absent */
    int64_t file;                 /* MPI-IO: the file's id in its rank's
                                     log (file records); -1 when absent */
} ms_region_info;

/* Fills *out. Returns 1 for a canonical MPI name; 0 for another name (not
 * starting "mpi:", or one whose fields do not parse), with every field
 * empty (strings "", numbers 0). */
int ms_region_parse(const char *name, ms_region_info *out);

/* 1 when the name is an MPI call's region (starts with "mpi:"). */
int ms_region_is_mpi(const char *name, size_t len);

#endif
