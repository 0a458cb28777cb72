/*
 * The wait states and the critical path per MPI function and call site,
 * for the text and HTML reports alike. The analysis keeps its rows and
 * path regions per region at a call site (run->waits->site_rows,
 * path_sites; run_waits.h); these sum those of one MPI function at one
 * call site, so that regions that differ only in bytes, peers or tags (one
 * line of code) read as one. Without site_rows (path_sites) they group
 * the region rows, each placed at its region's call site of most time on
 * the rank (the path's: none).
 */
#ifndef MPISCOPE_WAIT_SITES_H
#define MPISCOPE_WAIT_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "../reduce/run.h"

/* Waiting of one (pattern, rank, call, call site), with the rank that
 * caused most of it and the root cause of most of it (the delay analysis:
 * -1 when none); or time on the path of one (call, call site) (pattern,
 * rank and cause 0, root -1). */
typedef struct ms_wait_site {
    uint8_t pattern;
    int32_t rank, cause, root;
    uint64_t instances, ns, cause_ns, root_ns;
    uint32_t region;        /* one of its regions (run->regions), MS_WX_NONE for compute */
    const char *loc;        /* its call site's location; NULL when none */
    char call[256];         /* "MPI_Waitall", a user region's short name, "(compute)" */
} ms_wait_site;

/* The wait-state rows, or the critical path's pieces, so summed: *out
 * (malloc'ed, most time first) and *n. 0, or -1 when out of memory. */
int ms_wait_sites_rows(const ms_run *run, ms_wait_site **out, size_t *n);
int ms_wait_sites_path(const ms_run *run, ms_wait_site **out, size_t *n);

/* A call-site row of the group's region at its location, or NULL. */
const ms_callsite *ms_wait_site_at(const ms_run *run, const ms_wait_site *g);

/* What key k of the analysis (an index into run->wait_keys: a region at a
 * call site; MS_WX_NONE for compute) names, as a group of no time: its
 * region, location and call. */
void ms_wait_site_of_key(ms_wait_site *g, const ms_run *run, uint32_t k);

#endif
