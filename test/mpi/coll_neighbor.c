/*
 * Neighborhood collectives on three topologies of all ranks (no reordering):
 *   cart   a line (not periodic, so that no rank is a neighbour twice):
 *          neighbours left (index 0) and right (index 1), MPI_PROC_NULL at
 *          the ends; the out-degree is 2 on every rank (2 per
 *          dimension, MPI_PROC_NULL neighbours included);
 *   dist   MPI_Dist_graph_create_adjacent: rank r sends to r + 1, and also
 *          to r + 2 when r is even (out-degree 1 or 2);
 *   dist2  the same graph from MPI_Dist_graph_create, each rank giving its
 *          own out-edges;
 *   graph  MPI_Graph_create of the ring without repeated neighbours
 *          (degree 1 with up to 2 ranks, else 2).
 * On the cart: every blocking and nonblocking neighbour collective; on the
 * others: allgather and alltoall (blocking, and nonblocking on dist; only
 * alltoall on dist2).
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

enum { MAXDEG = 2 };

static int get_int(const char *p)
{
    int v;
    memcpy(&v, p, sizeof v);
    return v;
}

static double get_double(const char *p)
{
    double v;
    memcpy(&v, p, sizeof v);
    return v;
}

static void check_block(const int *buf, int from, int k, const char *what)
{
    mt_check(buf[k] == 100 * from + k, "%s: from %d element %d is %d", what, from, k, buf[k]);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int n = mt_size, me = mt_rank;
    const int has_left = me > 0, has_right = me < n - 1;
    const int left = has_left ? me - 1 : MPI_PROC_NULL, right = has_right ? me + 1 : MPI_PROC_NULL;
    MPI_Request r[5];
    long sum = 0;

    /* cart: a line, not a ring, so that no rank is a neighbour twice. */
    MPI_Comm cart;
    const int dims[1] = {n}, periods[1] = {0};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
    int mine[8], in[32], in2[32], in3[32], in4[32];
    for (int k = 0; k < 8; k++)
        mine[k] = 100 * me + k;

    MPI_Neighbor_allgather(mine, 2, MPI_INT, in, 2, MPI_INT, cart);
    if (has_left)
        check_block(in, left, 1, "cart allgather");
    if (has_right)
        check_block(in + 2, right, 1, "cart allgather");
    /* allgatherv: rank r sends r + 1 ints; blocks at 0 and 16. */
    const int vrc[2] = {has_left ? left + 1 : 0, has_right ? right + 1 : 0}, vrd[2] = {0, 16};
    MPI_Neighbor_allgatherv(mine, me + 1, MPI_INT, in, vrc, vrd, MPI_INT, cart);
    if (has_left)
        check_block(in, left, left, "cart allgatherv");
    if (has_right)
        check_block(in + 16, right, right, "cart allgatherv");
    /* alltoall: me to the left, -me to the right. */
    const double out[2] = {me, -me};
    double got[2] = {0.5, 0.5};
    MPI_Neighbor_alltoall(out, 1, MPI_DOUBLE, got, 1, MPI_DOUBLE, cart);
    mt_check(got[0] == (has_left ? -left : 0.5) && got[1] == (has_right ? right : 0.5), "cart alltoall %g %g",
             got[0], got[1]);
    sum += (long)got[1];
    /* alltoallv: 1 int to the left, 2 to the right; so 2 from the left. */
    const int sc[2] = {1, 2}, sd[2] = {0, 4}, rc[2] = {2, 1}, rd[2] = {0, 4};
    in[0] = in[1] = in[4] = -1;
    MPI_Neighbor_alltoallv(mine, sc, sd, MPI_INT, in, rc, rd, MPI_INT, cart);
    mt_check(in[1] == (has_left ? 100 * left + 5 : -1) && in[4] == (has_right ? 100 * right : -1),
             "cart alltoallv %d %d", in[1], in[4]);
    /* alltoallw: 1 int to the left, 2 doubles to the right. */
    const int wc[2] = {1, 2}, wrc[2] = {2, 1};
    const MPI_Aint wsd[2] = {0, 8}, wrd[2] = {0, 32};
    const MPI_Datatype wst[2] = {MPI_INT, MPI_DOUBLE}, wrt[2] = {MPI_DOUBLE, MPI_INT};
    char wout[32] = {0}, win[48] = {0}, win2[48] = {0};
    const double two[2] = {0.5 * me, 1.5};
    memcpy(wout, &me, sizeof me);
    memcpy(wout + 8, two, sizeof two);
    MPI_Neighbor_alltoallw(wout, wc, wsd, wst, win, wrc, wrd, wrt, cart);
    mt_check(get_double(win + 8) == (has_left ? 1.5 : 0) && get_int(win + 32) == (has_right ? right : 0),
             "cart alltoallw %g %d", get_double(win + 8), get_int(win + 32));

    /* the same, nonblocking */
    MPI_Ineighbor_allgather(mine, 2, MPI_INT, in2, 2, MPI_INT, cart, &r[0]);
    MPI_Ineighbor_allgatherv(mine, me + 1, MPI_INT, in3, vrc, vrd, MPI_INT, cart, &r[1]);
    MPI_Ineighbor_alltoall(out, 1, MPI_DOUBLE, got, 1, MPI_DOUBLE, cart, &r[2]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Waitall(2, &r[1], MPI_STATUSES_IGNORE);
    if (has_right) {
        check_block(in2 + 2, right, 1, "cart iallgather");
        check_block(in3 + 16, right, right, "cart iallgatherv");
        mt_check(got[1] == right, "cart ialltoall %g", got[1]);
        sum += in2[3];
    }
    in4[1] = -1;
    MPI_Ineighbor_alltoallv(mine, sc, sd, MPI_INT, in4, rc, rd, MPI_INT, cart, &r[0]);
    MPI_Ineighbor_alltoallw(wout, wc, wsd, wst, win2, wrc, wrd, wrt, cart, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    if (has_left) {
        mt_check(in4[1] == 100 * left + 5, "cart ialltoallv %d", in4[1]);
        mt_check(get_double(win2) == 0.5 * left, "cart ialltoallw %g", get_double(win2));
        sum += in4[1];
    }
    MPI_Comm_free(&cart);

    /* dist graph */
    MPI_Comm dist;
    {
        int dst[2] = {(me + 1) % n, (me + 2) % n}, src[2] = {(me + n - 1) % n, (me + 2 * n - 2) % n};
        const int outdeg = me % 2 == 0 ? 2 : 1, indeg = ((me + 2 * n - 2) % n) % 2 == 0 ? 2 : 1;
        const int weights[2] = {1, 1};
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indeg, src, weights, outdeg, dst, weights, MPI_INFO_NULL, 0,
                                       &dist);
        MPI_Neighbor_allgather(mine, 3, MPI_INT, in, 3, MPI_INT, dist);
        for (int i = 0; i < indeg; i++)
            check_block(in + 3 * i, src[i], 2, "dist allgather");
        int blocks[2 * MAXDEG];
        for (int i = 0; i < outdeg; i++) {
            blocks[2 * i] = 100 * me + dst[i];
            blocks[2 * i + 1] = i;
        }
        MPI_Neighbor_alltoall(blocks, 2, MPI_INT, in, 2, MPI_INT, dist);
        /* Which edge carried which block is only defined between distinct
         * neighbours (on one rank both edges are to itself). */
        for (int i = 0; i < indeg; i++)
            mt_check(in[2 * i] == 100 * src[i] + me && (n == 1 || in[2 * i + 1] == i), "dist alltoall from %d: %d %d",
                     src[i], in[2 * i], in[2 * i + 1]);
        MPI_Ineighbor_alltoall(blocks, 2, MPI_INT, in2, 2, MPI_INT, dist, &r[0]);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        mt_check(in2[0] == 100 * src[0] + me, "dist ialltoall %d", in2[0]);
        sum += in2[0];
    }
    MPI_Comm_free(&dist);

    /* the same graph from MPI_Dist_graph_create: each rank gives its own
     * out-edges; the order of the neighbours is the library's. */
    MPI_Comm dist2;
    {
        const int outdeg = me % 2 == 0 ? 2 : 1, dst[2] = {(me + 1) % n, (me + 2) % n}, weights[2] = {1, 1};
        MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &me, &outdeg, dst, weights, MPI_INFO_NULL, 0, &dist2);
        int indeg = 0, od = 0, weighted = 0;
        MPI_Dist_graph_neighbors_count(dist2, &indeg, &od, &weighted);
        mt_check(od == outdeg && indeg >= 1 && indeg <= MAXDEG, "dist_graph_create degrees %d %d", indeg, od);
        int srcs[MAXDEG], sw[MAXDEG], dsts[MAXDEG], dw[MAXDEG], blocks[2 * MAXDEG];
        /* The actual degrees: MPICH 4.0 copies max*degree entries from
         * arrays of the actual degree. */
        MPI_Dist_graph_neighbors(dist2, indeg, srcs, sw, od, dsts, dw);
        for (int i = 0; i < od && i < MAXDEG; i++) {
            blocks[2 * i] = 100 * me + dsts[i];
            blocks[2 * i + 1] = i;
        }
        MPI_Neighbor_alltoall(blocks, 2, MPI_INT, in, 2, MPI_INT, dist2);
        for (int i = 0; i < indeg && i < MAXDEG; i++)
            mt_check(in[2 * i] == 100 * srcs[i] + me, "dist_graph_create alltoall from %d: %d", srcs[i], in[2 * i]);
        for (int i = 0; i < indeg && i < MAXDEG; i++)
            sum += in[2 * i];
    }
    MPI_Comm_free(&dist2);

    /* graph */
    MPI_Comm graph;
    {
        int *index = malloc((size_t)n * sizeof *index), *edges = malloc((size_t)(2 * n) * sizeof *edges);
        int e = 0;
        for (int v = 0; v < n; v++) {
            const int a = (v + n - 1) % n, b = (v + 1) % n;
            if (a != v)
                edges[e++] = a;
            if (b != a && b != v)
                edges[e++] = b;
            index[v] = e;
        }
        if (n == 1) {
            /* a single node: its own neighbour. */
            edges[0] = 0;
            index[0] = 1;
        }
        MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &graph);
        int deg = 0;
        MPI_Graph_neighbors_count(graph, me, &deg);
        mt_check(deg == (n <= 2 ? 1 : 2), "graph degree %d", deg);
        int nb[MAXDEG];
        MPI_Graph_neighbors(graph, me, MAXDEG, nb);
        MPI_Neighbor_allgather(mine, 1, MPI_INT, in, 1, MPI_INT, graph);
        for (int i = 0; i < deg; i++)
            check_block(in + i, nb[i], 0, "graph allgather");
        double gout[MAXDEG * 3] = {0}, gin[MAXDEG * 3] = {0};
        for (int i = 0; i < deg; i++)
            gout[3 * i + 2] = 10 * me + nb[i];
        MPI_Neighbor_alltoall(gout, 3, MPI_DOUBLE, gin, 3, MPI_DOUBLE, graph);
        for (int i = 0; i < deg; i++)
            mt_check(gin[3 * i + 2] == 10 * nb[i] + me, "graph alltoall from %d: %g", nb[i], gin[3 * i + 2]);
        sum += (long)gin[2];
        free(index);
        free(edges);
    }
    MPI_Comm_free(&graph);

    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("coll_neighbor: ranks=%d checksum=%ld\n", n, all);
    return mt_finish();
}
