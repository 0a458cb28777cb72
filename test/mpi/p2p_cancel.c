/*
 * MPI_Cancel of receives that no send ever matches (on a ring; a single
 * rank is its own neighbour):
 *   1. MPI_Irecv of 2 ints from the left neighbour, tag 99; MPI_Cancel;
 *      MPI_Wait with a status: MPI_Test_cancelled says it was cancelled;
 *   2. the same with MPI_STATUS_IGNORE in the wait;
 *   3. two receives (tags 97, 98), both cancelled, completed by one
 *      MPI_Waitall, beside a receive of tag 96 that a real send matches;
 * then a barrier. A cancelled receive's completion reports bytes=0 and the
 * posted peer and tag, never what an undefined status holds.
 */
#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    int left = (mt_rank - 1 + mt_size) % mt_size, right = (mt_rank + 1) % mt_size;
    int buf[2] = {0, 0}, more[4][2];
    MPI_Request r[4];
    MPI_Status st, sts[4];
    int flag = 0;

    /* 1. */
    MPI_Irecv(buf, 2, MPI_INT, left, 99, MPI_COMM_WORLD, &r[0]);
    MPI_Cancel(&r[0]);
    MPI_Wait(&r[0], &st);
    MPI_Test_cancelled(&st, &flag);
    mt_check(flag, "the first receive was not cancelled");

    /* 2. */
    MPI_Irecv(buf, 2, MPI_INT, left, 99, MPI_COMM_WORLD, &r[0]);
    MPI_Cancel(&r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);

    /* 3. */
    int token = mt_rank;
    MPI_Irecv(more[0], 2, MPI_INT, left, 97, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(more[1], 2, MPI_INT, left, 98, MPI_COMM_WORLD, &r[1]);
    MPI_Irecv(more[2], 1, MPI_INT, left, 96, MPI_COMM_WORLD, &r[2]);
    MPI_Cancel(&r[0]);
    MPI_Cancel(&r[1]);
    MPI_Send(&token, 1, MPI_INT, right, 96, MPI_COMM_WORLD);
    MPI_Waitall(3, r, sts);
    for (int i = 0; i < 2; i++) {
        MPI_Test_cancelled(&sts[i], &flag);
        mt_check(flag, "receive %d of the Waitall was not cancelled", i);
    }
    MPI_Test_cancelled(&sts[2], &flag);
    mt_check(!flag, "the matched receive was cancelled");
    mt_check_status(&sts[2], MPI_INT, left, 96, 1);
    mt_check(more[2][0] == left, "received %d, expected %d", more[2][0], left);

    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("p2p_cancel: %d ranks, 4 receives cancelled per rank\n", mt_size);
    return mt_finish();
}
