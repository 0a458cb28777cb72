/*
 * Collectives on MPI_COMM_WORLD: MPI_Barrier, MPI_Bcast from rank 0 and from
 * the last rank, MPI_Reduce to two roots, MPI_Allreduce of doubles and ints.
 * Every rank reports count x type size as the bytes of a collective.
 */
#include <stdlib.h>

#include "mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int last = mt_size - 1;
    const long long n = mt_size;

    for (int i = 0; i < 3; i++)
        MPI_Barrier(MPI_COMM_WORLD);

    /* Bcast: 10 ints from rank 0, twice 1000 doubles from the last rank. */
    int ints[10];
    for (int k = 0; k < 10; k++)
        ints[k] = mt_rank == 0 ? 7 * k : -1;
    MPI_Bcast(ints, 10, MPI_INT, 0, MPI_COMM_WORLD);
    for (int k = 0; k < 10; k++)
        mt_check(ints[k] == 7 * k, "bcast int %d is %d", k, ints[k]);
    double *big = malloc(10000 * sizeof *big), *res = malloc(10000 * sizeof *res);
    for (int rep = 0; rep < 2; rep++) {
        for (int k = 0; k < 1000; k++)
            big[k] = mt_rank == last ? k + rep : -1.0;
        MPI_Bcast(big, 1000, MPI_DOUBLE, last, MPI_COMM_WORLD);
        int bad = 0;
        for (int k = 0; k < 1000; k++)
            bad += big[k] != k + rep;
        mt_check(bad == 0, "bcast from %d, rep %d: %d doubles differ", last, rep, bad);
    }

    /* Reduce: sum of 3 doubles to rank 0, max of 5 ints to the last rank. */
    double d3[3] = {mt_rank, 2.0 * mt_rank, 1.0}, r3[3] = {0};
    MPI_Reduce(d3, r3, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mt_rank == 0)
        mt_check(r3[0] == n * (n - 1) / 2 && r3[1] == n * (n - 1) && r3[2] == n, "reduce sum %g %g %g", r3[0],
                 r3[1], r3[2]);
    int i5[5], m5[5] = {0};
    for (int k = 0; k < 5; k++)
        i5[k] = (mt_rank * 31 + k * 17) % 11;
    MPI_Reduce(i5, m5, 5, MPI_INT, MPI_MAX, last, MPI_COMM_WORLD);
    if (mt_rank == last) {
        for (int k = 0; k < 5; k++) {
            int want = 0;
            for (int r = 0; r < mt_size; r++)
                want = (r * 31 + k * 17) % 11 > want ? (r * 31 + k * 17) % 11 : want;
            mt_check(m5[k] == want, "reduce max %d is %d, expected %d", k, m5[k], want);
        }
    }

    /* Allreduce: 4 times 1 double, once 7 ints, once 10000 doubles. */
    double one = 0;
    for (int i = 0; i < 4; i++) {
        double x = mt_rank + i;
        MPI_Allreduce(&x, &one, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        mt_check(one == n * (n - 1) / 2 + n * i, "allreduce %d: %g", i, one);
    }
    int i7[7], s7[7];
    for (int k = 0; k < 7; k++)
        i7[k] = mt_rank * k;
    MPI_Allreduce(i7, s7, 7, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int k = 0; k < 7; k++)
        mt_check(s7[k] == k * n * (n - 1) / 2, "allreduce int %d is %d", k, s7[k]);
    for (int k = 0; k < 10000; k++)
        big[k] = k % 3 + mt_rank;
    MPI_Allreduce(big, res, 10000, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    int bad = 0;
    for (int k = 0; k < 10000; k++)
        bad += res[k] != n * (k % 3) + n * (n - 1) / 2;
    mt_check(bad == 0, "allreduce of 10000 doubles: %d differ", bad);

    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("collectives: ranks=%d bcast=%d reduce=%g,%g,%g allreduce=%g,%d,%g\n", mt_size, ints[9], r3[0], r3[1],
               r3[2], one, s7[6], res[9999]);
    free(big);
    free(res);
    return mt_finish();
}
