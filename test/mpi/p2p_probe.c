/*
 * Probes on a ring (left = rank - 1, right = rank + 1, periodic; a single
 * rank is its own neighbour). Each phase sends one message to the right
 * with MPI_Isend, waits for the one from the left with a blocking probe,
 * and ends with a barrier, so that exactly one message is pending when the
 * nonblocking probes look: every MPI_Iprobe and MPI_Improbe below finds a
 * message or finds none by construction, never by timing.
 *   1. MPI_Probe by source and tag, then with wildcards, then from
 *      MPI_PROC_NULL;
 *   2. MPI_Iprobe of a tag nobody sends (false), by source and tag and with
 *      wildcards after a probe (true), and from MPI_PROC_NULL (true);
 *   3. MPI_Mprobe + MPI_Mrecv;
 *   4. MPI_Improbe of a tag nobody sends (false), then after a probe (true),
 *      MPI_Imrecv and MPI_Wait;
 *   5. MPI_Mprobe + MPI_Mrecv on a duplicate of MPI_COMM_WORLD: the receive
 *      reports the probe's communicator.
 */
#include "mpitest.h"

enum { NEVER = 99 };

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    const int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
    MPI_Request req;
    MPI_Status st;
    int flag;
    long sum = 0;

    /* 1. 6 ints with tag 60, 3 doubles with tag 61. */
    {
        int out[6], in[6] = {0};
        for (int k = 0; k < 6; k++)
            out[k] = mt_rank + k;
        MPI_Isend(out, 6, MPI_INT, right, 60, MPI_COMM_WORLD, &req);
        MPI_Probe(left, 60, MPI_COMM_WORLD, &st);
        mt_check_status(&st, MPI_INT, left, 60, 6);
        MPI_Recv(in, 6, MPI_INT, left, 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        mt_check(in[5] == left + 5, "phase 1 data %d", in[5]);
        sum += in[5];
        MPI_Barrier(MPI_COMM_WORLD);

        double dout[3] = {mt_rank, 1, 2}, din[3] = {0};
        MPI_Isend(dout, 3, MPI_DOUBLE, right, 61, MPI_COMM_WORLD, &req);
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        mt_check_status(&st, MPI_DOUBLE, left, 61, 3);
        MPI_Recv(din, 3, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        mt_check(din[0] == left, "phase 1 double %g", din[0]);
        sum += (long)din[0];

        MPI_Probe(MPI_PROC_NULL, 60, MPI_COMM_WORLD, &st);
        mt_check(st.MPI_SOURCE == MPI_PROC_NULL, "probe of MPI_PROC_NULL: source %d", st.MPI_SOURCE);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* 2. 10 chars with tag 62. */
    {
        char out[10], in[10] = {0};
        for (int k = 0; k < 10; k++)
            out[k] = (char)('a' + mt_rank + k);
        MPI_Iprobe(left, NEVER, MPI_COMM_WORLD, &flag, &st);
        mt_check(!flag, "iprobe found a message with tag %d", NEVER);
        MPI_Iprobe(MPI_ANY_SOURCE, NEVER, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        mt_check(!flag, "iprobe found a message with tag %d from anyone", NEVER);
        MPI_Isend(out, 10, MPI_CHAR, right, 62, MPI_COMM_WORLD, &req);
        MPI_Probe(left, 62, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Iprobe(left, 62, MPI_COMM_WORLD, &flag, &st);
        mt_check(flag, "iprobe after probe found nothing");
        if (flag)
            mt_check_status(&st, MPI_CHAR, left, 62, 10);
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        mt_check(flag, "wildcard iprobe after probe found nothing");
        MPI_Iprobe(MPI_PROC_NULL, 62, MPI_COMM_WORLD, &flag, &st);
        mt_check(flag && st.MPI_SOURCE == MPI_PROC_NULL, "iprobe of MPI_PROC_NULL: flag %d", flag);
        MPI_Recv(in, 10, MPI_CHAR, left, 62, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        mt_check(in[0] == (char)('a' + left), "phase 2 data %d", in[0]);
        sum += in[9];
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* 3. 7 ints with tag 63. */
    {
        int out[7], in[16] = {0};
        for (int k = 0; k < 7; k++)
            out[k] = 3 * mt_rank + k;
        MPI_Message msg;
        MPI_Isend(out, 7, MPI_INT, right, 63, MPI_COMM_WORLD, &req);
        MPI_Mprobe(left, 63, MPI_COMM_WORLD, &msg, &st);
        mt_check_status(&st, MPI_INT, left, 63, 7);
        MPI_Mrecv(in, 16, MPI_INT, &msg, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        mt_check(in[6] == 3 * left + 6 && in[7] == 0, "phase 3 data %d %d", in[6], in[7]);
        sum += in[6];
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* 4. 5 doubles with tag 64. */
    {
        double out[5], in[5] = {0};
        for (int k = 0; k < 5; k++)
            out[k] = mt_rank * 0.5 + k;
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Improbe(left, NEVER, MPI_COMM_WORLD, &flag, &msg, &st);
        mt_check(!flag, "improbe found a message with tag %d", NEVER);
        MPI_Isend(out, 5, MPI_DOUBLE, right, 64, MPI_COMM_WORLD, &req);
        MPI_Probe(left, 64, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
        mt_check(flag, "improbe after probe found nothing");
        MPI_Request rreq;
        MPI_Imrecv(in, 5, MPI_DOUBLE, &msg, &rreq);
        MPI_Wait(&rreq, &st);
        mt_check_status(&st, MPI_DOUBLE, left, 64, 5);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        mt_check(in[4] == left * 0.5 + 4, "phase 4 data %g", in[4]);
        sum += (long)in[4];
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* 5. 2 shorts with tag 65 on a duplicate of MPI_COMM_WORLD. */
    {
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        short out[2] = {(short)mt_rank, 9}, in[2] = {0};
        MPI_Message msg;
        MPI_Isend(out, 2, MPI_SHORT, right, 65, dup, &req);
        MPI_Mprobe(left, 65, dup, &msg, MPI_STATUS_IGNORE);
        MPI_Mrecv(in, 2, MPI_SHORT, &msg, &st);
        mt_check_status(&st, MPI_SHORT, left, 65, 2);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        mt_check(in[0] == left && in[1] == 9, "phase 5 data %d %d", in[0], in[1]);
        sum += in[0];
        MPI_Comm_free(&dup);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    long total = 0;
    MPI_Reduce(&sum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("p2p_probe: ranks=%d checksum=%ld\n", mt_size, total);
    return mt_finish();
}
