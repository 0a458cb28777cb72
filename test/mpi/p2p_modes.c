/*
 * The send modes on a ring (left = rank - 1, right = rank + 1, periodic; a
 * single rank is its own neighbour). Every receive is posted before its
 * send, so that synchronous and ready sends are legal and nothing deadlocks
 * on one rank:
 *   1. MPI_Bsend and MPI_Ibsend from an attached buffer;
 *   2. MPI_Ssend and MPI_Issend;
 *   3. MPI_Rsend and MPI_Irsend after a barrier (the receive is posted);
 *   4. MPI_Sendrecv and MPI_Sendrecv_replace around the ring;
 *   5. MPI_PROC_NULL peers: every mode of send, receives, nonblocking pairs
 *      and a non-periodic MPI_Sendrecv chain.
 */
#include <stdlib.h>

#include "mpitest.h"

static void check_ints(const int *in, int n, int from, int tag)
{
    for (int k = 0; k < n; k++)
        mt_check(in[k] == from * 1000 + tag * 10 + k, "tag %d element %d is %d", tag, k, in[k]);
}

static void fill_ints(int *out, int n, int tag)
{
    for (int k = 0; k < n; k++)
        out[k] = mt_rank * 1000 + tag * 10 + k;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
    MPI_Request req[2];
    MPI_Status st;
    int out[16], in[16];
    long sum = 0;

    /* 1. buffered: 8 ints with tag 10, 12 ints with tag 11. */
    {
        int size = 0;
        MPI_Pack_size(20, MPI_INT, MPI_COMM_WORLD, &size);
        size += 2 * MPI_BSEND_OVERHEAD;
        char *buffer = malloc((size_t)size);
        MPI_Buffer_attach(buffer, size);

        MPI_Irecv(in, 16, MPI_INT, left, 10, MPI_COMM_WORLD, &req[0]);
        fill_ints(out, 8, 10);
        MPI_Bsend(out, 8, MPI_INT, right, 10, MPI_COMM_WORLD);
        MPI_Wait(&req[0], &st);
        mt_check_status(&st, MPI_INT, left, 10, 8);
        check_ints(in, 8, left, 10);
        sum += in[7];

        MPI_Irecv(in, 16, MPI_INT, left, 11, MPI_COMM_WORLD, &req[0]);
        fill_ints(out, 12, 11);
        MPI_Ibsend(out, 12, MPI_INT, right, 11, MPI_COMM_WORLD, &req[1]);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        check_ints(in, 12, left, 11);
        sum += in[11];

        void *back;
        MPI_Buffer_detach(&back, &size);
        mt_check(back == buffer, "detached another buffer");
        free(buffer);
    }

    /* 2. synchronous: 5 doubles with tag 20, 3 ints with tag 21. */
    {
        double dout[5], din[5] = {0};
        for (int k = 0; k < 5; k++)
            dout[k] = mt_rank + 0.25 * k;
        MPI_Irecv(din, 5, MPI_DOUBLE, left, 20, MPI_COMM_WORLD, &req[0]);
        MPI_Ssend(dout, 5, MPI_DOUBLE, right, 20, MPI_COMM_WORLD);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        for (int k = 0; k < 5; k++)
            mt_check(din[k] == left + 0.25 * k, "ssend element %d is %g", k, din[k]);
        sum += (long)(4 * din[4]);

        MPI_Irecv(in, 16, MPI_INT, left, 21, MPI_COMM_WORLD, &req[0]);
        fill_ints(out, 3, 21);
        MPI_Issend(out, 3, MPI_INT, right, 21, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        check_ints(in, 3, left, 21);
        sum += in[2];
    }

    /* 3. ready: 3 shorts with tag 30, 7 ints with tag 31. */
    {
        short sout[3] = {(short)mt_rank, 2, 3}, sin[3] = {0};
        MPI_Irecv(sin, 3, MPI_SHORT, left, 30, MPI_COMM_WORLD, &req[0]);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Rsend(sout, 3, MPI_SHORT, right, 30, MPI_COMM_WORLD);
        MPI_Wait(&req[0], &st);
        mt_check_status(&st, MPI_SHORT, left, 30, 3);
        mt_check(sin[0] == left && sin[2] == 3, "rsend data %d %d", sin[0], sin[2]);
        sum += sin[0];

        MPI_Irecv(in, 16, MPI_INT, left, 31, MPI_COMM_WORLD, &req[0]);
        MPI_Barrier(MPI_COMM_WORLD);
        fill_ints(out, 7, 31);
        MPI_Irsend(out, 7, MPI_INT, right, 31, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        check_ints(in, 7, left, 31);
        sum += in[6];
    }

    /* 4. combined: 4 ints right with tag 40; 6 doubles replaced, tag 41
     * travels right and is received with tag 41. */
    {
        fill_ints(out, 4, 40);
        MPI_Sendrecv(out, 4, MPI_INT, right, 40, in, 16, MPI_INT, left, 40, MPI_COMM_WORLD, &st);
        mt_check_status(&st, MPI_INT, left, 40, 4);
        check_ints(in, 4, left, 40);
        sum += in[3];

        double d[6];
        for (int k = 0; k < 6; k++)
            d[k] = mt_rank * 10 + k;
        MPI_Sendrecv_replace(d, 6, MPI_DOUBLE, right, 41, left, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int k = 0; k < 6; k++)
            mt_check(d[k] == left * 10 + k, "sendrecv_replace element %d is %g", k, d[k]);
        sum += (long)d[5];
    }

    /* 5. MPI_PROC_NULL. */
    {
        fill_ints(out, 2, 50);
        MPI_Send(out, 2, MPI_INT, MPI_PROC_NULL, 50, MPI_COMM_WORLD);
        MPI_Bsend(out, 2, MPI_INT, MPI_PROC_NULL, 50, MPI_COMM_WORLD);
        MPI_Ssend(out, 2, MPI_INT, MPI_PROC_NULL, 50, MPI_COMM_WORLD);
        MPI_Rsend(out, 2, MPI_INT, MPI_PROC_NULL, 50, MPI_COMM_WORLD);
        in[0] = -7;
        MPI_Recv(in, 16, MPI_INT, MPI_PROC_NULL, 50, MPI_COMM_WORLD, &st);
        mt_check(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "proc_null status %d %d",
                 st.MPI_SOURCE, st.MPI_TAG);
        mt_check(in[0] == -7, "a receive from MPI_PROC_NULL wrote %d", in[0]);

        MPI_Irecv(in, 16, MPI_INT, MPI_PROC_NULL, 51, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(out, 2, MPI_INT, MPI_PROC_NULL, 51, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);

        /* A chain: rank 0 receives from nobody, the last rank sends to nobody. */
        const int up = mt_rank + 1 < mt_size ? mt_rank + 1 : MPI_PROC_NULL;
        const int down = mt_rank > 0 ? mt_rank - 1 : MPI_PROC_NULL;
        fill_ints(out, 5, 52);
        in[0] = -7;
        MPI_Sendrecv(out, 5, MPI_INT, up, 52, in, 16, MPI_INT, down, 52, MPI_COMM_WORLD, &st);
        if (down == MPI_PROC_NULL) {
            mt_check(in[0] == -7, "chain: rank 0 received %d", in[0]);
        } else {
            mt_check_status(&st, MPI_INT, down, 52, 5);
            check_ints(in, 5, down, 52);
            sum += in[4];
        }
    }

    MPI_Barrier(MPI_COMM_WORLD);
    long total = 0;
    MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("p2p_modes: ranks=%d checksum=%ld\n", mt_size, total);
    return mt_finish();
}
