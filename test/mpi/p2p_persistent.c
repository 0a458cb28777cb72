/*
 * Persistent requests on a ring (a single rank is its own neighbour):
 *   1. MPI_Send_init + MPI_Recv_init, tag 80, started ITERS times with
 *      MPI_Startall and completed with MPI_Waitall, then ITERS more times
 *      with MPI_Start and MPI_Wait one by one;
 *   2. MPI_Bsend_init (tag 81), MPI_Ssend_init (tag 82) and MPI_Rsend_init
 *      (tag 83, started after a barrier so that the receive is posted), each
 *      started MODES times;
 *   3. MPI_Request_free of every persistent request, and of an active
 *      MPI_Isend request (tag 84).
 */
#include <stdlib.h>

#include "mpitest.h"

enum { ITERS = 5, MODES = 2 };

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
    long sum = 0;

    /* 1. 4 ints. */
    int out[4], in[4];
    MPI_Request pair[2];
    MPI_Recv_init(in, 4, MPI_INT, left, 80, MPI_COMM_WORLD, &pair[0]);
    MPI_Send_init(out, 4, MPI_INT, right, 80, MPI_COMM_WORLD, &pair[1]);
    for (int it = 0; it < 2 * ITERS; it++) {
        for (int k = 0; k < 4; k++)
            out[k] = mt_rank * 100 + it * 10 + k;
        if (it < ITERS) {
            MPI_Startall(2, pair);
            MPI_Waitall(2, pair, MPI_STATUSES_IGNORE);
        } else {
            MPI_Status st;
            MPI_Start(&pair[0]);
            MPI_Start(&pair[1]);
            MPI_Wait(&pair[1], MPI_STATUS_IGNORE);
            MPI_Wait(&pair[0], &st);
            mt_check_status(&st, MPI_INT, left, 80, 4);
        }
        mt_check(in[3] == left * 100 + it * 10 + 3, "iteration %d: %d", it, in[3]);
        sum += in[3];
    }

    /* 2. the other modes: 2 doubles, 3 shorts, 5 chars. */
    double dout[2], din[2];
    short sout[3], sin[3];
    char cout[5], cin[5];
    MPI_Request modes[3], recvs[3];
    int bsize = 0;
    MPI_Pack_size(2, MPI_DOUBLE, MPI_COMM_WORLD, &bsize);
    bsize += MPI_BSEND_OVERHEAD;
    char *buffer = malloc((size_t)bsize);
    MPI_Buffer_attach(buffer, bsize);
    MPI_Recv_init(din, 2, MPI_DOUBLE, left, 81, MPI_COMM_WORLD, &recvs[0]);
    MPI_Recv_init(sin, 3, MPI_SHORT, left, 82, MPI_COMM_WORLD, &recvs[1]);
    MPI_Recv_init(cin, 5, MPI_CHAR, left, 83, MPI_COMM_WORLD, &recvs[2]);
    MPI_Bsend_init(dout, 2, MPI_DOUBLE, right, 81, MPI_COMM_WORLD, &modes[0]);
    MPI_Ssend_init(sout, 3, MPI_SHORT, right, 82, MPI_COMM_WORLD, &modes[1]);
    MPI_Rsend_init(cout, 5, MPI_CHAR, right, 83, MPI_COMM_WORLD, &modes[2]);
    for (int it = 0; it < MODES; it++) {
        dout[1] = mt_rank + it;
        sout[2] = (short)(mt_rank + it);
        cout[4] = (char)('a' + mt_rank + it);
        MPI_Startall(3, recvs);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Startall(3, modes);
        MPI_Waitall(3, modes, MPI_STATUSES_IGNORE);
        MPI_Waitall(3, recvs, MPI_STATUSES_IGNORE);
        mt_check(din[1] == left + it && sin[2] == left + it && cin[4] == (char)('a' + left + it),
                 "modes iteration %d: %g %d %d", it, din[1], sin[2], cin[4]);
        sum += (long)din[1] + sin[2] + cin[4];
    }
    void *back;
    MPI_Buffer_detach(&back, &bsize);
    free(buffer);

    /* 3. free them all; then an active send request. */
    MPI_Request_free(&pair[0]);
    MPI_Request_free(&pair[1]);
    for (int i = 0; i < 3; i++) {
        MPI_Request_free(&modes[i]);
        MPI_Request_free(&recvs[i]);
    }
    static int one = 0, got = -1;
    one = mt_rank;
    MPI_Request req;
    MPI_Isend(&one, 1, MPI_INT, right, 84, MPI_COMM_WORLD, &req);
    MPI_Request_free(&req);
    MPI_Recv(&got, 1, MPI_INT, left, 84, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    mt_check(got == left, "freed send delivered %d", got);
    MPI_Barrier(MPI_COMM_WORLD);

    long total = 0;
    MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("p2p_persistent: ranks=%d checksum=%ld\n", mt_size, total);
    return mt_finish();
}
