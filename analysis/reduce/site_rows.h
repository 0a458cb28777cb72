/*
 * The rows of MPI time per function and call site (sites.h builds them):
 * their types and their freeing, apart from the builder so that the run
 * that holds them (run.h) needs nothing else of it.
 */
#ifndef MPISCOPE_SITE_ROWS_H
#define MPISCOPE_SITE_ROWS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "callsites.h"

/* A site's time on one rank. */
typedef struct ms_site_rank {
    int32_t rank;
    uint64_t ns;
} ms_site_rank;

typedef struct ms_site_row {
    const char *op;                /* the region's op (run->regions[].info.op) */
    const char *kind;
    const ms_callsite *at;         /* a call-site row of the place (function,
                                      file, line, object, location); NULL:
                                      calls without a call site */
    uint64_t calls, total_ns;
    uint32_t ranks;                /* ranks with calls there */
    int64_t bytes;                 /* -1: no size known */
    double imbalance_pct;
    uint64_t wait_ns;
    double mpi_pct, app_pct, wait_pct;
    const ms_site_rank *per_rank;  /* sites only: its time per rank with
                                      calls there, ascending rank (ranks of
                                      them); NULL for functions and
                                      start-up and shutdown */
} ms_site_row;

typedef struct ms_mpi_sites {
    ms_site_row *sites;            /* total time descending, then op, location */
    size_t nsites;
    ms_site_rank *site_ranks;      /* what the sites' per_rank point into */
    ms_site_row *functions;        /* the same per op (at NULL) */
    size_t nfunctions;
    ms_site_row *lifecycle;        /* start-up and shutdown, per op (at NULL) */
    size_t nlifecycle;
    uint64_t lifecycle_ns;         /* their time, all ranks */
    int has_wait;                  /* the wait-state analysis ran */
} ms_mpi_sites;

static inline void ms_mpi_sites_free(ms_mpi_sites *s)
{
    if (!s)
        return;
    free(s->sites);
    free(s->site_ranks);
    free(s->functions);
    free(s->lifecycle);
    memset(s, 0, sizeof *s);
}

#endif
