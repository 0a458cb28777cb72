/*
 * A planted late sender for the HTML report test (test/html/run.sh): rank 1
 * computes (sleeps) 20 ms before each of 5 sends to rank 0, which posts its
 * receives at once. Rank 0 then waits about 100 ms in MPI_Recv (late_sender,
 * caused by rank 1), and the critical path runs through rank 1's sleeps.
 * Other ranks, if any, only join the closing barrier.
 *
 *   mpiexec.mpich -n 2 ./late_sender
 */
#define _POSIX_C_SOURCE 200809L   /* nanosleep */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

enum { MESSAGES = 5, DELAY_MS = 20 };

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0)
        ;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double v = 0;
    for (int i = 0; i < MESSAGES && size > 1; i++) {
        if (rank == 1) {
            sleep_ms(DELAY_MS);
            v = i;
            MPI_Send(&v, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
        } else if (rank == 0) {
            MPI_Recv(&v, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("late_sender: %d messages, last %g\n", MESSAGES, v);
    MPI_Finalize();
    return 0;
}
