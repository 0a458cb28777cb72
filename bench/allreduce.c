/* An 8-byte MPI_Allreduce loop. Prints "ns_per_allreduce X" on rank 0. */
#include <mpi.h>
#include <stdio.h>

#include "bench_util.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = bench_count(argc, argv, 100000);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double x = rank, y = 0;
    double t0 = 0;
    for (long i = -n / 10; i < n; i++) {
        if (i == 0)
            t0 = bench_now();
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    double t1 = bench_now();
    if (rank == 0)
        printf("ns_per_allreduce %.3f\n", (t1 - t0) / (double)n * 1e9);
    MPI_Finalize();
    return 0;
}
