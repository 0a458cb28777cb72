/*
 * A chain of waiting with one planted cause, for the root-cause and what-if
 * analysis (test/mpi/root_causes.sh).
 *
 *   delay_chain ITER BASE_MS PLANT_MS [--no-delay]
 *
 * ITER + 1 exchanges: rank r receives from r + 1, then sends to r - 1
 * (MPI_PROC_NULL at the ends, so every rank makes the same calls at the
 * same call sites). Before each exchange but the first, every rank computes
 * BASE_MS and the last rank PLANT_MS more: the last rank makes the one
 * before it wait, which passes the wait on down to rank 0. Each such
 * compute stretch lies between the exchange's MPI_Send and the next one's
 * MPI_Recv on every rank. --no-delay leaves the planted time out (the same
 * program, balanced). "Compute" is a sleep, so ranks sharing cores do not
 * slow one another down. Rank 0 prints one line, the same under a profiler.
 */
#define _DEFAULT_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void compute(int ms)
{
    usleep((useconds_t)ms * 1000u);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int planted = !(argc == 5 && strcmp(argv[4], "--no-delay") == 0);
    if (argc != 4 && planted) {
        if (rank == 0)
            fprintf(stderr, "usage: delay_chain ITER BASE_MS PLANT_MS [--no-delay]\n");
        MPI_Finalize();
        return 2;
    }
    int iter = atoi(argv[1]), base = atoi(argv[2]), plant = atoi(argv[3]);
    int up = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    int down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    long token = 0;
    for (int i = 0; i <= iter; i++) {
        if (i > 0) {
            compute(base);
            if (planted && rank == size - 1)
                compute(plant);
        }
        long got = 0;
        MPI_Recv(&got, 1, MPI_LONG, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token = got + 1;
        MPI_Send(&token, 1, MPI_LONG, down, 1, MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("delay_chain: ranks=%d iter=%d planted=%s token=%ld\n", size, iter, planted ? "yes" : "no", token);
    MPI_Finalize();
    return 0;
}
