/*
 * 70,000 requests live at once, more than the request table's first level
 * holds: rank 0 posts 70,000 MPI_Irecv of 1 byte from rank 1 (tag 4), then
 * completes them all with one MPI_Waitall; rank 1 sends them with 70,000
 * MPI_Isend (tag 4) and one MPI_Waitall. Other ranks only join the final
 * barrier. Every completion is attributed exactly: the waitall reports
 * bytes=70000 peer=1 tag=4 request=irecv (request=isend on rank 1).
 */
#include <stdlib.h>

#include "mpitest.h"

#define N 70000

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    if (mt_size >= 2 && mt_rank < 2) {
        char *buf = calloc(N, 1);
        MPI_Request *r = malloc(N * sizeof *r);
        for (int i = 0; i < N; i++)
            buf[i] = (char)(i % 127);
        int other = 1 - mt_rank;
        for (int i = 0; i < N; i++) {
            if (mt_rank == 0)
                MPI_Irecv(&buf[i], 1, MPI_CHAR, other, 4, MPI_COMM_WORLD, &r[i]);
            else
                MPI_Isend(&buf[i], 1, MPI_CHAR, other, 4, MPI_COMM_WORLD, &r[i]);
        }
        MPI_Waitall(N, r, MPI_STATUSES_IGNORE);
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += buf[i] != (char)(i % 127);
        mt_check(bad == 0, "%d bytes arrived wrong", bad);
        free(r);
        free(buf);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("many requests: %d live at once\n", mt_size >= 2 ? N : 0);
    return mt_finish();
}
