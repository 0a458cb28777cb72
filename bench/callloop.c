/*
 * One pattern of calls in a loop, for counting what mpiscope adds to it
 * (scripts/callgrind_own.sh -n 1 build/bench/callloop N1 N2 PATTERN). 1
 * rank, to and from MPI_PROC_NULL or the rank itself, as bench/percall.c
 * times them one by one. Patterns, per iteration:
 *
 *   send          MPI_Send to MPI_PROC_NULL
 *   recv          MPI_Recv from MPI_PROC_NULL
 *   sendrecv      MPI_Sendrecv with MPI_PROC_NULL
 *   isend_wait    MPI_Isend to MPI_PROC_NULL, MPI_Wait
 *   irecv_wait    MPI_Irecv from MPI_PROC_NULL, MPI_Wait
 *   irecv_test    MPI_Irecv from MPI_PROC_NULL, MPI_Test
 *   waitall_self  4 MPI_Irecv and 4 MPI_Isend to itself, one MPI_Waitall
 *   test_pending  MPI_Test of a receive not there yet
 *   waitany64     MPI_Send to itself, MPI_Waitany over 64 receives (one
 *                 arrived), MPI_Irecv to repost it
 *   burst B       MPI_Isend to MPI_PROC_NULL into element i % B of an array,
 *                 one MPI_Waitall of the B after every B of them (the MPI
 *                 library gives them all one handle value); a unit is one
 *                 request (PATTERN's argument B, 1000 if left out)
 *   burst_moved B the same, each handle returned to one temporary and then
 *                 copied into the array
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

enum {
    SEND, RECV, SENDRECV, ISEND_WAIT, IRECV_WAIT, IRECV_TEST, WAITALL_SELF, TEST_PENDING, WAITANY64, BURST,
    BURST_MOVED, NPATTERNS
};
static const char *const names[NPATTERNS] = {
    "send", "recv", "sendrecv", "isend_wait", "irecv_wait", "irecv_test", "waitall_self", "test_pending", "waitany64",
    "burst", "burst_moved",
};

#define ANY 64

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = bench_count(argc, argv, 100000);
    int pattern = -1;
    for (int i = 0; i < NPATTERNS; i++)
        if (argc > 2 && strcmp(argv[2], names[i]) == 0)
            pattern = i;
    if (pattern < 0) {
        fprintf(stderr, "usage: callloop N PATTERN (send, recv, sendrecv, isend_wait, irecv_wait, irecv_test, "
                        "waitall_self, test_pending, waitany64, burst [B], burst_moved [B])\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
        return 2;
    }
    static char sbuf[8], rbuf[8], rbufs[ANY][8];
    const int p = MPI_PROC_NULL;
    const MPI_Comm w = MPI_COMM_WORLD, self = MPI_COMM_SELF;
    MPI_Request r, q[ANY];
    int flag, idx, next = 0;
    int burst = argc > 3 ? atoi(argv[3]) : 1000, held = 0;
    MPI_Request *b = NULL;
    if (pattern == BURST || pattern == BURST_MOVED) {
        if (burst < 1 || !(b = malloc((size_t)burst * sizeof *b))) {
            fprintf(stderr, "callloop: burst needs a size of at least 1\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (pattern == TEST_PENDING)
        MPI_Irecv(rbuf, 8, MPI_CHAR, 0, 99, self, &r);
    if (pattern == WAITANY64)
        for (int k = 0; k < ANY; k++)
            MPI_Irecv(rbufs[k], 8, MPI_CHAR, 0, k, self, &q[k]);
    for (long i = 0; i < n; i++) {
        switch (pattern) {
        case SEND:
            MPI_Send(sbuf, 8, MPI_CHAR, p, 0, w);
            break;
        case RECV:
            MPI_Recv(rbuf, 8, MPI_CHAR, p, 0, w, MPI_STATUS_IGNORE);
            break;
        case SENDRECV:
            MPI_Sendrecv(sbuf, 8, MPI_CHAR, p, 0, rbuf, 8, MPI_CHAR, p, 0, w, MPI_STATUS_IGNORE);
            break;
        case ISEND_WAIT:
            MPI_Isend(sbuf, 8, MPI_CHAR, p, 0, w, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            break;
        case IRECV_WAIT:
            MPI_Irecv(rbuf, 8, MPI_CHAR, p, 0, w, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            break;
        case IRECV_TEST:
            MPI_Irecv(rbuf, 8, MPI_CHAR, p, 0, w, &r);
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            if (!flag)
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            break;
        case WAITALL_SELF:
            for (int k = 0; k < 4; k++) {
                MPI_Irecv(rbufs[k], 8, MPI_CHAR, 0, k, self, &q[k]);
                MPI_Isend(sbuf, 8, MPI_CHAR, 0, k, self, &q[4 + k]);
            }
            MPI_Waitall(8, q, MPI_STATUSES_IGNORE);
            break;
        case TEST_PENDING:
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            break;
        case WAITANY64:
            MPI_Send(sbuf, 8, MPI_CHAR, 0, next, self);
            next = (next + 1) % ANY;
            MPI_Waitany(ANY, q, &idx, MPI_STATUS_IGNORE);
            MPI_Irecv(rbufs[idx], 8, MPI_CHAR, 0, idx, self, &q[idx]);
            break;
        case BURST:
        case BURST_MOVED: {
            MPI_Request tmp, *to = pattern == BURST_MOVED ? &tmp : &b[held];
            MPI_Isend(sbuf, 8, MPI_CHAR, p, 0, w, to);
            b[held++] = *to;
            if (held == burst) {
                MPI_Waitall(held, b, MPI_STATUSES_IGNORE);
                held = 0;
            }
            break;
        }
        }
    }
    if (held)
        MPI_Waitall(held, b, MPI_STATUSES_IGNORE);
    free(b);
    if (pattern == TEST_PENDING) {
        MPI_Send(sbuf, 8, MPI_CHAR, 0, 99, self);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    if (pattern == WAITANY64)
        for (int k = 0; k < ANY; k++) {
            MPI_Send(sbuf, 8, MPI_CHAR, 0, k, self);
            MPI_Wait(&q[k], MPI_STATUS_IGNORE);
        }
    MPI_Finalize();
    return 0;
}
