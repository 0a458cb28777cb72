/* The parent world of test/mpi/spawn.sh: every rank spawns, together, two
 * children (the program given as argv[1]) over MPI_COMM_WORLD; rank r
 * sends child r a number over the new intercommunicator and receives its
 * answer (the children's allreduce of what they got, plus their rank). Rank
 * 0 prints what arrived, so that the output does not depend on timing. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: parent CHILD\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm inter;
    int errcodes[2];
    MPI_Comm_spawn(argv[1], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errcodes);
    int remote = 0;
    MPI_Comm_remote_size(inter, &remote);
    int out = 10 * (rank + 1), back = -1;
    if (rank < remote) {
        MPI_Send(&out, 1, MPI_INT, rank, 1, inter);
        MPI_Recv(&back, 1, MPI_INT, rank, 2, inter, MPI_STATUS_IGNORE);
    }
    int all[64];
    MPI_Gather(&back, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("parents %d children %d\n", size, remote);
        for (int r = 0; r < size && r < 64; r++)
            printf("rank %d got %d\n", r, all[r]);
    }
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}
