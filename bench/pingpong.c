/*
 * 8-byte ping-pong between ranks 0 and 1. Prints "half_rtt_ns X" (half the
 * mean round trip) on rank 0.
 */
#include <mpi.h>
#include <stdio.h>

#include "bench_util.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = bench_count(argc, argv, 200000);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char buf[8] = {0};
    double t0 = 0;
    for (long i = -n / 10; i < n; i++) {
        if (i == 0)
            t0 = bench_now();
        if (rank == 0) {
            MPI_Send(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        }
    }
    double t1 = bench_now();
    if (rank == 0)
        printf("half_rtt_ns %.3f\n", (t1 - t0) / (double)n / 2 * 1e9);
    MPI_Finalize();
    return 0;
}
