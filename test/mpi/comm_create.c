/*
 * Communicator creation, calls on the new communicators, and MPI_Comm_free.
 * The expectation names each communicator with a symbol, so the check
 * asserts that its id is the same on all members and differs from every
 * other communicator's:
 *   dup, dupinfo, idup     MPI_Comm_dup, MPI_Comm_dup_with_info,
 *                          MPI_Comm_idup (+ MPI_Wait) of MPI_COMM_WORLD
 *   split:C                MPI_Comm_split with color rank % 3, key -rank;
 *                          with 4 ranks or more the last rank passes
 *                          MPI_UNDEFINED; then a ring MPI_Sendrecv (peers are
 *                          ranks of split:C), MPI_Bcast and MPI_Allreduce
 *   dupsplit:C             MPI_Comm_dup of split:C
 *   shared                 MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)
 *   even                   MPI_Comm_create from the even ranks' group
 *   odd                    MPI_Comm_create_group (tag 7), odd ranks only
 *   cart2d, row:R, col:C   MPI_Cart_create of a D0 x D1 grid and MPI_Cart_sub
 *                          keeping either dimension
 */
#include <stdlib.h>

#include "mpitest.h"

static int color_of(int rank, int size)
{
    return size >= 4 && rank == size - 1 ? MPI_UNDEFINED : rank % 3;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int n = mt_size, me = mt_rank;
    long sum = 0;
    int x;

    /* duplicates */
    MPI_Comm dup, dupinfo, idup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Barrier(dup);
    x = me;
    int y = 0;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, dup);
    mt_check(y == n * (n - 1) / 2, "allreduce on dup: %d", y);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dupinfo);
    MPI_Info_free(&info);
    MPI_Barrier(dupinfo);
    MPI_Request req;
    MPI_Comm_idup(MPI_COMM_WORLD, &idup, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Barrier(idup);

    /* split */
    const int color = color_of(me, n);
    MPI_Comm split, dupsplit = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, color, -me, &split);
    if (color == MPI_UNDEFINED) {
        mt_check(split == MPI_COMM_NULL, "split with MPI_UNDEFINED gave a communicator");
    } else {
        int sr, ss;
        MPI_Comm_rank(split, &sr);
        MPI_Comm_size(split, &ss);
        int out = me, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, (sr + 1) % ss, 3, &in, 1, MPI_INT, (sr + ss - 1) % ss, 3, split,
                     MPI_STATUS_IGNORE);
        double top = sr == 0 ? me : -1;
        MPI_Bcast(&top, 1, MPI_DOUBLE, 0, split);
        int members = 0, one = 1;
        MPI_Allreduce(&one, &members, 1, MPI_INT, MPI_SUM, split);
        mt_check(members == ss, "allreduce on split: %d of %d", members, ss);
        /* key -rank: split rank 0 is the highest world rank of the color. */
        int highest = color;
        while (highest + 3 < n && color_of(highest + 3, n) == color)
            highest += 3;
        mt_check(top == highest, "split rank 0 is world rank %g, expected %d", top, highest);
        sum += in + (long)top;
        MPI_Comm_dup(split, &dupsplit);
        MPI_Barrier(dupsplit);
    }

    /* split_type */
    MPI_Comm shared;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &shared);
    MPI_Barrier(shared);

    /* create and create_group */
    MPI_Group world_group, evens, odds;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int *ranks = malloc((size_t)n * sizeof *ranks), ne = 0, no = 0;
    for (int r = 0; r < n; r += 2)
        ranks[ne++] = r;
    MPI_Group_incl(world_group, ne, ranks, &evens);
    for (int r = 1; r < n; r += 2)
        ranks[no++] = r;
    MPI_Group_incl(world_group, no, ranks, &odds);
    free(ranks);
    MPI_Comm even, odd = MPI_COMM_NULL;
    MPI_Comm_create(MPI_COMM_WORLD, evens, &even);
    mt_check((even != MPI_COMM_NULL) == (me % 2 == 0), "comm_create membership");
    if (even != MPI_COMM_NULL) {
        int s = 0;
        x = me;
        MPI_Allreduce(&x, &s, 1, MPI_INT, MPI_MAX, even);
        sum += s;
    }
    if (me % 2 == 1) {
        MPI_Comm_create_group(MPI_COMM_WORLD, odds, 7, &odd);
        MPI_Barrier(odd);
    }
    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&world_group);

    /* cartesian grid and its rows and columns */
    const int d0 = n % 2 == 0 ? 2 : 1, d1 = n / d0;
    const int dims[2] = {d0, d1}, periods[2] = {0, 0};
    MPI_Comm cart, row, col;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    const int keep_row[2] = {0, 1}, keep_col[2] = {1, 0};
    MPI_Cart_sub(cart, keep_row, &row);
    MPI_Cart_sub(cart, keep_col, &col);
    int rsize, csize, one = 1;
    MPI_Allreduce(&one, &rsize, 1, MPI_INT, MPI_SUM, row);
    MPI_Allreduce(&one, &csize, 1, MPI_INT, MPI_SUM, col);
    mt_check(rsize == d1 && csize == d0, "row %d, column %d", rsize, csize);
    MPI_Barrier(cart);

    /* free them all */
    MPI_Comm_free(&dup);
    MPI_Comm_free(&dupinfo);
    MPI_Comm_free(&idup);
    if (split != MPI_COMM_NULL) {
        MPI_Comm_free(&dupsplit);
        MPI_Comm_free(&split);
    }
    MPI_Comm_free(&shared);
    if (even != MPI_COMM_NULL)
        MPI_Comm_free(&even);
    if (odd != MPI_COMM_NULL)
        MPI_Comm_free(&odd);
    MPI_Comm_free(&row);
    MPI_Comm_free(&col);
    MPI_Comm_free(&cart);

    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("comm_create: ranks=%d checksum=%ld\n", n, all);
    return mt_finish();
}
