/*
 * MPI 4.0 persistent collectives (MPICH 4.0; Open MPI 4.1 has none): the
 * MPI_<collective>_init calls on MPI_COMM_WORLD and (the neighbourhood ones)
 * on a one-dimensional non-periodic cart. ITERS times: MPI_Start + MPI_Wait
 * of the allreduce and of the allgather, MPI_Startall + MPI_Waitall of the
 * other world ones, then of the cart ones; then the allreduce once more,
 * completed by MPI_Waitsome, and once by MPI_Testsome; finally
 * MPI_Request_free of each.
 *
 * MPICH 4.0.2 itself (without the tool) gets MPI_Allgather_init wrong: its
 * results go stale after the first start, and it breaks other persistent
 * collectives active with it; so it runs on its own and its data are not
 * checked. Its MPI_Scatter_init delivers stale data with 2 ranks and fails
 * with 3 or more ("Invalid communicator" in MPI_Wait), so it is created and
 * freed without being started.
 *
 * The arguments:
 *   barrier; bcast 2 ints from 0; reduce 3 doubles to the last rank;
 *   allreduce 4 ints; gather 1 int to 0; gatherv rank + 1 ints to the last
 *   rank; scatterv j + 1 ints to rank j from the last rank; allgather 1
 *   double; allgatherv rank + 1 ints; alltoall 1 int;
 *   alltoallv j + 1 ints to rank j; alltoallw 1 int; reduce_scatter j + 1
 *   ints to rank j; reduce_scatter_block 1 int; scan 2 ints; exscan 1
 *   double; neighbour allgather 1 int, allgatherv rank + 1 ints, alltoall 1
 *   int, alltoallv 1 int left and 2 right, alltoallw 1 int left and 1 double
 *   right.
 */
#include <stdlib.h>

#include "mpitest.h"

