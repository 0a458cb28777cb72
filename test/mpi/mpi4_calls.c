/*
 * MPI 4.0 calls (MPICH 4.0; Open MPI 4.1 has none of them), on a ring (a
 * single rank is its own neighbour):
 *   1. large-count variants, recorded under the op of their base function:
 *      MPI_Send_c / MPI_Recv_c (5 doubles, tag 1), MPI_Isend_c /
 *      MPI_Irecv_c + MPI_Waitall (3 ints, tag 2), MPI_Bcast_c (3 ints from
 *      rank 0), MPI_Allreduce_c (4 doubles), MPI_Alltoallv_c (j + 1 ints to
 *      rank j);
 *   2. MPI_Isendrecv (2 ints, tag 3) and MPI_Isendrecv_replace (4 shorts,
 *      tag 4), each completed by MPI_Wait;
 *   3. MPI_Comm_idup_with_info + MPI_Wait, a barrier on the duplicate.
 */
#include <stdlib.h>

#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int n = mt_size, me = mt_rank, left = (me + n - 1) % n, right = (me + 1) % n;
    long sum = 0;
    MPI_Request r[2];

    /* 1. */
    double d5[5] = {me, 1, 2, 3, 4}, in5[5] = {0};
    MPI_Irecv_c(in5, (MPI_Count)5, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Send_c(d5, (MPI_Count)5, MPI_DOUBLE, right, 1, MPI_COMM_WORLD);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    mt_check(in5[0] == left, "send_c delivered %g", in5[0]);
    int i3[3] = {me, 5, 6}, got3[3] = {0};
    MPI_Isend_c(i3, (MPI_Count)3, MPI_INT, right, 2, MPI_COMM_WORLD, &r[0]);
    MPI_Recv_c(got3, (MPI_Count)3, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    mt_check(got3[0] == left && got3[2] == 6, "isend_c/recv_c delivered %d %d", got3[0], got3[2]);
    sum += (long)in5[0] + got3[0];

    int b3[3] = {0, 0, 0};
    if (me == 0)
        b3[2] = 42;
    MPI_Bcast_c(b3, (MPI_Count)3, MPI_INT, 0, MPI_COMM_WORLD);
    mt_check(b3[2] == 42, "bcast_c %d", b3[2]);
    double a4[4] = {me, 1, 1, 1}, s4[4] = {0};
    MPI_Allreduce_c(a4, s4, (MPI_Count)4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    mt_check(s4[0] == n * (n - 1) / 2 && s4[3] == n, "allreduce_c %g %g", s4[0], s4[3]);

    MPI_Count *sc = malloc((size_t)n * sizeof *sc), *rc = malloc((size_t)n * sizeof *rc);
    MPI_Aint *sd = malloc((size_t)n * sizeof *sd), *rd = malloc((size_t)n * sizeof *rd);
    int *sb = malloc((size_t)(n * (n + 1) / 2) * sizeof *sb), *rb = malloc((size_t)(n * (me + 1)) * sizeof *rb);
    for (int j = 0, off = 0; j < n; j++) {
        sc[j] = j + 1;
        sd[j] = off;
        for (int k = 0; k <= j; k++)
            sb[off + k] = 1000 * me + j;
        off += j + 1;
        rc[j] = me + 1;
        rd[j] = (MPI_Aint)j * (me + 1);
    }
    MPI_Alltoallv_c(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < n; j++)
        mt_check(rb[rd[j]] == 1000 * j + me, "alltoallv_c from %d: %d", j, rb[rd[j]]);
    sum += rb[0];
    free(sc);
    free(rc);
    free(sd);
    free(rd);
    free(sb);
    free(rb);

    /* 2. */
    int i2[2] = {me, -me}, g2[2] = {0, 0};
    MPI_Isendrecv(i2, 2, MPI_INT, right, 3, g2, 2, MPI_INT, left, 3, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    mt_check(g2[0] == left && g2[1] == -left, "isendrecv %d %d", g2[0], g2[1]);
    short s4r[4] = {(short)me, 1, 2, 3};
    MPI_Isendrecv_replace(s4r, 4, MPI_SHORT, right, 4, left, 4, MPI_COMM_WORLD, &r[1]);
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    mt_check(s4r[0] == left && s4r[3] == 3, "isendrecv_replace %d %d", s4r[0], s4r[3]);
    sum += g2[0] + s4r[0];

    /* 3. */
    MPI_Comm dup;
    MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Barrier(dup);
    MPI_Comm_free(&dup);

    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("mpi4_calls: ranks=%d checksum=%ld\n", n, all);
    return mt_finish();
}
