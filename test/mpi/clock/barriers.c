/* Known synchronisation points for the clock-alignment test
 * (clock_sync.sh): BARRIERS barriers spaced GAP_MS apart (about 1 s in
 * all), then an ending chosen by argv[1]:
 *   normal  every rank calls MPI_Finalize
 *   late    the last rank sleeps LATE_MS (1.5 s) before MPI_Finalize
 *   late0   rank 0 sleeps LATE_MS before MPI_Finalize
 *   exit    the last rank calls exit(3) without MPI_Finalize
 *   abort   the last rank calls MPI_Abort(MPI_COMM_WORLD, 4)
 *   bare    no barriers: MPI_Init, then MPI_Finalize (the exchange alone)
 * Rank 0 prints one line before the ending. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BARRIERS 20
#define GAP_MS 50
/* How late a late rank is: more than the finalize exchange's bound. */
#define LATE_MS 1500

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "normal";
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int count = strcmp(mode, "bare") == 0 ? 0 : BARRIERS;
    for (int i = 0; i < count; i++) {
        /* Ranks arrive in turn, so the last to enter differs. */
        sleep_ms(GAP_MS - (rank == i % size ? 0 : 5));
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("%d barriers on %d ranks\n", count, size);
    fflush(stdout);
    int last = rank == size - 1 && size > 1;
    if (last && strcmp(mode, "late") == 0)
        sleep_ms(LATE_MS);
    if (rank == 0 && size > 1 && strcmp(mode, "late0") == 0)
        sleep_ms(LATE_MS);
    if (last && strcmp(mode, "exit") == 0)
        exit(3);
    if (last && strcmp(mode, "abort") == 0)
        MPI_Abort(MPI_COMM_WORLD, 4);
    MPI_Finalize();
    return 0;
}
