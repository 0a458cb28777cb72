/*
 * The point-to-point traffic matrix of a run: what each world rank sent to
 * each other world rank (DESIGN section 6, --matrix-csv).
 *
 * A cell counts the messages and bytes that world rank `src` sent to world
 * rank `dst` with point-to-point calls: the MS_P2P_SEND calls of p2p.h
 * (blocking sends, non-blocking sends counted once at the call that posts
 * them, the send half of sendrecv, and each start of a persistent send,
 * partitioned ones included),
 * the destination mapped from its rank in the call's communicator to a
 * world rank through the communicator records of the sender's log.
 * Collectives and one-sided calls are not in it. Left out, because the
 * region names do not attribute them: sends started by MPI_Startall (the
 * number of requests and their peers are not in the name), and sends on a
 * communicator whose record is missing from the sender's log. Bytes of a
 * datatype whose size is unknown (bytes=-1) count 0.
 *
 * The run holds the matrix as a sparse list (run.h):
 *   run->matrix, run->nmatrix   cells with at least one message, sorted by
 *                               src, then dst
 */
#ifndef MPISCOPE_MATRIX_H
#define MPISCOPE_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "p2p.h"

typedef struct ms_matrix_cell {
    int32_t src, dst;      /* world ranks */
    uint64_t messages;
    uint64_t bytes;
} ms_matrix_cell;

#define MS_MATRIX_CSV_HEADER "src,dst,messages,bytes"

/* Build the matrix from normalized channels (p2p.h): *out (malloc'ed, NULL
 * when empty) and *nout. Returns 0, or -1 when out of memory. */
int ms_matrix_build(const ms_p2p_chan *chans, size_t nchans, ms_matrix_cell **out, size_t *nout);

/* The cell (src, dst) of a sorted matrix, or NULL when they exchanged
 * nothing. */
const ms_matrix_cell *ms_matrix_find(const ms_matrix_cell *m, size_t n, int32_t src, int32_t dst);

#endif
