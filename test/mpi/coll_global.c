/*
 * Unrooted collectives on MPI_COMM_WORLD, each plainly and with MPI_IN_PLACE
 * (ignored send arguments passed as 0 or MPI_DATATYPE_NULL):
 *   allgather             2 doubles per rank
 *   allgatherv            rank + 1 ints from each rank
 *   alltoall              2 ints to each rank
 *   alltoallv             j + 1 ints to rank j (so rank + 1 from each);
 *                         in place rank + j + 1 ints with rank j
 *   alltoallw             1 int to even ranks, 2 doubles to odd ranks; in
 *                         place 1 int with rank j when rank + j is even,
 *                         else 2 doubles
 *   reduce_scatter        j + 1 ints to rank j
 *   reduce_scatter_block  2 ints to each rank
 *   scan                  3 ints;  exscan 2 doubles
 *   allreduce             5 ints
 */
#include <stdlib.h>

#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int n = mt_size, me = mt_rank;
    const int total = n * (n + 1) / 2;
    double *d = calloc((size_t)(2 * n), sizeof *d);
    int *a = calloc((size_t)(2 * n * (n + 1)), sizeof *a), *b = calloc((size_t)(2 * n * (n + 1)), sizeof *b);
    int *counts = malloc((size_t)n * sizeof *counts), *displs = malloc((size_t)n * sizeof *displs);
    int *rcounts = malloc((size_t)n * sizeof *rcounts), *rdispls = malloc((size_t)n * sizeof *rdispls);
    for (int r = 0, off = 0; r < n; r++) {
        counts[r] = r + 1;
        displs[r] = off;
        off += r + 1;
        rcounts[r] = me + 1;
        rdispls[r] = r * (me + 1);
    }
    long sum = 0;

    /* allgather */
    double two[2] = {me, 0.5 * me};
    MPI_Allgather(two, 2, MPI_DOUBLE, d, 2, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int r = 0; r < n; r++)
        mt_check(d[2 * r + 1] == 0.5 * r, "allgather from %d: %g", r, d[2 * r + 1]);
    for (int k = 0; k < 2 * n; k++)
        d[k] = k / 2 == me ? d[k] : -1;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, 2, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int r = 0; r < n; r++)
        mt_check(d[2 * r + 1] == 0.5 * r, "in-place allgather from %d: %g", r, d[2 * r + 1]);
    sum += (long)d[2 * n - 2];

    /* allgatherv */
    int *part = malloc((size_t)(me + 1) * sizeof *part);
    for (int k = 0; k <= me; k++)
        part[k] = 100 * me + k;
    MPI_Allgatherv(part, me + 1, MPI_INT, a, counts, displs, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < n; r++)
        mt_check(a[displs[r] + r] == 101 * r, "allgatherv from %d: %d", r, a[displs[r] + r]);
    for (int k = 0; k < total; k++)
        a[k] = k >= displs[me] && k < displs[me] + me + 1 ? a[k] : -1;
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, counts, displs, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < n; r++)
        mt_check(a[displs[r] + r] == 101 * r, "in-place allgatherv from %d: %d", r, a[displs[r] + r]);
    sum += a[total - 1];
    free(part);

    /* alltoall: element k of block j is 1000 * me + 10 * j + k. */
    for (int j = 0; j < n; j++)
        for (int k = 0; k < 2; k++)
            a[2 * j + k] = 1000 * me + 10 * j + k;
    MPI_Alltoall(a, 2, MPI_INT, b, 2, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < n; j++)
        mt_check(b[2 * j + 1] == 1000 * j + 10 * me + 1, "alltoall from %d: %d", j, b[2 * j + 1]);
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, 2, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < n; j++)
        mt_check(a[2 * j + 1] == 1000 * j + 10 * me + 1, "in-place alltoall from %d: %d", j, a[2 * j + 1]);
    sum += a[1];

    /* alltoallv: j + 1 ints to rank j; me + 1 from each rank. */
    for (int j = 0; j < n; j++)
        for (int k = 0; k <= j; k++)
            a[displs[j] + k] = 1000 * me + 10 * j + k;
    MPI_Alltoallv(a, counts, displs, MPI_INT, b, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < n; j++)
        mt_check(b[rdispls[j] + me] == 1000 * j + 10 * me + me, "alltoallv from %d: %d", j, b[rdispls[j] + me]);
    /* in place: me + j + 1 ints with rank j, both ways. */
    for (int j = 0, off = 0; j < n; j++) {
        rcounts[j] = me + j + 1;
        rdispls[j] = off;
        off += me + j + 1;
        for (int k = 0; k <= me + j; k++)
            b[rdispls[j] + k] = 1000 * me + j;
    }
    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, b, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < n; j++)
        mt_check(b[rdispls[j] + me + j] == 1000 * j + me, "in-place alltoallv from %d: %d", j, b[rdispls[j]]);
    sum += b[rdispls[n - 1]];

    /* alltoallw: to an even rank 1 int, to an odd rank 2 doubles. */
    {
        int *sc = malloc((size_t)n * sizeof *sc), *sd = malloc((size_t)n * sizeof *sd);
        int *rc = malloc((size_t)n * sizeof *rc), *rd = malloc((size_t)n * sizeof *rd);
        MPI_Datatype *st = malloc((size_t)n * sizeof *st), *rt = malloc((size_t)n * sizeof *rt);
        char *sb = calloc((size_t)n, 16), *rb = calloc((size_t)n, 16);
        for (int j = 0; j < n; j++) {
            sc[j] = j % 2 == 0 ? 1 : 2;
            st[j] = j % 2 == 0 ? MPI_INT : MPI_DOUBLE;
            sd[j] = rd[j] = 16 * j;
            rc[j] = me % 2 == 0 ? 1 : 2;
            rt[j] = me % 2 == 0 ? MPI_INT : MPI_DOUBLE;
            if (j % 2 == 0)
                *(int *)(sb + 16 * j) = 1000 * me + j;
            else
                ((double *)(sb + 16 * j))[1] = 1000 * me + j;
        }
        MPI_Alltoallw(sb, sc, sd, st, rb, rc, rd, rt, MPI_COMM_WORLD);
        for (int j = 0; j < n; j++) {
            const double v = me % 2 == 0 ? *(int *)(rb + 16 * j) : ((double *)(rb + 16 * j))[1];
            mt_check(v == 1000 * j + me, "alltoallw from %d: %g", j, v);
        }
        /* in place: 1 int with rank j when me + j is even, else 2 doubles. */
        for (int j = 0; j < n; j++) {
            rc[j] = (me + j) % 2 == 0 ? 1 : 2;
            rt[j] = (me + j) % 2 == 0 ? MPI_INT : MPI_DOUBLE;
            if ((me + j) % 2 == 0)
                *(int *)(rb + 16 * j) = 1000 * me + j;
            else
                ((double *)(rb + 16 * j))[1] = 1000 * me + j;
        }
        MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, rb, rc, rd, rt, MPI_COMM_WORLD);
        for (int j = 0; j < n; j++) {
            const double v = (me + j) % 2 == 0 ? *(int *)(rb + 16 * j) : ((double *)(rb + 16 * j))[1];
            mt_check(v == 1000 * j + me, "in-place alltoallw from %d: %g", j, v);
        }
        sum += me % 2 == 0 ? *(int *)rb : (long)((double *)rb)[1];
        free(sc);
        free(sd);
        free(rc);
        free(rd);
        free(st);
        free(rt);
        free(sb);
        free(rb);
    }

    /* reduce_scatter: rank j gets j + 1 sums; element k of the input is k. */
    for (int k = 0; k < total; k++)
        a[k] = k;
    MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mt_check(b[me] == n * (displs[me] + me), "reduce_scatter: %d", b[me]);
    MPI_Reduce_scatter(MPI_IN_PLACE, a, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mt_check(a[me] == n * (displs[me] + me), "in-place reduce_scatter: %d", a[me]);
    sum += a[0];

    /* reduce_scatter_block: 2 ints to each rank. */
    for (int k = 0; k < 2 * n; k++)
        a[k] = k + me;
    MPI_Reduce_scatter_block(a, b, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    mt_check(b[1] == 2 * me + 1 + n - 1, "reduce_scatter_block: %d", b[1]);
    MPI_Reduce_scatter_block(MPI_IN_PLACE, a, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    mt_check(a[1] == 2 * me + 1 + n - 1, "in-place reduce_scatter_block: %d", a[1]);
    sum += a[1];

    /* scan and exscan. */
    int three[3] = {me, 1, 2}, s3[3];
    MPI_Scan(three, s3, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mt_check(s3[0] == me * (me + 1) / 2 && s3[1] == me + 1, "scan %d %d", s3[0], s3[1]);
    MPI_Scan(MPI_IN_PLACE, three, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mt_check(three[0] == me * (me + 1) / 2, "in-place scan %d", three[0]);
    double dx[2] = {me, 1}, ex[2] = {-1, -1};
    MPI_Exscan(dx, ex, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (me > 0)
        mt_check(ex[0] == me * (me - 1) / 2 && ex[1] == me, "exscan %g %g", ex[0], ex[1]);
    MPI_Exscan(MPI_IN_PLACE, dx, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (me > 0)
        mt_check(dx[1] == me, "in-place exscan %g", dx[1]);
    sum += s3[0] + three[0];

    /* allreduce in place. */
    int five[5] = {me, me, me, me, 1};
    MPI_Allreduce(MPI_IN_PLACE, five, 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mt_check(five[4] == n && five[0] == n * (n - 1) / 2, "in-place allreduce %d %d", five[0], five[4]);

    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("coll_global: ranks=%d checksum=%ld\n", n, all);
    free(d);
    free(a);
    free(b);
    free(counts);
    free(displs);
    free(rcounts);
    free(rdispls);
    return mt_finish();
}
