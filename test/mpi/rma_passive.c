/*
 * One-sided communication with passive target synchronization, on a ring
 * (a single rank is its own neighbour):
 *   1. MPI_Win_allocate of 8 ints on MPI_COMM_WORLD; MPI_Win_lock /
 *      MPI_Put / MPI_Win_unlock to the right (exclusive), MPI_Win_lock /
 *      MPI_Get / MPI_Win_unlock from the left (shared);
 *   2. one MPI_Win_lock_all epoch: MPI_Fetch_and_op + MPI_Win_flush (rank
 *      0), MPI_Compare_and_swap + MPI_Win_flush_local (right), MPI_Rput,
 *      MPI_Rget, MPI_Raccumulate and MPI_Rget_accumulate each completed by
 *      MPI_Wait, MPI_Win_flush_all, MPI_Win_flush_local_all, MPI_Win_sync,
 *      MPI_Win_unlock_all;
 *   3. MPI_Win_allocate_shared on MPI_Comm_split_type(SHARED) (shared),
 *      with a lock_all epoch and MPI_Win_sync;
 *   4. MPI_Win_create_dynamic on MPI_COMM_WORLD with memory attached and a
 *      fence epoch with MPI_Put;
 *   5. MPI_Win_free of each.
 * Barriers order the epochs of different ranks.
 */
#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int n = mt_size, me = mt_rank, left = (me + n - 1) % n, right = (me + 1) % n;
    long sum = 0;

    /* 1. */
    int *mem = NULL;
    MPI_Win win;
    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win);
    for (int k = 0; k < 8; k++)
        mem[k] = 100 * me + k;
    MPI_Win_unlock(me, win);
    MPI_Barrier(MPI_COMM_WORLD);
    const int val = -me;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
    MPI_Put(&val, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Win_unlock(right, win);
    int two[2] = {0, 0};
    MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win);
    MPI_Get(two, 2, MPI_INT, left, 1, 2, MPI_INT, win);
    MPI_Win_unlock(left, win);
    mt_check(two[0] == 100 * left + 1 && two[1] == 100 * left + 2, "locked get %d %d", two[0], two[1]);
    MPI_Barrier(MPI_COMM_WORLD);

    /* 2. */
    const int one = 1, cmp = 100 * right + 3, swap = -3, ten = 10;
    int old = -1, old2 = -1, put4[4] = {me, me, me, me}, got3[3] = {0}, res = -1;
    MPI_Request req;
    MPI_Win_lock_all(0, win);
    MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 4, MPI_SUM, win);
    MPI_Win_flush(0, win);
    MPI_Compare_and_swap(&swap, &cmp, &old2, MPI_INT, right, 3, win);
    MPI_Win_flush_local(right, win);
    MPI_Rput(put4, 1, MPI_INT, right, 5, 1, MPI_INT, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Rget(got3, 3, MPI_INT, left, 0, 3, MPI_INT, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Raccumulate(&one, 1, MPI_INT, 0, 6, 1, MPI_INT, MPI_SUM, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Rget_accumulate(&ten, 1, MPI_INT, &res, 1, MPI_INT, left, 7, 1, MPI_INT, MPI_SUM, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Win_flush_all(win);
    MPI_Win_flush_local_all(win);
    MPI_Win_sync(win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win);
    mt_check(old2 == 100 * right + 3 && mem[3] == -3, "compare_and_swap %d %d", old2, mem[3]);
    mt_check(mem[5] == left && mem[7] == 100 * me + 17, "rput/rget_accumulate %d %d", mem[5], mem[7]);
    if (me == 0)
        mt_check(mem[4] == 4 + n && mem[6] == 6 + n, "fetch_and_op/raccumulate %d %d", mem[4], mem[6]);
    MPI_Win_unlock(me, win);
    mt_check(res == 100 * left + 7, "rget_accumulate returned %d", res);
    mt_check(got3[1] == 100 * left + 1, "rget %d", got3[1]);
    sum += two[1] + res + got3[1];

    /* 3. */
    MPI_Comm shared;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &shared);
    int *smem = NULL;
    MPI_Win swin;
    MPI_Win_allocate_shared(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, shared, &smem, &swin);
    MPI_Win_lock_all(0, swin);
    smem[0] = me;
    smem[1] = 2 * me;
    MPI_Win_sync(swin);
    MPI_Win_unlock_all(swin);
    MPI_Barrier(shared);
    mt_check(smem[1] == 2 * me, "shared window %d", smem[1]);

    /* 4. */
    MPI_Win dwin;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dwin);
    static int dmem[4];
    MPI_Win_attach(dwin, dmem, sizeof dmem);
    MPI_Aint addr, right_addr = 0;
    MPI_Get_address(dmem, &addr);
    MPI_Sendrecv(&addr, 1, MPI_AINT, left, 11, &right_addr, 1, MPI_AINT, right, 11, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    const int dval[2] = {me, 7};
    MPI_Win_fence(0, dwin);
    MPI_Put(dval, 2, MPI_INT, right, right_addr, 2, MPI_INT, dwin);
    MPI_Win_fence(0, dwin);
    mt_check(dmem[0] == left && dmem[1] == 7, "dynamic window %d %d", dmem[0], dmem[1]);
    sum += dmem[0];
    MPI_Win_detach(dwin, dmem);

    /* 5. */
    MPI_Win_free(&dwin);
    MPI_Win_free(&swin);
    MPI_Comm_free(&shared);
    MPI_Win_free(&win);

    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("rma_passive: ranks=%d checksum=%ld\n", n, all);
    return mt_finish();
}
