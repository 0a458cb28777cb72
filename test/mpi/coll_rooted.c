/*
 * Rooted collectives on MPI_COMM_WORLD, to rank 0 and to the last rank:
 * MPI_Gather, MPI_Gatherv, MPI_Scatter, MPI_Scatterv, each once plainly and
 * once with MPI_IN_PLACE at the root, and MPI_Reduce in place. Arguments
 * that MPI ignores are passed as 0, MPI_DATATYPE_NULL or NULL, so the bytes
 * must come from the significant ones:
 *   gather   2 ints per rank
 *   gatherv  rank + 1 ints from each rank
 *   scatter  3 doubles per rank
 *   scatterv rank + 1 shorts to each rank
 *   reduce   4 ints
 */
#include <stdlib.h>

#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int n = mt_size, me = mt_rank;
    int *ibuf = calloc((size_t)(2 * n * (n + 1)), sizeof *ibuf);
    double *dbuf = calloc((size_t)(3 * n), sizeof *dbuf);
    short *sbuf = calloc((size_t)(n * (n + 1)), sizeof *sbuf);
    int *counts = malloc((size_t)n * sizeof *counts), *displs = malloc((size_t)n * sizeof *displs);
    for (int r = 0, d = 0; r < n; r++) {
        counts[r] = r + 1;
        displs[r] = d;
        d += r + 1;
    }
    const int total = n * (n + 1) / 2;
    long sum = 0;

    for (int pass = 0; pass < 2; pass++) {
        const int root = pass == 0 ? 0 : n - 1, is_root = me == root;

        /* gather: plain, then in place. */
        int mine[2] = {me, 10 * me};
        MPI_Gather(mine, 2, MPI_INT, ibuf, 2, MPI_INT, root, MPI_COMM_WORLD);
        if (is_root)
            for (int r = 0; r < n; r++)
                mt_check(ibuf[2 * r + 1] == 10 * r, "gather from %d: %d", r, ibuf[2 * r + 1]);
        if (is_root) {
            for (int r = 0; r < 2 * n; r++)
                ibuf[r] = -1;
            ibuf[2 * me] = me;
            ibuf[2 * me + 1] = 10 * me;
            MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ibuf, 2, MPI_INT, root, MPI_COMM_WORLD);
            for (int r = 0; r < n; r++)
                mt_check(ibuf[2 * r + 1] == 10 * r, "in-place gather from %d: %d", r, ibuf[2 * r + 1]);
            sum += ibuf[2 * n - 1];
        } else {
            MPI_Gather(mine, 2, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
        }

        /* gatherv: rank r sends r + 1 ints. */
        int *part = malloc((size_t)(me + 1) * sizeof *part);
        for (int k = 0; k <= me; k++)
            part[k] = 100 * me + k;
        if (is_root) {
            MPI_Gatherv(part, me + 1, MPI_INT, ibuf, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
            for (int r = 0; r < n; r++)
                mt_check(ibuf[displs[r] + r] == 100 * r + r, "gatherv from %d: %d", r, ibuf[displs[r] + r]);
            for (int k = 0; k < total; k++)
                ibuf[k] = -1;
            for (int k = 0; k <= me; k++)
                ibuf[displs[me] + k] = 100 * me + k;
            MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ibuf, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
            for (int r = 0; r < n; r++)
                mt_check(ibuf[displs[r] + r] == 100 * r + r, "in-place gatherv from %d: %d", r,
                         ibuf[displs[r] + r]);
            sum += ibuf[total - 1];
        } else {
            MPI_Gatherv(part, me + 1, MPI_INT, NULL, NULL, NULL, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
            MPI_Gatherv(part, me + 1, MPI_INT, NULL, NULL, NULL, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
        }
        free(part);

        /* scatter: 3 doubles to each rank. */
        double got[3] = {0};
        if (is_root) {
            for (int k = 0; k < 3 * n; k++)
                dbuf[k] = k + pass;
            MPI_Scatter(dbuf, 3, MPI_DOUBLE, got, 3, MPI_DOUBLE, root, MPI_COMM_WORLD);
            MPI_Scatter(dbuf, 3, MPI_DOUBLE, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
        } else {
            MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, got, 3, MPI_DOUBLE, root, MPI_COMM_WORLD);
            mt_check(got[2] == 3 * me + 2 + pass, "scatter: %g", got[2]);
            got[2] = -1;
            MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, got, 3, MPI_DOUBLE, root, MPI_COMM_WORLD);
        }
        mt_check(got[2] == 3 * me + 2 + pass, "scatter: %g", got[2]);
        sum += (long)got[2];

        /* scatterv: r + 1 shorts to rank r. */
        short sgot[64] = {0};
        const int mine_n = me + 1 < 64 ? me + 1 : 64;
        if (is_root) {
            for (int k = 0; k < total; k++)
                sbuf[k] = (short)(k + pass);
            MPI_Scatterv(sbuf, counts, displs, MPI_SHORT, sgot, mine_n, MPI_SHORT, root, MPI_COMM_WORLD);
            MPI_Scatterv(sbuf, counts, displs, MPI_SHORT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
        } else {
            for (int i = 0; i < 2; i++) {
                MPI_Scatterv(NULL, NULL, NULL, MPI_DATATYPE_NULL, sgot, mine_n, MPI_SHORT, root, MPI_COMM_WORLD);
                mt_check(sgot[me] == displs[me] + me + pass, "scatterv: %d", sgot[me]);
            }
        }
        sum += sgot[0];

        /* reduce: 4 ints, in place at the root. */
        int vals[4] = {me, 1, 2, 3}, res[4] = {0};
        if (is_root) {
            MPI_Reduce(MPI_IN_PLACE, vals, 4, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
            mt_check(vals[0] == n * (n - 1) / 2 && vals[3] == 3 * n, "in-place reduce %d %d", vals[0], vals[3]);
            sum += vals[0];
        } else {
            MPI_Reduce(vals, res, 4, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        }
    }

    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("coll_rooted: ranks=%d checksum=%ld\n", n, all);
    free(ibuf);
    free(dbuf);
    free(sbuf);
    free(counts);
    free(displs);
    return mt_finish();
}
