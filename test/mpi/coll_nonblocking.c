/*
 * Nonblocking collectives on MPI_COMM_WORLD and the completion calls that
 * finish them. A test family call runs only once MPI_Request_get_status
 * (not recorded) has seen the request complete, or where it cannot have
 * completed (rank 0 tests its MPI_Ibarrier before the others enter it), so
 * the number of calls is fixed:
 *   ibarrier                      MPI_Test (false on rank 0), MPI_Wait
 *   ibcast 10 ints + ireduce 3 doubles         one MPI_Waitall
 *   iallreduce 4 ints in place                 MPI_Test
 *   igather 2 ints (in place at the root)      MPI_Wait
 *   igatherv rank + 1 ints                     MPI_Wait
 *   iscatter 3 doubles                         MPI_Wait
 *   iscatterv rank + 1 shorts (in place at the root)   MPI_Wait
 *   iallgather 2 doubles in place + iallgatherv rank + 1 ints   MPI_Waitall
 *   ialltoall 2 ints                           MPI_Testall
 *   ialltoallv j + 1 ints to rank j            MPI_Waitany
 *   ialltoallw 1 int to even, 2 doubles to odd ranks   MPI_Waitsome
 *   ireduce_scatter j + 1 ints to rank j + ireduce_scatter_block 2 ints
 *     in place                                 MPI_Waitall
 *   iscan 3 ints                               MPI_Testany
 *   iexscan 2 doubles                          MPI_Testsome
 */
#include <stdlib.h>

#include "mpitest.h"

