/*
 * The completion calls, with a deterministic number of calls: a test family
 * call either runs before the matching send is posted (it completes nothing)
 * or after MPI_Request_get_status, which the tool does not record, has seen
 * its requests complete. On a ring (a single rank is its own neighbour):
 *   1. MPI_Test, MPI_Testany, MPI_Testsome and MPI_Testall on receives whose
 *      sends come after a barrier: each completes nothing;
 *   2. after the sends: MPI_Test, MPI_Testany (one active request) and
 *      MPI_Testall complete them;
 *   3. every completion call on requests that are all MPI_REQUEST_NULL;
 *   4. MPI_Waitsome and MPI_Testsome on three finished requests each;
 *   5. MPI_Waitany on an array of one active request among nulls, and three
 *      MPI_Waitany on three receives of the same signature;
 *   6. MPI_Waitall of receives on two communicators (comm -1).
 */
#include "mpitest.h"

/* Spins, without a recorded call, until every request has completed. */
static void until_complete(int n, MPI_Request *r)
{
    for (int i = 0; i < n; i++) {
        int flag = 0;
        while (!flag)
            MPI_Request_get_status(r[i], &flag, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
    MPI_Request r[3], s[3];
    MPI_Status st[3];
    int flag, index, outcount, indices[3];
    long sum = 0;

    /* 1. 2 ints with tag 90, 3 ints with tag 91. */
    int out[2][3] = {{mt_rank, 1, 2}, {mt_rank, 3, 4}}, in[2][3] = {{0}};
    MPI_Irecv(in[0], 2, MPI_INT, left, 90, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(in[1], 3, MPI_INT, left, 91, MPI_COMM_WORLD, &r[1]);
    MPI_Test(&r[0], &flag, &st[0]);
    mt_check(!flag, "test completed a receive nobody sent");
    MPI_Testany(2, r, &index, &flag, &st[0]);
    mt_check(!flag, "testany completed a receive nobody sent");
    MPI_Testsome(2, r, &outcount, indices, st);
    mt_check(outcount == 0, "testsome completed %d receives nobody sent", outcount);
    MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
    mt_check(!flag, "testall completed receives nobody sent");
    MPI_Barrier(MPI_COMM_WORLD);

    /* 2. */
    MPI_Isend(out[0], 2, MPI_INT, right, 90, MPI_COMM_WORLD, &s[0]);
    MPI_Isend(out[1], 3, MPI_INT, right, 91, MPI_COMM_WORLD, &s[1]);
    until_complete(2, r);
    until_complete(2, s);
    MPI_Test(&r[0], &flag, &st[0]);
    mt_check(flag, "test did not complete a finished receive");
    mt_check_status(&st[0], MPI_INT, left, 90, 2);
    MPI_Testany(2, r, &index, &flag, MPI_STATUS_IGNORE);
    mt_check(flag && index == 1, "testany: flag %d index %d", flag, index);
    MPI_Testall(2, s, &flag, st);
    mt_check(flag, "testall did not complete finished sends");
    mt_check(in[0][0] == left && in[1][2] == 4, "phase 2 data %d %d", in[0][0], in[1][2]);
    sum += in[0][0] + in[1][2];

    /* 3. r[0..1] and s[0..1] are MPI_REQUEST_NULL now. */
    MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
    mt_check(flag, "test of a null request");
    MPI_Testany(2, r, &index, &flag, MPI_STATUS_IGNORE);
    mt_check(flag && index == MPI_UNDEFINED, "testany of null requests: flag %d index %d", flag, index);
    MPI_Testsome(2, r, &outcount, indices, MPI_STATUSES_IGNORE);
    mt_check(outcount == MPI_UNDEFINED, "testsome of null requests: outcount %d", outcount);
    MPI_Testall(2, s, &flag, MPI_STATUSES_IGNORE);
    mt_check(flag, "testall of null requests");
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    MPI_Waitany(2, s, &index, MPI_STATUS_IGNORE);
    mt_check(index == MPI_UNDEFINED, "waitany of null requests: index %d", index);
    MPI_Waitsome(2, s, &outcount, indices, MPI_STATUSES_IGNORE);
    mt_check(outcount == MPI_UNDEFINED, "waitsome of null requests: outcount %d", outcount);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);

    /* 4. 4 doubles with tag 92, 1 int with tag 93, 6 chars with tag 94. */
    {
        double dout[4] = {mt_rank, 1, 2, 3}, din[4] = {0};
        int iout = mt_rank, iin = -1;
        char cout[6] = "abcde", cin[6] = {0};
        cout[0] = (char)('A' + mt_rank);
        MPI_Irecv(din, 4, MPI_DOUBLE, left, 92, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&iin, 1, MPI_INT, left, 93, MPI_COMM_WORLD, &r[1]);
        MPI_Irecv(cin, 6, MPI_CHAR, left, 94, MPI_COMM_WORLD, &r[2]);
        MPI_Isend(dout, 4, MPI_DOUBLE, right, 92, MPI_COMM_WORLD, &s[0]);
        MPI_Isend(&iout, 1, MPI_INT, right, 93, MPI_COMM_WORLD, &s[1]);
        MPI_Isend(cout, 6, MPI_CHAR, right, 94, MPI_COMM_WORLD, &s[2]);
        until_complete(3, r);
        until_complete(3, s);
        MPI_Waitsome(3, r, &outcount, indices, st);
        mt_check(outcount == 3, "waitsome of 3 finished receives: outcount %d", outcount);
        MPI_Testsome(3, s, &outcount, indices, MPI_STATUSES_IGNORE);
        mt_check(outcount == 3, "testsome of 3 finished sends: outcount %d", outcount);
        mt_check(din[0] == left && iin == left && cin[0] == (char)('A' + left), "phase 4 data %g %d %c", din[0],
                 iin, cin[0]);
        sum += iin;
    }

    /* 5. 2 shorts with tag 95 among nulls; 3 x 1 int with tag 96. */
    {
        short sout[2] = {(short)mt_rank, 5}, sin[2] = {0};
        MPI_Request arr[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        MPI_Irecv(sin, 2, MPI_SHORT, left, 95, MPI_COMM_WORLD, &arr[1]);
        MPI_Isend(sout, 2, MPI_SHORT, right, 95, MPI_COMM_WORLD, &s[0]);
        MPI_Waitany(3, arr, &index, &st[0]);
        mt_check(index == 1, "waitany index %d", index);
        mt_check_status(&st[0], MPI_SHORT, left, 95, 2);
        MPI_Wait(&s[0], MPI_STATUS_IGNORE);
        sum += sin[0];

        int iout[3] = {mt_rank, mt_rank + 1, mt_rank + 2}, iin[3] = {-1, -1, -1};
        for (int i = 0; i < 3; i++)
            MPI_Irecv(&iin[i], 1, MPI_INT, left, 96, MPI_COMM_WORLD, &r[i]);
        for (int i = 0; i < 3; i++)
            MPI_Isend(&iout[i], 1, MPI_INT, right, 96, MPI_COMM_WORLD, &s[i]);
        for (int i = 0; i < 3; i++)
            MPI_Waitany(3, r, &index, MPI_STATUS_IGNORE);
        MPI_Waitall(3, s, MPI_STATUSES_IGNORE);
        mt_check(iin[0] == left && iin[2] == left + 2, "phase 5 data %d %d", iin[0], iin[2]);
        sum += iin[2];
    }

    /* 6. 1 int with tag 97 on MPI_COMM_WORLD and on a duplicate. */
    {
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        int a = mt_rank, b = -mt_rank, ina = -1, inb = 1;
        MPI_Irecv(&ina, 1, MPI_INT, left, 97, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&inb, 1, MPI_INT, left, 97, dup, &r[1]);
        MPI_Isend(&a, 1, MPI_INT, right, 97, MPI_COMM_WORLD, &s[0]);
        MPI_Isend(&b, 1, MPI_INT, right, 97, dup, &s[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        MPI_Waitall(2, s, MPI_STATUSES_IGNORE);
        mt_check(ina == left && inb == -left, "phase 6 data %d %d", ina, inb);
        sum += ina - inb;
        MPI_Comm_free(&dup);
    }

    long total = 0;
    MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("p2p_completion: ranks=%d checksum=%ld\n", mt_size, total);
    return mt_finish();
}
