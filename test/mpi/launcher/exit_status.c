/*
 * For the launcher test (../launcher.sh) and the configuration test
 * (../config_env.sh): a few collectives, then the exit status given as the
 * first argument, after MPI_Finalize. The output is flushed before
 * MPI_Finalize: once one rank exits with a nonzero status, Open MPI's mpirun
 * ends the others, and what a rank still buffered for its exit would be
 * lost (with or without a profiler).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, one = 1, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 5; i++)
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ranks %d\n", sum);
    fflush(stdout);
    MPI_Finalize();
    return argc > 1 ? atoi(argv[1]) : 0;
}
