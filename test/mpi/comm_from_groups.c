/*
 * MPI_Intercomm_create_from_groups (MPI 4.0), 2 ranks: each rank's local
 * group is itself, the remote group the other rank; a barrier over the
 * intercommunicator, a message each way, MPI_Comm_free. The
 * intercommunicator must have one id on both ranks
 * (test/mpi/comm_from_groups.expect.py).
 */
#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    mt_check(mt_size == 2, "comm_from_groups runs on 2 ranks");
#if MPI_VERSION >= 4
    MPI_Group world, local, remote;
    int me = mt_rank, other = 1 - mt_rank, x = mt_rank + 10, y = -1;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &me, &local);
    MPI_Group_incl(world, 1, &other, &remote);
    MPI_Comm inter = MPI_COMM_NULL;
    MPI_Intercomm_create_from_groups(local, 0, remote, 0, "org.mpiscope.test", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL,
                                     &inter);
    MPI_Barrier(inter);
    MPI_Sendrecv(&x, 1, MPI_INT, 0, 3, &y, 1, MPI_INT, 0, 3, inter, MPI_STATUS_IGNORE);
    mt_check(y == other + 10, "got %d from the remote group", y);
    MPI_Comm_free(&inter);
    MPI_Group_free(&local);
    MPI_Group_free(&remote);
    MPI_Group_free(&world);
#endif
    if (mt_rank == 0)
        printf("comm_from_groups: done\n");
    return mt_finish();
}
