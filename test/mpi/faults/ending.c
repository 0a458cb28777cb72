/*
 * The program of test/mpi/fault_ending.sh (not a run.sh test of its own):
 * every rank makes ITERS calls of MPI_Allreduce, prints how many, then, by
 * MODE:
 *
 *   abort      rank 1 calls MPI_Abort(MPI_COMM_WORLD, 3); the others wait
 *              in MPI_Barrier
 *   segv       rank 1 writes through a null pointer; the others as in abort
 *   sigabrt    rank 1 calls abort(); the others as in abort
 *   kill       rank 1 raises SIGKILL; the others as in abort
 *   deadlock   ranks 0 and 1 each wait in MPI_Recv for the other (tag 5);
 *              the others wait in MPI_Barrier
 *   waitall    ranks 0 and 1 each post MPI_Irecv from the other (tag 5)
 *              and MPI_Issend to it (tag 6), and wait in MPI_Waitall; the
 *              others wait in MPI_Barrier
 *   spin       the last rank computes for ever; the others wait in
 *              MPI_Barrier
 *
 *   ending MODE ITERS
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: ending abort|segv|sigabrt|kill|deadlock|waitall|spin ITERS\n");
        return 2;
    }
    const char *mode = argv[1];
    long iters = atol(argv[2]);
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double x = 1, y = 0;
    for (long i = 0; i < iters; i++)
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: %ld allreduces\n", rank, iters);
    fflush(stdout);
    if (strcmp(mode, "deadlock") == 0 && rank < 2) {
        int v = 0;
        MPI_Recv(&v, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* line:recv */
    } else if (strcmp(mode, "waitall") == 0 && rank < 2) {
        int v = 0, w = rank;
        MPI_Request r[2];
        MPI_Status st[2];
        MPI_Irecv(&v, 1, MPI_INT, 1 - rank, 5, MPI_COMM_WORLD, &r[0]);
        MPI_Issend(&w, 1, MPI_INT, 1 - rank, 6, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, st); /* line:waitall */
    } else if (strcmp(mode, "spin") == 0 && rank == size - 1) {
        volatile double s = 0;
        for (;;)
            s += 1;
    } else if (rank == 1 && strcmp(mode, "abort") == 0) {
        MPI_Abort(MPI_COMM_WORLD, 3); /* line:abort */
    } else if (rank == 1 && strcmp(mode, "segv") == 0) {
        *(volatile int *)(argv[0] - (long)argv[0]) = 1; /* line:segv */
    } else if (rank == 1 && strcmp(mode, "sigabrt") == 0) {
        abort(); /* line:sigabrt */
    } else if (rank == 1 && strcmp(mode, "kill") == 0) {
        raise(SIGKILL);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* line:barrier */
    MPI_Finalize();
    return 0;
}
