/*
 * Request handles that the MPI library gives to several live requests at
 * once. Open MPI returns one predefined request (ompi_request_empty) for
 * every MPI_Isend to MPI_PROC_NULL, and MPICH a builtin one; so the tool
 * sees one handle value held by many requests, among others that are real.
 * Each round posts, in this order, N MPI_Isend of 8 bytes to MPI_PROC_NULL
 * (tag 5) interleaved with one MPI_Irecv of 4 ints from the left and one
 * MPI_Isend of 4 ints to the right (tag 5), then:
 *   round 1: one MPI_Waitall of them all;
 *   round 2: MPI_Waitany until none is left, each reporting its own request;
 *   round 3: MPI_Test of the PROC_NULL sends one by one (each completes at
 *            once), then MPI_Waitall of the two real ones;
 *   round 4: as round 1, each handle returned to one temporary and copied
 *            into the array (as a C++ code that pushes each request onto a
 *            vector does), so that no completion passes the address its
 *            handle was returned to.
 * Every completion is attributed exactly: the waitall of round 1 reports
 * request=mixed with bytes N x 8 + 16 + 16 (as does round 4's), and each
 * waitany and test the one request it completed.
 */
#include <stdlib.h>

#include "mpitest.h"

#define N 1000

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int left = (mt_rank - 1 + mt_size) % mt_size, right = (mt_rank + 1) % mt_size;
    MPI_Request *r = malloc((N + 2) * sizeof *r);
    char nul[8] = {0};
    int out[4] = {mt_rank, 1, 2, 3}, in[4];
    for (int round = 1; round <= 4; round++) {
        for (int i = 0; i < N + 2; i++) {
            MPI_Request tmp, *to = round == 4 ? &tmp : &r[i];
            if (i == N / 2)
                MPI_Irecv(in, 4, MPI_INT, left, 5, MPI_COMM_WORLD, to);
            else if (i == N / 2 + 1)
                MPI_Isend(out, 4, MPI_INT, right, 5, MPI_COMM_WORLD, to);
            else
                MPI_Isend(nul, 8, MPI_CHAR, MPI_PROC_NULL, 5, MPI_COMM_WORLD, to);
            r[i] = *to;
        }
        if (round == 1 || round == 4) {
            MPI_Waitall(N + 2, r, MPI_STATUSES_IGNORE);
        } else if (round == 2) {
            for (int k = 0; k < N + 2; k++) {
                int idx;
                MPI_Waitany(N + 2, r, &idx, MPI_STATUS_IGNORE);
                mt_check(idx != MPI_UNDEFINED, "waitany %d found nothing", k);
            }
        } else {
            for (int i = 0; i < N + 2; i++) {
                if (i == N / 2 || i == N / 2 + 1)
                    continue;
                int flag = 0;
                MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE);
                mt_check(flag, "the send to MPI_PROC_NULL %d is not complete", i);
            }
            MPI_Waitall(2, &r[N / 2], MPI_STATUSES_IGNORE);
        }
        mt_check(in[0] == left && in[3] == 3, "round %d: received %d from %d", round, in[0], left);
    }
    free(r);
    return mt_finish();
}
