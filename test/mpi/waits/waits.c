/*
 * Planted waits for the wait-state analysis (test/mpi/waits.sh): one case
 * per run, ITER iterations, each with one planted delay of D ms (usleep, so
 * the cores stay free even when ranks share them).
 *
 *   waits CASE D_MS ITER
 *
 * Pairs are (2k, 2k+1); an odd rank count leaves the last rank out of
 * point-to-point cases.
 *   late_sender     the odd rank sleeps, then MPI_Send; the even MPI_Recv
 *   late_sender_nb  the same with MPI_Irecv + MPI_Wait and MPI_Isend + MPI_Wait
 *   waitall         the even rank: MPI_Irecv and MPI_Isend with the odd one,
 *                   MPI_Waitall over both; the odd rank sleeps first
 *   anysource       the even rank receives from MPI_ANY_SOURCE, tag 5
 *   persistent      MPI_Send_init / MPI_Recv_init, MPI_Startall, MPI_Waitall
 *   sendrecv        a ring of MPI_Sendrecv (send right, receive left); the
 *                   last rank sleeps first: rank 0 waits for it
 *   late_receiver   the even rank MPI_Ssend; the odd one sleeps, then MPI_Recv
 *   barrier         the last rank sleeps, then MPI_Barrier
 *   nxn             rank 0 sleeps, then MPI_Allreduce
 *   bcast           the root (0) sleeps, then MPI_Bcast
 *   reduce          every rank but the root (0) sleeps, then MPI_Reduce
 *   bcast_init      MPI_Bcast_init rooted at the last rank, which sleeps
 *                   before each MPI_Start; MPI_Wait (MPI 4.0)
 *   reduce_init     MPI_Reduce_init rooted at the last rank; every other
 *                   rank sleeps before each MPI_Start; MPI_Wait (MPI 4.0)
 *   subcomm         two halves (MPI_Comm_split); each half's last rank sleeps,
 *                   then MPI_Barrier on the half
 *   mix             late_sender, then barrier, then nxn, in each iteration
 *   balanced        no delay: MPI_Allreduce and MPI_Sendrecv in a ring
 * It prints one line on rank 0, the same with and without a profiler.
 */
#define _DEFAULT_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

static void nap(int ms)
{
    usleep((useconds_t)ms * 1000u);
}

