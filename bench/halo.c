/*
 * Halo exchange with many small messages: each rank exchanges 8-byte
 * messages with 4 neighbours on a ring (distance 1 and 2, both ways) with
 * MPI_Irecv / MPI_Isend / MPI_Waitall. Prints "ns_per_step X" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>

#include "bench_util.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = bench_count(argc, argv, 50000);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double out[4] = {0}, in[4];
    MPI_Request req[8];
    double t0 = 0;
    for (long i = -n / 10; i < n; i++) {
        if (i == 0)
            t0 = bench_now();
        for (int k = 0; k < 4; k++) {
            int d = k < 2 ? 1 : 2, peer = (k % 2) ? (rank + d) % size : (rank - d + size) % size;
            int back = (k % 2) ? (rank - d + size) % size : (rank + d) % size;
            MPI_Irecv(&in[k], 1, MPI_DOUBLE, back, k, MPI_COMM_WORLD, &req[k]);
            MPI_Isend(&out[k], 1, MPI_DOUBLE, peer, k, MPI_COMM_WORLD, &req[4 + k]);
        }
        MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
    }
    double t1 = bench_now();
    if (rank == 0)
        printf("ns_per_step %.3f\n", (t1 - t0) / (double)n * 1e9);
    MPI_Finalize();
    return 0;
}
