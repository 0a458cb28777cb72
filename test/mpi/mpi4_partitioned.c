/*
 * MPI 4.0 partitioned point-to-point (MPICH 4.0; Open MPI 4.1 has none), on
 * a ring: MPI_Precv_init from the left and MPI_Psend_init to the right,
 * PARTS partitions of COUNT ints, tag 90, created once, then
 *   1. ITERS times: MPI_Start of each, MPI_Pready of every partition,
 *      MPI_Parrived of every partition (whatever it answers), MPI_Wait of
 *      the send, then of the receive;
 *   2. ITERS times: MPI_Startall of both, MPI_Pready_range of partitions
 *      0..1, MPI_Pready_list of partitions 3 and 2, MPI_Waitall of both;
 *   3. once: MPI_Start of each, MPI_Pready_range of all partitions, a spin
 *      (MPI_Request_get_status, not recorded) until both completed, then
 *      MPI_Test of the send and of the receive, each completing;
 * and MPI_Request_free of both.
 */
#include "mpitest.h"

enum { PARTS = 4, COUNT = 3, ITERS = 2, N = PARTS * COUNT };

/* Spins, without a recorded call, until the request has completed. */
static void until_complete(MPI_Request r)
{
    int flag = 0;
    while (!flag)
        MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
}

static void fill(int *out, int round)
{
    for (int k = 0; k < N; k++)
        out[k] = mt_rank * 1000 + round * 100 + k;
}

static long check(const int *in, int left, int round)
{
    for (int k = 0; k < N; k++)
        mt_check(in[k] == left * 1000 + round * 100 + k, "round %d: element %d is %d", round, k, in[k]);
    return in[N - 1];
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
    int out[N], in[N], flag = 0, round = 0;
    long sum = 0;
    MPI_Request pr[2];   /* the receive, then the send */

    MPI_Precv_init(in, PARTS, COUNT, MPI_INT, left, 90, MPI_COMM_WORLD, MPI_INFO_NULL, &pr[0]);
    MPI_Psend_init(out, PARTS, COUNT, MPI_INT, right, 90, MPI_COMM_WORLD, MPI_INFO_NULL, &pr[1]);

    /* 1. */
    for (int it = 0; it < ITERS; it++, round++) {
        fill(out, round);
        MPI_Start(&pr[0]);
        MPI_Start(&pr[1]);
        for (int p = 0; p < PARTS; p++)
            MPI_Pready(p, pr[1]);
        for (int p = 0; p < PARTS; p++)
            MPI_Parrived(pr[0], p, &flag);
        MPI_Wait(&pr[1], MPI_STATUS_IGNORE);
        MPI_Wait(&pr[0], MPI_STATUS_IGNORE);
        sum += check(in, left, round);
    }

    /* 2. */
    const int rest[2] = {3, 2};
    for (int it = 0; it < ITERS; it++, round++) {
        fill(out, round);
        MPI_Startall(2, pr);
        MPI_Pready_range(0, 1, pr[1]);
        MPI_Pready_list(2, (int *)rest, pr[1]);
        MPI_Waitall(2, pr, MPI_STATUSES_IGNORE);
        sum += check(in, left, round);
    }

    /* 3. */
    fill(out, round);
    MPI_Start(&pr[0]);
    MPI_Start(&pr[1]);
    MPI_Pready_range(0, PARTS - 1, pr[1]);
    until_complete(pr[1]);
    until_complete(pr[0]);
    MPI_Test(&pr[1], &flag, MPI_STATUS_IGNORE);
    mt_check(flag, "test did not complete a finished partitioned send");
    MPI_Test(&pr[0], &flag, MPI_STATUS_IGNORE);
    mt_check(flag, "test did not complete a finished partitioned receive");
    sum += check(in, left, round);

    MPI_Request_free(&pr[0]);
    MPI_Request_free(&pr[1]);

    long total = 0;
    MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("mpi4_partitioned: ranks=%d checksum=%ld\n", mt_size, total);
    return mt_finish();
}
