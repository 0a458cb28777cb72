/*
 * A pipelined ring exchange: each step posts the receive of the next step
 * before it waits for the one posted the step before, so a receive is
 * always live, as in codes that overlap communication with work. On a full
 * disk (test/mpi/disk_full.sh) the trace then goes on after each gap with
 * receives created in it, which the log carries over the gap (docs/FORMAT.md,
 * "Requests carried over a gap"); the tags cycle through 0, 1 and 2, so
 * that a completion named from the wrong request shows in the counts.
 *
 *   pipeline STEPS      prints rank 0's checksum
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long steps = argc > 1 ? atol(argv[1]) : 1000;
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    double in[2] = {0, 0}, out = 0, sum = 0;
    MPI_Request recv[2], send;
    MPI_Irecv(&in[0], 1, MPI_DOUBLE, from, 0, MPI_COMM_WORLD, &recv[0]);
    for (long i = 0; i < steps; i++) {
        int cur = (int)(i & 1), next = cur ^ 1;
        MPI_Irecv(&in[next], 1, MPI_DOUBLE, from, (int)((i + 1) % 3), MPI_COMM_WORLD, &recv[next]);
        out = (double)(rank + 1) * (double)(i % 1000);
        MPI_Isend(&out, 1, MPI_DOUBLE, to, (int)(i % 3), MPI_COMM_WORLD, &send);
        MPI_Wait(&recv[cur], MPI_STATUS_IGNORE);
        MPI_Wait(&send, MPI_STATUS_IGNORE);
        sum += in[cur];
    }
    /* The receive posted last gets its message, and the run ends clean. */
    out = 0;
    MPI_Send(&out, 1, MPI_DOUBLE, to, (int)(steps % 3), MPI_COMM_WORLD);
    MPI_Wait(&recv[steps & 1], MPI_STATUS_IGNORE);
    double total = 0;
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("pipeline: %ld steps, checksum %.1f\n", steps, total);
    MPI_Finalize();
    return 0;
}
