/*
 * Nonblocking point-to-point on a ring (left = rank - 1, right = rank + 1,
 * periodic; a single rank is its own neighbour):
 *   1. MPI_Irecv + MPI_Isend, completed one by one with MPI_Wait;
 *   2. two receives completed by one MPI_Waitall, two sends by another;
 *   3. a receive and a send completed together by one MPI_Waitall (mixed),
 *      with statuses and with MPI_STATUSES_IGNORE, small and large messages;
 *   4. two small sends and two receives, each completed by its own MPI_Wait.
 */
#include <stdlib.h>

#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
    MPI_Request req[2];
    MPI_Status st[2];
    double sum = 0;

    /* 1. 16 doubles to the right, tag 1. */
    {
        double out[16], in[16];
        for (int k = 0; k < 16; k++)
            out[k] = mt_rank * 100 + k;
        MPI_Irecv(in, 16, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(out, 16, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
        MPI_Wait(&req[0], &st[0]);
        mt_check_status(&st[0], MPI_DOUBLE, left, 1, 16);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        for (int k = 0; k < 16; k++)
            mt_check(in[k] == left * 100 + k, "phase 1 element %d is %g", k, in[k]);
        sum += in[15];
    }

    /* 2. 4 ints each way: tag 2 travels right, tag 3 travels left. */
    {
        int to_right[4], to_left[4], from_left[4] = {0}, from_right[4] = {0};
        for (int k = 0; k < 4; k++) {
            to_right[k] = mt_rank + 10 * k;
            to_left[k] = -mt_rank - 10 * k;
        }
        MPI_Request recvs[2], sends[2];
        MPI_Irecv(from_left, 4, MPI_INT, left, 2, MPI_COMM_WORLD, &recvs[0]);
        MPI_Irecv(from_right, 4, MPI_INT, right, 3, MPI_COMM_WORLD, &recvs[1]);
        MPI_Isend(to_right, 4, MPI_INT, right, 2, MPI_COMM_WORLD, &sends[0]);
        MPI_Isend(to_left, 4, MPI_INT, left, 3, MPI_COMM_WORLD, &sends[1]);
        MPI_Waitall(2, recvs, st);
        mt_check_status(&st[0], MPI_INT, left, 2, 4);
        mt_check_status(&st[1], MPI_INT, right, 3, 4);
        MPI_Waitall(2, sends, MPI_STATUSES_IGNORE);
        for (int k = 0; k < 4; k++) {
            mt_check(from_left[k] == left + 10 * k, "phase 2 from left %d", from_left[k]);
            mt_check(from_right[k] == -right - 10 * k, "phase 2 from right %d", from_right[k]);
        }
        sum += from_left[3] + from_right[3];
    }

    /* 3. one receive and one send per MPI_Waitall, tag 4. */
    {
        const int counts[3] = {100, 50000 * 8, 100}; /* chars; the middle one is large */
        char *out = malloc(400000), *in = malloc(400000);
        for (int i = 0; i < 3; i++) {
            const int n = counts[i];
            for (int k = 0; k < n; k++)
                out[k] = (char)(k + mt_rank + i);
            MPI_Irecv(in, n, MPI_CHAR, left, 4, MPI_COMM_WORLD, &req[0]);
            MPI_Isend(out, n, MPI_CHAR, right, 4, MPI_COMM_WORLD, &req[1]);
            if (i == 1) {
                MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
            } else {
                MPI_Waitall(2, req, st);
                mt_check_status(&st[0], MPI_CHAR, left, 4, n);
            }
            int bad = 0;
            for (int k = 0; k < n; k++)
                bad += in[k] != (char)(k + left + i);
            mt_check(bad == 0, "phase 3 round %d: %d bytes differ", i, bad);
            sum += n;
        }
        free(out);
        free(in);
    }

    /* 4. small sends completed one by one by MPI_Wait. MPI libraries may give
     * every send that completed at once the same request handle. */
    {
        int out[2] = {mt_rank, -mt_rank}, in[2] = {0, 0};
        MPI_Request recvs[2], sends[2];
        MPI_Irecv(&in[0], 1, MPI_INT, left, 5, MPI_COMM_WORLD, &recvs[0]);
        MPI_Irecv(&in[1], 1, MPI_INT, left, 6, MPI_COMM_WORLD, &recvs[1]);
        MPI_Isend(&out[0], 1, MPI_INT, right, 5, MPI_COMM_WORLD, &sends[0]);
        MPI_Isend(&out[1], 1, MPI_INT, right, 6, MPI_COMM_WORLD, &sends[1]);
        MPI_Wait(&sends[0], MPI_STATUS_IGNORE);
        MPI_Wait(&sends[1], MPI_STATUS_IGNORE);
        MPI_Wait(&recvs[1], &st[1]);
        mt_check_status(&st[1], MPI_INT, left, 6, 1);
        MPI_Wait(&recvs[0], &st[0]);
        mt_check_status(&st[0], MPI_INT, left, 5, 1);
        mt_check(in[0] == left && in[1] == -left, "phase 4 data %d %d", in[0], in[1]);
        sum += in[0] - in[1];
    }

    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("p2p_nonblocking: ranks=%d sum=%.1f\n", mt_size, sum);
    return mt_finish();
}