/* The partner of a point-to-point pair, or -1 (the odd one out). */
static int partner(void)
{
    int p = rank ^ 1;
    return p < size ? p : -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 4) {
        if (rank == 0)
            fprintf(stderr, "usage: waits CASE D_MS ITER\n");
        MPI_Finalize();
        return 2;
    }
    const char *c = argv[1];
    int d = atoi(argv[2]), iter = atoi(argv[3]);
    int p = partner(), even = (rank & 1) == 0;
    double x = rank, y = 0;
    long sum = 0;
    for (int i = 0; i < iter; i++) {
        if (strcmp(c, "late_sender") == 0 && p >= 0) {
            if (even)
                MPI_Recv(&y, 1, MPI_DOUBLE, p, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            else {
                nap(d);
                MPI_Send(&x, 1, MPI_DOUBLE, p, 1, MPI_COMM_WORLD);
            }
        } else if (strcmp(c, "late_sender_nb") == 0 && p >= 0) {
            MPI_Request r;
            if (even)
                MPI_Irecv(&y, 1, MPI_DOUBLE, p, 2, MPI_COMM_WORLD, &r);
            else {
                nap(d);
                MPI_Isend(&x, 1, MPI_DOUBLE, p, 2, MPI_COMM_WORLD, &r);
            }
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        } else if (strcmp(c, "waitall") == 0 && p >= 0) {
            MPI_Request r[2];
            if (!even)
                nap(d);
            MPI_Irecv(&y, 1, MPI_DOUBLE, p, 3, MPI_COMM_WORLD, &r[0]);
            MPI_Isend(&x, 1, MPI_DOUBLE, p, 3, MPI_COMM_WORLD, &r[1]);
            MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        } else if (strcmp(c, "anysource") == 0 && p >= 0) {
            if (even) {
                MPI_Status st;
                MPI_Recv(&y, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
                sum += st.MPI_SOURCE == p;
            } else {
                nap(d);
                MPI_Send(&x, 1, MPI_DOUBLE, p, 5, MPI_COMM_WORLD);
            }
        } else if (strcmp(c, "persistent") == 0 && p >= 0) {
            MPI_Request r;
            if (even)
                MPI_Recv_init(&y, 1, MPI_DOUBLE, p, 6, MPI_COMM_WORLD, &r);
            else
                MPI_Send_init(&x, 1, MPI_DOUBLE, p, 6, MPI_COMM_WORLD, &r);
            if (!even)
                nap(d);
            MPI_Startall(1, &r);
            MPI_Waitall(1, &r, MPI_STATUSES_IGNORE);
            MPI_Request_free(&r);
        } else if (strcmp(c, "sendrecv") == 0) {
            if (rank == size - 1)
                nap(d);
            MPI_Sendrecv(&x, 1, MPI_DOUBLE, (rank + 1) % size, 7, &y, 1, MPI_DOUBLE, (rank + size - 1) % size, 7,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (strcmp(c, "late_receiver") == 0 && p >= 0) {
            if (even)
                MPI_Ssend(&x, 1, MPI_DOUBLE, p, 8, MPI_COMM_WORLD);
            else {
                nap(d);
                MPI_Recv(&y, 1, MPI_DOUBLE, p, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        } else if (strcmp(c, "barrier") == 0) {
            if (rank == size - 1)
                nap(d);
            MPI_Barrier(MPI_COMM_WORLD);
        } else if (strcmp(c, "nxn") == 0) {
            if (rank == 0)
                nap(d);
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        } else if (strcmp(c, "bcast") == 0) {
            if (rank == 0)
                nap(d);
            MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        } else if (strcmp(c, "reduce") == 0) {
            if (rank != 0)
                nap(d);
            MPI_Reduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
#if MPI_VERSION >= 4
        } else if (strcmp(c, "bcast_init") == 0 || strcmp(c, "reduce_init") == 0) {
            /* Created once, started every iteration. */
            static MPI_Request r = MPI_REQUEST_NULL;
            int late = c[0] == 'b' ? rank == size - 1 : rank != size - 1;
            if (i == 0 && c[0] == 'b')
                MPI_Bcast_init(&x, 1, MPI_DOUBLE, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
            else if (i == 0)
                MPI_Reduce_init(&x, &y, 1, MPI_DOUBLE, MPI_SUM, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
            if (late)
                nap(d);
            MPI_Start(&r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            if (i == iter - 1)
                MPI_Request_free(&r);
#endif
        } else if (strcmp(c, "subcomm") == 0) {
            MPI_Comm half;
            int lower = rank < size / 2, hsize;
            MPI_Comm_split(MPI_COMM_WORLD, lower, rank, &half);
            MPI_Comm_size(half, &hsize);
            int hrank;
            MPI_Comm_rank(half, &hrank);
            if (hrank == hsize - 1)
                nap(d);
            MPI_Barrier(half);
            MPI_Comm_free(&half);
        } else if (strcmp(c, "mix") == 0) {
            if (p >= 0 && even)
                MPI_Recv(&y, 1, MPI_DOUBLE, p, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            else if (p >= 0) {
                nap(d);
                MPI_Send(&x, 1, MPI_DOUBLE, p, 10, MPI_COMM_WORLD);
            }
            if (rank == size - 1)
                nap(d);
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0)
                nap(d);
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        } else if (strcmp(c, "balanced") == 0) {
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            MPI_Sendrecv(&x, 1, MPI_DOUBLE, (rank + 1) % size, 9, &y, 1, MPI_DOUBLE, (rank + size - 1) % size, 9,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("waits: case=%s ranks=%d iter=%d any_source_from_partner=%ld\n", c, size, iter, all);
    MPI_Finalize();
    return 0;
}
