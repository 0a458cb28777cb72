/*
 * Receive polled with MPI_Test: each iteration both ranks post an 8-byte
 * MPI_Irecv from the peer, MPI_Send 8 bytes to it, then call MPI_Test until
 * the receive completes. Prints "ns_per_iter X" on rank 0.
 */
#include <mpi.h>
#include <stdio.h>

#include "bench_util.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = bench_count(argc, argv, 100000);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = rank ^ 1;
    char out[8] = {0}, in[8];
    double t0 = 0;
    if (peer < size) {
        for (long i = -n / 10; i < n; i++) {
            if (i == 0)
                t0 = bench_now();
            MPI_Request req;
            int done = 0;
            MPI_Irecv(in, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD, &req);
            MPI_Send(out, 8, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
            while (!done)
                MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        }
    }
    double t1 = bench_now();
    if (rank == 0)
        printf("ns_per_iter %.3f\n", (t1 - t0) / (double)n * 1e9);
    MPI_Finalize();
    return 0;
}
