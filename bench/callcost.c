/*
 * Cost of one intercepted call: MPI_Send to MPI_PROC_NULL, the cheapest call
 * that moves through a full wrapper. Prints "ns_per_call X" on rank 0; the
 * difference with and without the preload is the added time per call.
 */
#include <mpi.h>
#include <stdio.h>

#include "bench_util.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = bench_count(argc, argv, 2000000);
    char buf[8] = {0};
    for (long i = 0; i < n / 100; i++)
        MPI_Send(buf, 8, MPI_CHAR, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    double t0 = bench_now();
    for (long i = 0; i < n; i++)
        MPI_Send(buf, 8, MPI_CHAR, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    double t1 = bench_now();
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("ns_per_call %.3f\n", (t1 - t0) / (double)n * 1e9);
    MPI_Finalize();
    return 0;
}