enum { ITERS = 3, NWORLD = 14, NCART = 5 };

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int n = mt_size, me = mt_rank, last = n - 1;
    long sum = 0;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info inf = MPI_INFO_NULL;

    int *counts = malloc((size_t)n * sizeof *counts), *displs = malloc((size_t)n * sizeof *displs);
    int *rcounts = malloc((size_t)n * sizeof *rcounts), *rdispls = malloc((size_t)n * sizeof *rdispls);
    int *ones = malloc((size_t)n * sizeof *ones), *idx = malloc((size_t)n * sizeof *idx);
    int *wdispls = malloc((size_t)n * sizeof *wdispls);
    MPI_Datatype *types = malloc((size_t)n * sizeof *types);
    for (int j = 0, off = 0; j < n; j++) {
        counts[j] = j + 1;
        displs[j] = off;
        off += j + 1;
        rcounts[j] = me + 1;
        rdispls[j] = j * (me + 1);
        ones[j] = 1;
        idx[j] = j;
        wdispls[j] = j * (int)sizeof(int);
        types[j] = MPI_INT;
    }
    /* Separate buffers for every operation: they run at the same time. */
    int bc[2], gath[64], gv_in[64], gv_out[8], scv_in[64], scv_out[8];
    int agv_in[64], agv_out[8], a2a_out[8], a2a_in[8], a2av_out[64], a2av_in[64], a2aw_out[8], a2aw_in[8];
    int rs_in[64], rs_out[8], rsb_in[8], rsb_out[1], scan_in[2], scan_out[2], ar_in[4], ar_out[4], g_out[1];
    double red_in[3], red_out[3], ag_out[1], ag_in[8], ex_in[1], ex_out[1];
    for (int k = 0; k < 64; k++) {
        scv_in[k] = rs_in[k] = a2av_out[k] = k;
    }
    for (int k = 0; k < 8; k++) {
        gv_out[k] = agv_out[k] = 10 * me + k;
        a2a_out[k] = a2aw_out[k] = rsb_in[k] = 100 * me + k;
    }
    g_out[0] = me;

    MPI_Request reqs[NWORLD], ar, ag, sc, nreqs[NCART];
    int sc_in[16] = {0}, sc_out[2];
    MPI_Scatter_init(sc_in, 2, MPI_INT, sc_out, 2, MPI_INT, 0, w, inf, &sc);
    MPI_Request_free(&sc);
    MPI_Allreduce_init(ar_in, ar_out, 4, MPI_INT, MPI_SUM, w, inf, &ar);
    MPI_Allgather_init(ag_out, 1, MPI_DOUBLE, ag_in, 1, MPI_DOUBLE, w, inf, &ag);
    MPI_Barrier_init(w, inf, &reqs[0]);
    MPI_Bcast_init(bc, 2, MPI_INT, 0, w, inf, &reqs[1]);
    MPI_Reduce_init(red_in, red_out, 3, MPI_DOUBLE, MPI_SUM, last, w, inf, &reqs[2]);
    MPI_Gather_init(g_out, 1, MPI_INT, gath, 1, MPI_INT, 0, w, inf, &reqs[3]);
    MPI_Gatherv_init(gv_out, me + 1, MPI_INT, gv_in, counts, displs, MPI_INT, last, w, inf, &reqs[4]);
    MPI_Scatterv_init(scv_in, counts, displs, MPI_INT, scv_out, me + 1, MPI_INT, last, w, inf, &reqs[5]);
    MPI_Allgatherv_init(agv_out, me + 1, MPI_INT, agv_in, counts, displs, MPI_INT, w, inf, &reqs[6]);
    MPI_Alltoall_init(a2a_out, 1, MPI_INT, a2a_in, 1, MPI_INT, w, inf, &reqs[7]);
    MPI_Alltoallv_init(a2av_out, counts, displs, MPI_INT, a2av_in, rcounts, rdispls, MPI_INT, w, inf, &reqs[8]);
    MPI_Alltoallw_init(a2aw_out, ones, wdispls, types, a2aw_in, ones, wdispls, types, w, inf, &reqs[9]);
    MPI_Reduce_scatter_init(rs_in, rs_out, counts, MPI_INT, MPI_SUM, w, inf, &reqs[10]);
    MPI_Reduce_scatter_block_init(rsb_in, rsb_out, 1, MPI_INT, MPI_SUM, w, inf, &reqs[11]);
    MPI_Scan_init(scan_in, scan_out, 2, MPI_INT, MPI_SUM, w, inf, &reqs[12]);
    MPI_Exscan_init(ex_in, ex_out, 1, MPI_DOUBLE, MPI_SUM, w, inf, &reqs[13]);

    MPI_Comm cart;
    const int dims[1] = {n}, periods[1] = {0};
    MPI_Cart_create(w, 1, dims, periods, 0, &cart);
    const int has_left = me > 0, has_right = me < n - 1;
    int nb_out[8], nag_in[2], nagv_in[32], na2a_out[2], na2a_in[2], na2av_in[8];
    for (int k = 0; k < 8; k++)
        nb_out[k] = 10 * me + k;
    na2a_out[0] = -me;
    na2a_out[1] = me;
    const int nrc[2] = {has_left ? me : 0, has_right ? me + 2 : 0}, nrd[2] = {0, 16};
    const int nsc[2] = {1, 2}, nsd[2] = {0, 4}, nrc2[2] = {2, 1}, nrd2[2] = {0, 4};
    const int wc[2] = {1, 1};
    const MPI_Aint wsd[2] = {0, 8}, wrd[2] = {0, 8};
    const MPI_Datatype wst[2] = {MPI_INT, MPI_DOUBLE}, wrt[2] = {MPI_DOUBLE, MPI_INT};
    double nw_out[2] = {0, 0.5 * me}, nw_in[2] = {0, 0};
    MPI_Neighbor_allgather_init(nb_out, 1, MPI_INT, nag_in, 1, MPI_INT, cart, inf, &nreqs[0]);
    MPI_Neighbor_allgatherv_init(nb_out, me + 1, MPI_INT, nagv_in, nrc, nrd, MPI_INT, cart, inf, &nreqs[1]);
    MPI_Neighbor_alltoall_init(na2a_out, 1, MPI_INT, na2a_in, 1, MPI_INT, cart, inf, &nreqs[2]);
    MPI_Neighbor_alltoallv_init(nb_out, nsc, nsd, MPI_INT, na2av_in, nrc2, nrd2, MPI_INT, cart, inf, &nreqs[3]);
    MPI_Neighbor_alltoallw_init(nw_out, wc, wsd, wst, nw_in, wc, wrd, wrt, cart, inf, &nreqs[4]);

    for (int it = 0; it < ITERS; it++) {
        for (int k = 0; k < 4; k++)
            ar_in[k] = me + it;
        MPI_Start(&ar);
        MPI_Wait(&ar, MPI_STATUS_IGNORE);
        mt_check(ar_out[3] == n * (n - 1) / 2 + n * it, "allreduce_init iteration %d: %d", it, ar_out[3]);
        ag_out[0] = me + it;
        MPI_Start(&ag);
        MPI_Wait(&ag, MPI_STATUS_IGNORE);

        bc[0] = me == 0 ? it : -1;
        bc[1] = 7;
        red_in[0] = me;
        red_in[1] = red_in[2] = it;
        scan_in[0] = me;
        scan_in[1] = it;
        ex_in[0] = 1;
        MPI_Startall(NWORLD, reqs);
        MPI_Waitall(NWORLD, reqs, MPI_STATUSES_IGNORE);
        mt_check(bc[0] == it, "bcast_init iteration %d: %d", it, bc[0]);
        if (me == last)
            mt_check(red_out[1] == n * it, "reduce_init iteration %d: %g", it, red_out[1]);
        if (me == 0)
            mt_check(gath[n - 1] == n - 1, "gather_init %d", gath[n - 1]);
        mt_check(scv_out[me] == displs[me] + me, "scatterv_init %d", scv_out[me]);
        mt_check(agv_in[displs[n - 1]] == 10 * (n - 1), "allgatherv_init %d", agv_in[displs[n - 1]]);
        mt_check(a2a_in[n - 1] == 100 * (n - 1) + me, "alltoall_init %d", a2a_in[n - 1]);
        mt_check(a2aw_in[0] == me, "alltoallw_init %d", a2aw_in[0]);
        mt_check(rs_out[0] == n * displs[me], "reduce_scatter_init %d", rs_out[0]);
        mt_check(rsb_out[0] == 100 * n * (n - 1) / 2 + n * me, "reduce_scatter_block_init %d", rsb_out[0]);
        mt_check(scan_out[1] == (me + 1) * it, "scan_init %d", scan_out[1]);
        if (me > 0)
            mt_check(ex_out[0] == me, "exscan_init %g", ex_out[0]);
        sum += bc[0] + scan_out[0];

        MPI_Startall(NCART, nreqs);
        MPI_Waitall(NCART, nreqs, MPI_STATUSES_IGNORE);
        if (has_right) {
            mt_check(nag_in[1] == 10 * (me + 1), "neighbor_allgather_init %d", nag_in[1]);
            mt_check(nagv_in[16 + me + 1] == 10 * (me + 1) + me + 1, "neighbor_allgatherv_init %d",
                     nagv_in[16 + me + 1]);
            mt_check(na2a_in[1] == -(me + 1), "neighbor_alltoall_init %d", na2a_in[1]);
            mt_check(na2av_in[4] == 10 * (me + 1), "neighbor_alltoallv_init %d", na2av_in[4]);
            sum += na2a_in[1];
        }
        if (has_left)
            mt_check(nw_in[0] == 0.5 * (me - 1), "neighbor_alltoallw_init %g", nw_in[0]);
    }

    /* The allreduce once more, completed by MPI_Waitsome, then by
     * MPI_Testsome once it is done. */
    int outcount = 0, done_at[1];
    for (int k = 0; k < 4; k++)
        ar_in[k] = 1;
    MPI_Start(&ar);
    MPI_Waitsome(1, &ar, &outcount, done_at, MPI_STATUSES_IGNORE);
    mt_check(outcount == 1 && ar_out[0] == n, "allreduce_init by waitsome: %d %d", outcount, ar_out[0]);
    MPI_Start(&ar);
    for (int flag = 0; !flag;)
        MPI_Request_get_status(ar, &flag, MPI_STATUS_IGNORE);
    MPI_Testsome(1, &ar, &outcount, done_at, MPI_STATUSES_IGNORE);
    mt_check(outcount == 1 && ar_out[0] == n, "allreduce_init by testsome: %d %d", outcount, ar_out[0]);

    MPI_Request_free(&ar);
    MPI_Request_free(&ag);
    for (int i = 0; i < NWORLD; i++)
        MPI_Request_free(&reqs[i]);
    for (int i = 0; i < NCART; i++)
        MPI_Request_free(&nreqs[i]);
    MPI_Comm_free(&cart);

    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("mpi4_persistent_coll: ranks=%d checksum=%ld\n", n, all);
    free(counts);
    free(displs);
    free(rcounts);
    free(rdispls);
    free(ones);
    free(idx);
    free(wdispls);
    free(types);
    return mt_finish();
}
