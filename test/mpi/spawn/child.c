/* The spawned world of test/mpi/spawn.sh: child r receives a number from
 * parent r over its parent intercommunicator, the children sum what they
 * got (MPI_Allreduce over their own MPI_COMM_WORLD), and child r answers
 * parent r with the sum plus r; child 1 answers LATE_MS late (planted: its
 * parent waits for it). It prints nothing (the parent does). */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#define LATE_MS 300

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        fprintf(stderr, "child: not spawned\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rank, remote;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_remote_size(parent, &remote);
    int in = 0, sum = 0;
    if (rank < remote)
        MPI_Recv(&in, 1, MPI_INT, rank, 1, parent, MPI_STATUS_IGNORE);
    MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int answer = sum + rank;
    if (rank == 1) {
        struct timespec late = {0, LATE_MS * 1000000L};
        nanosleep(&late, NULL);
    }
    if (rank < remote)
        MPI_Send(&answer, 1, MPI_INT, rank, 2, parent);
    MPI_Comm_free(&parent);
    MPI_Finalize();
    return 0;
}
