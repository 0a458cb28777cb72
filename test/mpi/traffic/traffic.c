/*
 * Point-to-point traffic with known destinations, sizes and matching, for
 * the traffic matrix and the trace's message flows (test/mpi/traffic.sh,
 * traffic_check.py holds the expectation). At least 2 ranks; right =
 * rank + 1, left = rank - 1, periodic.
 *   A. MPI_COMM_WORLD: 3 x 100 ints to the right with MPI_Send/MPI_Recv
 *      (tag 10), then 1 double with MPI_Ssend (tag 11);
 *   B. 2 x 7 chars to the left with MPI_Isend/MPI_Irecv, each completed by
 *      its own MPI_Wait (tag 12);
 *   C. every rank but 0 sends 1 int to rank 0 with tag 20 + rank; rank 0
 *      receives them with MPI_ANY_SOURCE and MPI_ANY_TAG;
 *   D. a communicator with the world ranks in reverse order
 *      (MPI_Comm_split, key -rank): comm rank s sends 5 int64 to comm rank
 *      s + 1 (world rank - 1), tag 31; then 3 int64 to itself with
 *      MPI_Sendrecv on MPI_COMM_SELF (tag 32);
 *   E. a persistent send of 2 ints to the right and a persistent receive
 *      from the left (tag 40), each started 3 times with MPI_Start and
 *      completed with MPI_Wait;
 *   F. a duplicate of MPI_COMM_WORLD: 16 chars to the right with
 *      MPI_Isend/MPI_Irecv completed together by MPI_Waitall (tag 50);
 *   G. an MPI_Send to MPI_PROC_NULL (no message), an MPI_Allreduce and an
 *      MPI_Barrier (not point-to-point);
 *   H. a persistent send of 3 ints to the left and a persistent receive
 *      from the right (tag 70), started together by MPI_Startall twice and
 *      completed together by MPI_Waitall.
 */
#include <stdint.h>
#include <stdio.h>

#include <mpi.h>

static int failures;

