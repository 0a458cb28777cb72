/*
 * One-sided communication with active target synchronization, on a ring
 * (a single rank is its own neighbour). Every call reports the communicator
 * its window was created on.
 *   1. MPI_Win_create over 8 ints on MPI_COMM_WORLD; three fence epochs
 *      with MPI_Put (2 ints right), MPI_Get (1 int from the left),
 *      MPI_Accumulate (1 int to rank 0); MPI_Get_accumulate (right),
 *      MPI_Fetch_and_op (left) and MPI_Compare_and_swap (rank 0);
 *   2. post/start/complete/wait: each rank exposes its window to its left
 *      neighbour and puts 1 int into its right neighbour's; an exposure to
 *      MPI_GROUP_EMPTY, finished by one MPI_Win_test;
 *   3. MPI_Win_allocate on a duplicate of MPI_COMM_WORLD (dup) with a fence
 *      epoch and MPI_Put;
 *   4. MPI_Win_free of each.
 */
#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int n = mt_size, me = mt_rank, left = (me + n - 1) % n, right = (me + 1) % n;
    long sum = 0;

    /* 1. */
    int mem[8];
    for (int k = 0; k < 8; k++)
        mem[k] = 100 * me + k;
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    const int two[2] = {-me, -2 * me}, one = 1;
    int fetched = -1, res = -1, old = -1, old2 = -1;
    MPI_Win_fence(0, win);
    MPI_Put(two, 2, MPI_INT, right, 0, 2, MPI_INT, win);
    MPI_Get(&fetched, 1, MPI_INT, left, 4, 1, MPI_INT, win);
    MPI_Accumulate(&one, 1, MPI_INT, 0, 6, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    mt_check(mem[0] == -left && mem[1] == -2 * left, "put arrived as %d %d", mem[0], mem[1]);
    mt_check(fetched == 100 * left + 4, "get fetched %d", fetched);
    if (me == 0)
        mt_check(mem[6] == 6 + n, "accumulate: %d", mem[6]);
    const int ten = 10, minus = -100, cmp = 3, mine = 1000 + me;
    MPI_Get_accumulate(&ten, 1, MPI_INT, &res, 1, MPI_INT, right, 7, 1, MPI_INT, MPI_SUM, win);
    MPI_Fetch_and_op(&minus, &old, MPI_INT, left, 5, MPI_SUM, win);
    MPI_Compare_and_swap(&mine, &cmp, &old2, MPI_INT, 0, 3, win);
    MPI_Win_fence(0, win);
    mt_check(res == 100 * right + 7, "get_accumulate returned %d", res);
    mt_check(old == 100 * left + 5, "fetch_and_op returned %d", old);
    mt_check(mem[7] == 100 * me + 17 && mem[5] == 100 * me - 95, "get_accumulate/fetch_and_op: %d %d", mem[7],
             mem[5]);
    if (me == 0)
        mt_check(mem[3] >= 1000 && mem[3] < 1000 + n, "compare_and_swap left %d", mem[3]);
    sum += fetched + res + old;

    /* 2. */
    MPI_Group world_group, to_left, to_right;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_incl(world_group, 1, &left, &to_left);
    MPI_Group_incl(world_group, 1, &right, &to_right);
    const int val = 1000 + me;
    MPI_Win_post(to_left, 0, win);
    MPI_Win_start(to_right, 0, win);
    MPI_Put(&val, 1, MPI_INT, right, 2, 1, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    mt_check(mem[2] == 1000 + left, "pscw put arrived as %d", mem[2]);
    sum += mem[2];
    int flag = 0;
    MPI_Win_post(MPI_GROUP_EMPTY, 0, win);
    MPI_Win_test(win, &flag);
    mt_check(flag, "MPI_Win_test of an exposure to nobody returned false");
    MPI_Group_free(&to_left);
    MPI_Group_free(&to_right);
    MPI_Group_free(&world_group);

    /* 3. */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    double *base = NULL;
    MPI_Win dwin;
    MPI_Win_allocate(4 * sizeof(double), sizeof(double), MPI_INFO_NULL, dup, &base, &dwin);
    const double dv[3] = {me, 0.5, 0.25};
    MPI_Win_fence(0, dwin);
    MPI_Put(dv, 3, MPI_DOUBLE, left, 1, 3, MPI_DOUBLE, dwin);
    MPI_Win_fence(0, dwin);
    mt_check(base[1] == right && base[3] == 0.25, "put into the allocated window: %g %g", base[1], base[3]);
    sum += (long)base[1];

    /* 4. */
    MPI_Win_free(&dwin);
    MPI_Comm_free(&dup);
    MPI_Win_free(&win);

    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("rma_active: ranks=%d checksum=%ld\n", n, all);
    return mt_finish();
}