static void until_complete(MPI_Request r)
{
    int flag = 0;
    while (!flag)
        MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int n = mt_size, me = mt_rank, last = n - 1;
    const int total = n * (n + 1) / 2;
    MPI_Request r[2];
    int flag, index, outcount, indices[2];
    long sum = 0;
    int *a = calloc((size_t)(2 * n * (n + 1)), sizeof *a), *b = calloc((size_t)(2 * n * (n + 1)), sizeof *b);
    double *d = calloc((size_t)(4 * n), sizeof *d);
    short *s = calloc((size_t)(n * (n + 1)), sizeof *s);
    int *counts = malloc((size_t)n * sizeof *counts), *displs = malloc((size_t)n * sizeof *displs);
    int *rcounts = malloc((size_t)n * sizeof *rcounts), *rdispls = malloc((size_t)n * sizeof *rdispls);
    for (int j = 0, off = 0; j < n; j++) {
        counts[j] = j + 1;
        displs[j] = off;
        off += j + 1;
        rcounts[j] = me + 1;
        rdispls[j] = j * (me + 1);
    }

    /* ibarrier */
    if (me == 0) {
        MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
        if (n > 1) {
            MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
            mt_check(!flag, "ibarrier completed before the others entered");
            for (int j = 1; j < n; j++)
                MPI_Send(&j, 1, MPI_INT, j, 5, MPI_COMM_WORLD);
        }
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    } else {
        int go;
        MPI_Recv(&go, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    }

    /* ibcast + ireduce */
    int ten[10];
    for (int k = 0; k < 10; k++)
        ten[k] = me == 0 ? k * k : -1;
    double three[3] = {me, 1, 2}, red[3] = {0};
    MPI_Ibcast(ten, 10, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Ireduce(three, red, 3, MPI_DOUBLE, MPI_SUM, last, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    mt_check(ten[9] == 81, "ibcast %d", ten[9]);
    if (me == last)
        mt_check(red[0] == n * (n - 1) / 2 && red[2] == 2 * n, "ireduce %g %g", red[0], red[2]);
    sum += ten[9];

    /* iallreduce in place */
    int four[4] = {me, 1, 2, 3};
    MPI_Iallreduce(MPI_IN_PLACE, four, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
    until_complete(r[0]);
    MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
    mt_check(flag, "test of a finished iallreduce");
    mt_check(four[0] == n * (n - 1) / 2 && four[1] == n, "iallreduce %d %d", four[0], four[1]);
    sum += four[0];

    /* igather, in place at rank 0 */
    int two[2] = {me, 7 * me};
    if (me == 0) {
        a[0] = 0;
        a[1] = 0;
        MPI_Igather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, 2, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
    } else {
        MPI_Igather(two, 2, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD, &r[0]);
    }
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    if (me == 0)
        for (int j = 0; j < n; j++)
            mt_check(a[2 * j + 1] == 7 * j, "igather from %d: %d", j, a[2 * j + 1]);

    /* igatherv to the last rank */
    int *part = malloc((size_t)(me + 1) * sizeof *part);
    for (int k = 0; k <= me; k++)
        part[k] = 100 * me + k;
    MPI_Igatherv(part, me + 1, MPI_INT, b, counts, displs, MPI_INT, last, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    if (me == last)
        for (int j = 0; j < n; j++)
            mt_check(b[displs[j] + j] == 101 * j, "igatherv from %d: %d", j, b[displs[j] + j]);
    free(part);

    /* iscatter from rank 0 */
    double mine3[3] = {0};
    for (int k = 0; k < 3 * n; k++)
        d[k] = k;
    MPI_Iscatter(d, 3, MPI_DOUBLE, mine3, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    mt_check(mine3[2] == 3 * me + 2, "iscatter %g", mine3[2]);
    sum += (long)mine3[2];

    /* iscatterv from the last rank, in place there */
    short got[64] = {0};
    if (me == last) {
        for (int k = 0; k < total; k++)
            s[k] = (short)k;
        MPI_Iscatterv(s, counts, displs, MPI_SHORT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, last, MPI_COMM_WORLD, &r[0]);
    } else {
        MPI_Iscatterv(NULL, NULL, NULL, MPI_DATATYPE_NULL, got, me + 1, MPI_SHORT, last, MPI_COMM_WORLD, &r[0]);
    }
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    if (me != last)
        mt_check(got[me] == displs[me] + me, "iscatterv %d", got[me]);

    /* iallgather in place + iallgatherv */
    for (int k = 0; k < 2 * n; k++)
        d[k] = k / 2 == me ? k : -1;
    for (int k = 0; k <= me; k++)
        a[k] = 100 * me + k;
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, 2, MPI_DOUBLE, MPI_COMM_WORLD, &r[0]);
    MPI_Iallgatherv(a, me + 1, MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    for (int j = 0; j < n; j++) {
        mt_check(d[2 * j + 1] == 2 * j + 1, "iallgather from %d: %g", j, d[2 * j + 1]);
        mt_check(b[displs[j] + j] == 101 * j, "iallgatherv from %d: %d", j, b[displs[j] + j]);
    }
    sum += b[total - 1];

    /* ialltoall */
    for (int j = 0; j < n; j++) {
        a[2 * j] = 1000 * me + j;
        a[2 * j + 1] = -j;
    }
    MPI_Ialltoall(a, 2, MPI_INT, b, 2, MPI_INT, MPI_COMM_WORLD, &r[0]);
    until_complete(r[0]);
    MPI_Testall(1, r, &flag, MPI_STATUSES_IGNORE);
    mt_check(flag, "testall of a finished ialltoall");
    for (int j = 0; j < n; j++)
        mt_check(b[2 * j] == 1000 * j + me, "ialltoall from %d: %d", j, b[2 * j]);
    sum += b[0];

    /* ialltoallv */
    for (int j = 0; j < n; j++)
        for (int k = 0; k <= j; k++)
            a[displs[j] + k] = 1000 * me + j;
    MPI_Ialltoallv(a, counts, displs, MPI_INT, b, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD, &r[0]);
    MPI_Waitany(1, r, &index, MPI_STATUS_IGNORE);
    mt_check(index == 0, "waitany index %d", index);
    for (int j = 0; j < n; j++)
        mt_check(b[rdispls[j] + me] == 1000 * j + me, "ialltoallv from %d: %d", j, b[rdispls[j] + me]);

    /* ialltoallw */
    {
        int *sc = malloc((size_t)n * sizeof *sc), *sd = malloc((size_t)n * sizeof *sd);
        int *rc = malloc((size_t)n * sizeof *rc);
        MPI_Datatype *st = malloc((size_t)n * sizeof *st), *rt = malloc((size_t)n * sizeof *rt);
        char *sb = calloc((size_t)n, 16), *rb = calloc((size_t)n, 16);
        for (int j = 0; j < n; j++) {
            sc[j] = j % 2 == 0 ? 1 : 2;
            st[j] = j % 2 == 0 ? MPI_INT : MPI_DOUBLE;
            sd[j] = 16 * j;
            rc[j] = me % 2 == 0 ? 1 : 2;
            rt[j] = me % 2 == 0 ? MPI_INT : MPI_DOUBLE;
            if (j % 2 == 0)
                *(int *)(sb + 16 * j) = 1000 * me + j;
            else
                ((double *)(sb + 16 * j))[1] = 1000 * me + j;
        }
        MPI_Ialltoallw(sb, sc, sd, st, rb, rc, sd, rt, MPI_COMM_WORLD, &r[0]);
        MPI_Waitsome(1, r, &outcount, indices, MPI_STATUSES_IGNORE);
        mt_check(outcount == 1, "waitsome outcount %d", outcount);
        for (int j = 0; j < n; j++) {
            const double v = me % 2 == 0 ? *(int *)(rb + 16 * j) : ((double *)(rb + 16 * j))[1];
            mt_check(v == 1000 * j + me, "ialltoallw from %d: %g", j, v);
        }
        free(sc);
        free(sd);
        free(rc);
        free(st);
        free(rt);
        free(sb);
        free(rb);
    }

    /* ireduce_scatter + ireduce_scatter_block in place */
    for (int k = 0; k < total; k++)
        a[k] = k;
    int *blk = malloc((size_t)(2 * n) * sizeof *blk);
    for (int k = 0; k < 2 * n; k++)
        blk[k] = k + me;
    MPI_Ireduce_scatter(a, b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
    MPI_Ireduce_scatter_block(MPI_IN_PLACE, blk, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    mt_check(b[me] == n * (displs[me] + me), "ireduce_scatter %d", b[me]);
    mt_check(blk[1] == 2 * me + 1 + n - 1, "ireduce_scatter_block %d", blk[1]);
    sum += b[0] + blk[1];
    free(blk);

    /* iscan, iexscan */
    int i3[3] = {me, 1, 2}, s3[3];
    MPI_Iscan(i3, s3, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
    until_complete(r[0]);
    MPI_Testany(1, r, &index, &flag, MPI_STATUS_IGNORE);
    mt_check(flag && index == 0, "testany of a finished iscan: %d %d", flag, index);
    mt_check(s3[0] == me * (me + 1) / 2, "iscan %d", s3[0]);
    double dx[2] = {me, 1}, ex[2] = {-1, -1};
    MPI_Iexscan(dx, ex, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r[0]);
    until_complete(r[0]);
    MPI_Testsome(1, r, &outcount, indices, MPI_STATUSES_IGNORE);
    mt_check(outcount == 1, "testsome of a finished iexscan: %d", outcount);
    if (me > 0)
        mt_check(ex[1] == me, "iexscan %g", ex[1]);
    sum += s3[0];

    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("coll_nonblocking: ranks=%d checksum=%ld\n", n, all);
    free(a);
    free(b);
    free(d);
    free(s);
    free(counts);
    free(displs);
    free(rcounts);
    free(rdispls);
    return mt_finish();
}