static void check(int ok, const char *what, int rank)
{
    if (!ok) {
        fprintf(stderr, "traffic: check failed on rank %d: %s\n", rank, what);
        failures++;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "traffic: needs at least 2 ranks\n");
        MPI_Finalize();
        return 1;
    }
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    long sum = 0;

    /* A. */
    int out[100], in[100];
    for (int it = 0; it < 3; it++) {
        for (int k = 0; k < 100; k++)
            out[k] = rank * 1000 + it * 100 + k;
        if (rank % 2 == 0) {
            MPI_Send(out, 100, MPI_INT, right, 10, MPI_COMM_WORLD);
            MPI_Recv(in, 100, MPI_INT, left, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(in, 100, MPI_INT, left, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(out, 100, MPI_INT, right, 10, MPI_COMM_WORLD);
        }
        check(in[99] == left * 1000 + it * 100 + 99, "A data", rank);
        sum += in[99];
    }
    double dout = rank + 0.5, din = -1;
    if (rank % 2 == 0) {
        MPI_Ssend(&dout, 1, MPI_DOUBLE, right, 11, MPI_COMM_WORLD);
        MPI_Recv(&din, 1, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&din, 1, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ssend(&dout, 1, MPI_DOUBLE, right, 11, MPI_COMM_WORLD);
    }
    check(din == left + 0.5, "A ssend data", rank);

    /* B. */
    for (int it = 0; it < 2; it++) {
        char cout[7], cin[7] = {0};
        for (int k = 0; k < 7; k++)
            cout[k] = (char)('a' + rank + it + k);
        MPI_Request rr, sr;
        MPI_Irecv(cin, 7, MPI_CHAR, right, 12, MPI_COMM_WORLD, &rr);
        MPI_Isend(cout, 7, MPI_CHAR, left, 12, MPI_COMM_WORLD, &sr);
        MPI_Wait(&rr, MPI_STATUS_IGNORE);
        MPI_Wait(&sr, MPI_STATUS_IGNORE);
        check(cin[6] == (char)('a' + right + it + 6), "B data", rank);
        sum += cin[6];
    }

    /* C. */
    if (rank == 0) {
        int seen = 0;
        for (int k = 1; k < size; k++) {
            int v = -1;
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            check(v == st.MPI_SOURCE && st.MPI_TAG == 20 + v, "C data", rank);
            seen += v;
        }
        check(seen == size * (size - 1) / 2, "C sources", rank);
        sum += seen;
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 20 + rank, MPI_COMM_WORLD);
    }

    /* D. */
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &rev);
    int s, m;
    MPI_Comm_rank(rev, &s);
    MPI_Comm_size(rev, &m);
    check(s == size - 1 - rank && m == size, "D order", rank);
    int64_t lout[5] = {rank, rank, rank, rank, rank}, lin[5] = {-1, -1, -1, -1, -1};
    if (s > 0) {
        MPI_Recv(lin, 5, MPI_INT64_T, s - 1, 31, rev, MPI_STATUS_IGNORE);
        check(lin[4] == rank + 1, "D data", rank);
    }
    if (s + 1 < m)
        MPI_Send(lout, 5, MPI_INT64_T, s + 1, 31, rev);
    int64_t self_out[3] = {1, 2, 3}, self_in[3] = {0, 0, 0};
    MPI_Sendrecv(self_out, 3, MPI_INT64_T, 0, 32, self_in, 3, MPI_INT64_T, 0, 32, MPI_COMM_SELF,
                 MPI_STATUS_IGNORE);
    check(self_in[2] == 3, "D self data", rank);
    MPI_Comm_free(&rev);

    /* E. */
    int pout[2], pin[2];
    MPI_Request ps, pr;
    MPI_Send_init(pout, 2, MPI_INT, right, 40, MPI_COMM_WORLD, &ps);
    MPI_Recv_init(pin, 2, MPI_INT, left, 40, MPI_COMM_WORLD, &pr);
    for (int it = 0; it < 3; it++) {
        pout[0] = rank;
        pout[1] = it;
        MPI_Start(&pr);
        MPI_Start(&ps);
        MPI_Wait(&pr, MPI_STATUS_IGNORE);
        MPI_Wait(&ps, MPI_STATUS_IGNORE);
        check(pin[0] == left && pin[1] == it, "E data", rank);
        sum += pin[0];
    }
    MPI_Request_free(&ps);
    MPI_Request_free(&pr);

    /* F. */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    char fout[16], fin[16] = {0};
    for (int k = 0; k < 16; k++)
        fout[k] = (char)(rank + k);
    MPI_Request both[2];
    MPI_Status sts[2];
    MPI_Irecv(fin, 16, MPI_CHAR, left, 50, dup, &both[0]);
    MPI_Isend(fout, 16, MPI_CHAR, right, 50, dup, &both[1]);
    MPI_Waitall(2, both, sts);
    check(fin[15] == (char)(left + 15), "F data", rank);
    MPI_Comm_free(&dup);

    /* G. */
    MPI_Send(out, 3, MPI_INT, MPI_PROC_NULL, 60, MPI_COMM_WORLD);
    long total = 0;
    MPI_Allreduce(&sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);

    /* H. */
    int hout[3], hin[3];
    MPI_Request h[2];
    MPI_Recv_init(hin, 3, MPI_INT, right, 70, MPI_COMM_WORLD, &h[0]);
    MPI_Send_init(hout, 3, MPI_INT, left, 70, MPI_COMM_WORLD, &h[1]);
    for (int it = 0; it < 2; it++) {
        hout[0] = rank;
        hout[1] = it;
        hout[2] = 0;
        MPI_Startall(2, h);
        MPI_Waitall(2, h, MPI_STATUSES_IGNORE);
        check(hin[0] == right && hin[1] == it, "H data", rank);
    }
    MPI_Request_free(&h[0]);
    MPI_Request_free(&h[1]);
    if (rank == 0)
        printf("traffic: ranks=%d total=%ld\n", size, total);
    MPI_Finalize();
    return failures ? 1 : 0;
}
