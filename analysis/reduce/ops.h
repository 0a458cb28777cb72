/*
 * What the text and HTML reports both show of MPI regions: the
 * per-operation roll-up (the MPI regions summed per operation and kind,
 * whatever their sizes and peers), the message-size histogram and short
 * display names.
 */
#ifndef MPISCOPE_OPS_H
#define MPISCOPE_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "run.h"

typedef struct ms_op_row {
    char op[MS_FIELD_MAX];
    char kind[MS_FIELD_MAX];           /* "?" when the region's fields do not parse */
    uint64_t calls, total_ns, window_ns;  /* saturated sums */
    uint64_t bytes;                    /* bytes x calls of regions of known size */
    int has_bytes;
} ms_op_row;

/* Rows of the run's MPI regions, total time descending, then op and kind:
 * *rows (malloc'ed, free it) and *n. Returns 0, or -1 when out of memory. */
int ms_op_rollup(const ms_run *run, ms_op_row **rows, size_t *n);

/* A communicator's label (comms.h): world, self, its name, or how it was
 * made (split#2 of world (2 ranks)); never its id. */
const char *ms_comm_label(const ms_run *run, int64_t comm, char *buf, size_t cap);

/* A region's full name as the HTML page shows it (into buf, cut to cap):
 * its " comm=<id>" as " comm=<label>". */
void ms_long_name(const ms_run *run, char *buf, size_t cap, const char *name);

/* A region's display name (into buf, cut to cap): an MPI call's op and the
 * fields that say something (no kind, no -1 values, no comm=0), its
 * communicator by its label (comms.h: comm=split#1 of world (2 ranks));
 * other regions their name. */
void ms_short_name(const ms_run *run, char *buf, size_t cap, const ms_region *g);

/* Calls per message-size class of the point-to-point and collective MPI
 * regions of known size: class 0 is 0 bytes, class k >= 1 is
 * [2^(k-1), 2^k). Returns whether any call was counted. */
#define MS_SIZE_CLASSES 65
int ms_size_histogram(const ms_run *run, uint64_t p2p[MS_SIZE_CLASSES], uint64_t coll[MS_SIZE_CLASSES]);

/* Saturating arithmetic of the reports' sums. */
static inline uint64_t ms_sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t ms_sat_mul(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

#endif
