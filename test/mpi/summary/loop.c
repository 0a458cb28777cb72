/* A loop of collectives and a ring exchange for the summary-mode tests
 * (test/mpi/summary.sh): loop ITERATIONS. Per rank and iteration: one
 * MPI_Allreduce of 8 bytes, one MPI_Bcast of 64 bytes from rank 0, one
 * MPI_Sendrecv of 1024 bytes to the right neighbour (from the left one)
 * when there are two ranks or more, and one MPI_Barrier every 10th
 * iteration. Prints one checksum line from rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = argc > 1 ? atol(argv[1]) : 1000;
    int out[256], in[256], b[16];
    double sum = 0;
    for (int k = 0; k < 256; k++)
        out[k] = rank + k;
    for (long i = 0; i < n; i++) {
        double x = (double)(rank + i), y;
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        sum += y;
        for (int k = 0; k < 16; k++)
            b[k] = rank == 0 ? (int)(i + k) : -1;
        MPI_Bcast(b, 16, MPI_INT, 0, MPI_COMM_WORLD);
        sum += b[15];
        if (size > 1) {
            MPI_Sendrecv(out, 256, MPI_INT, (rank + 1) % size, 7, in, 256, MPI_INT, (rank + size - 1) % size, 7,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += in[255];
        }
        if (i % 10 == 0)
            MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("checksum %.0f\n", sum);
    MPI_Finalize();
    return 0;
}
