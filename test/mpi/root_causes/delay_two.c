/*
 * Two independent planted causes of different sizes, for the root-cause
 * and what-if analysis (test/mpi/root_causes.sh).
 *
 *   delay_two ITER BASE_MS PLANT_MS [--no-big | --no-delay]
 *
 * Each iteration has two compute stretches of BASE_MS on every rank, each
 * ending in a synchronization of all ranks at a call site of its own:
 *   - before MPI_Allreduce, rank 1 computes 2 x PLANT_MS more (the big cause);
 *   - before MPI_Barrier, rank 2 (rank 0 at 2 ranks) PLANT_MS more (the
 *     small one).
 * Every rank makes the same calls at the same call sites; each planted
 * stretch is planted ITER times, between the same two calls. --no-big
 * leaves the big cause out, --no-delay both. "Compute" is a sleep, so
 * ranks sharing cores do not slow one another down. Rank 0 prints one
 * line, the same under a profiler.
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
    int big = 1, small = 1;
    if (argc == 5 && strcmp(argv[4], "--no-big") == 0)
        big = 0;
    else if (argc == 5 && strcmp(argv[4], "--no-delay") == 0)
        big = small = 0;
    else if (argc != 4) {
        if (rank == 0)
            fprintf(stderr, "usage: delay_two ITER BASE_MS PLANT_MS [--no-big | --no-delay]\n");
        MPI_Finalize();
        return 2;
    }
    int iter = atoi(argv[1]), base = atoi(argv[2]), plant = atoi(argv[3]);
    int big_rank = 1 % size, small_rank = size > 2 ? 2 : 0;
    double x = rank + 1, sum = 0;
    /* Iteration 0 starts at the MPI_Allreduce and ITER ends there, so that
     * each stretch runs ITER times between the same two calls. */
    for (int i = 0; i <= iter; i++) {
        if (i > 0) {
            compute(base);
            if (big && rank == big_rank)
                compute(2 * plant);
        }
        double s;
        MPI_Allreduce(&x, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        sum += s;
        if (i < iter) {
            compute(base);
            if (small && rank == small_rank)
                compute(plant);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    if (rank == 0)
        printf("delay_two: ranks=%d iter=%d big=%s small=%s sum=%.0f\n", size, iter, big ? "yes" : "no",
               small ? "yes" : "no", sum);
    MPI_Finalize();
    return 0;
}
