/*
 * Receives whose region is known only after the match:
 *   1. rank 0 receives one message from every other rank with MPI_ANY_SOURCE
 *      and MPI_ANY_TAG into a buffer larger than any of them;
 *   2. rank 1 receives 10 doubles into a 1000-double buffer; rank 0 receives
 *      from rank 1 with MPI_STATUS_IGNORE, once by source and tag, once with
 *      wildcards;
 *   3. every rank sends to itself with MPI_Isend and receives with wildcards.
 * Barriers separate the phases so that each wildcard receive can match only
 * the message this test means.
 */
#include <string.h>

#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Status st;
    long long sum = 0;

    /* 1. rank r > 0 sends r + 1 ints with tag 100 + r. */
    if (mt_rank == 0) {
        int buf[64];
        for (int i = 1; i < mt_size; i++) {
            memset(buf, 0xff, sizeof buf);
            MPI_Recv(buf, 64, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            const int src = st.MPI_SOURCE;
            mt_check(src > 0 && src < mt_size, "wildcard source %d", src);
            if (src > 0 && src < mt_size) {
                mt_check_status(&st, MPI_INT, src, 100 + src, src + 1);
                for (int k = 0; k < src + 1; k++)
                    mt_check(buf[k] == src * 1000 + k, "phase 1 from %d: element %d is %d", src, k, buf[k]);
                mt_check(buf[src + 1] == -1, "phase 1 from %d: wrote past the message", src);
            }
            sum += src;
        }
    } else {
        int buf[64];
        for (int k = 0; k < mt_rank + 1; k++)
            buf[k] = mt_rank * 1000 + k;
        MPI_Send(buf, mt_rank + 1, MPI_INT, 0, 100 + mt_rank, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 2. between ranks 0 and 1. */
    if (mt_size > 1 && mt_rank == 0) {
        double d[10];
        for (int k = 0; k < 10; k++)
            d[k] = 0.5 * k;
        MPI_Send(d, 10, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);

        int ints[16] = {0};
        MPI_Recv(ints, 16, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mt_check(ints[0] == 6 && ints[1] == 7 && ints[2] == 8 && ints[3] == 0, "phase 2 ints %d %d %d %d",
                 ints[0], ints[1], ints[2], ints[3]);

        char text[100] = {0};
        MPI_Recv(text, 100, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mt_check(memcmp(text, "mpiscop", 8) == 0, "phase 2 text '%.8s'", text);
        sum += ints[0] + ints[1] + ints[2] + (long long)strlen(text);
    } else if (mt_size > 1 && mt_rank == 1) {
        double d[1000];
        MPI_Recv(d, 1000, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, &st);
        mt_check_status(&st, MPI_DOUBLE, 0, 5, 10);
        for (int k = 0; k < 10; k++)
            mt_check(d[k] == 0.5 * k, "phase 2 double %d is %g", k, d[k]);

        const int ints[3] = {6, 7, 8};
        MPI_Send(ints, 3, MPI_INT, 0, 6, MPI_COMM_WORLD);
        /* 7 chars, no terminator: "mpiscop". */
        MPI_Send("mpiscope", 7, MPI_CHAR, 0, 8, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 3. self message: 5 shorts, tag 42. */
    short out[5] = {1, 2, 3, 4, 5}, in[50] = {0};
    MPI_Request req;
    MPI_Isend(out, 5, MPI_SHORT, mt_rank, 42, MPI_COMM_WORLD, &req);
    MPI_Recv(in, 50, MPI_SHORT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    mt_check_status(&st, MPI_SHORT, mt_rank, 42, 5);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    mt_check(in[0] == 1 && in[4] == 5 && in[5] == 0, "phase 3 data %d %d %d", in[0], in[4], in[5]);
    MPI_Barrier(MPI_COMM_WORLD);

    if (mt_rank == 0)
        printf("p2p_wildcard: ranks=%d sum=%lld\n", mt_size, sum);
    return mt_finish();
}
