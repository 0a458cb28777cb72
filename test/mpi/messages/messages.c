/*
 * The requests of test/mpi/messages.sh, on a ring (left and right
 * neighbours, MPI_COMM_WORLD), phase by phase between barriers:
 *   1. Irecv/Isend, both directions, completed by one MPI_Waitall
 *      (MPI_STATUSES_IGNORE);
 *   2. two Irecvs completed by MPI_Waitsome, 3. two Irecvs and two Isends
 *      by MPI_Testsome, 4. an Irecv and an Isend by MPI_Waitany, 5. an
 *      Irecv by MPI_Test, until done;
 *   6. a wildcard Irecv (MPI_ANY_SOURCE, MPI_ANY_TAG) by MPI_Wait;
 *   7. Recv_init/Send_init: MPI_Startall and MPI_Waitall twice, then
 *      MPI_Start and MPI_Wait each;
 *   8. MPI_Sendrecv (MPI_STATUS_IGNORE) and MPI_Sendrecv_replace;
 *   9. an Irecv no send matches, cancelled, completed by MPI_Wait;
 *  10. MPI_Ibarrier and MPI_Iallreduce completed by one MPI_Waitall.
 *
 *   messages OUTDIR
 *
 * Each rank writes OUTDIR/expect-<rank>.txt: for every call that completes
 * or starts requests (or receives in a sendrecv), in the order made,
 *   C <call> <n>
 * then n lines, one per message record the call must have written:
 *   R <creating op> <flags> <comm> <peer> <tag> <bytes>
 * (the request order, or the order of the indices a waitsome or testsome
 * returned). messages_check.py compares them with the records of the log.
 */
#include <stdlib.h>
#include <string.h>

#include "../mpitest.h"

enum { RECV = 1, CANCELLED = 2, STARTED = 4, POSTED = 8 };

static FILE *out;

/* A posted request as its message record will say it. */
typedef struct want {
    const char *op;
    int flags, peer, tag, bytes;
} want;

static void call(const char *name, int n)
{
    fprintf(out, "C %s %d\n", name, n);
}

static void rec(const want *w, int flags, int bytes)
{
    fprintf(out, "R %s %d 0 %d %d %d\n", w->op, flags, w->peer, w->tag, bytes);
}

/* A completed request w: a receive reports what arrived (its bytes here). */
static void done(const want *w)
{
    rec(w, w->flags, w->bytes);
}

/* The completions of one *some call, in the order of its indices. */
static void some(const char *name, int outcount, const int *idx, const want *w, int *left)
{
    int n = outcount == MPI_UNDEFINED ? 0 : outcount;
    call(name, n);
    for (int k = 0; k < n; k++)
        done(&w[idx[k]]);
    *left -= n;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    if (argc != 2)
        return 2;
    char path[4096];
    snprintf(path, sizeof path, "%s/expect-%d.txt", argv[1], mt_rank);
    out = fopen(path, "w");
    mt_check(out != NULL, "cannot write %s", path);
    if (!out)
        MPI_Abort(MPI_COMM_WORLD, 1);
    int left = (mt_rank - 1 + mt_size) % mt_size, right = (mt_rank + 1) % mt_size;
    MPI_Request r[4];
    MPI_Status st, sts[4];
    int idx[4], outcount, flag, ibuf[4][8];
    double dbuf[4][8];
    memset(ibuf, 0, sizeof ibuf);
    memset(dbuf, 0, sizeof dbuf);

    /* 1. */
    {
        want w[4] = {{"irecv", RECV | POSTED, left, 1, 64}, {"isend", POSTED, right, 1, 64},
                     {"irecv", RECV | POSTED, right, 2, 16}, {"isend", POSTED, left, 2, 16}};
        MPI_Irecv(dbuf[0], 8, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(dbuf[1], 8, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &r[1]);
        MPI_Irecv(ibuf[0], 4, MPI_INT, right, 2, MPI_COMM_WORLD, &r[2]);
        MPI_Isend(ibuf[1], 4, MPI_INT, left, 2, MPI_COMM_WORLD, &r[3]);
        MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
        call("waitall", 4);
        for (int i = 0; i < 4; i++)
            done(&w[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 2. */
    {
        want w[2] = {{"irecv", RECV | POSTED, left, 3, 4}, {"irecv", RECV | POSTED, right, 4, 8}};
        MPI_Irecv(ibuf[0], 1, MPI_INT, left, 3, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(ibuf[1], 2, MPI_INT, right, 4, MPI_COMM_WORLD, &r[1]);
        MPI_Send(ibuf[2], 1, MPI_INT, right, 3, MPI_COMM_WORLD);
        MPI_Send(ibuf[3], 2, MPI_INT, left, 4, MPI_COMM_WORLD);
        for (int pending = 2; pending > 0;) {
            MPI_Waitsome(2, r, &outcount, idx, sts);
            some("waitsome", outcount, idx, w, &pending);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 3. */
    {
        want w[4] = {{"irecv", RECV | POSTED, left, 5, 12}, {"isend", POSTED, right, 5, 12},
                     {"irecv", RECV | POSTED, right, 6, 8}, {"isend", POSTED, left, 6, 8}};
        MPI_Irecv(ibuf[0], 3, MPI_INT, left, 5, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(ibuf[1], 3, MPI_INT, right, 5, MPI_COMM_WORLD, &r[1]);
        MPI_Irecv(dbuf[0], 1, MPI_DOUBLE, right, 6, MPI_COMM_WORLD, &r[2]);
        MPI_Isend(dbuf[1], 1, MPI_DOUBLE, left, 6, MPI_COMM_WORLD, &r[3]);
        for (int pending = 4; pending > 0;) {
            MPI_Testsome(4, r, &outcount, idx, MPI_STATUSES_IGNORE);
            some("testsome", outcount, idx, w, &pending);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 4. and 5. */
    {
        want w[2] = {{"irecv", RECV | POSTED, left, 12, 4}, {"isend", POSTED, right, 12, 4}};
        MPI_Irecv(ibuf[0], 1, MPI_INT, left, 12, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(ibuf[1], 1, MPI_INT, right, 12, MPI_COMM_WORLD, &r[1]);
        for (int k = 0; k < 2; k++) {
            int i;
            MPI_Waitany(2, r, &i, &st);
            call("waitany", 1);
            done(&w[i]);
        }
        want t = {"irecv", RECV | POSTED, left, 13, 24};
        MPI_Irecv(dbuf[0], 3, MPI_DOUBLE, left, 13, MPI_COMM_WORLD, &r[0]);
        MPI_Send(dbuf[1], 3, MPI_DOUBLE, right, 13, MPI_COMM_WORLD);
        do {
            MPI_Test(&r[0], &flag, &st);
            call("test", flag ? 1 : 0);
        } while (!flag);
        done(&t);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 6. */
    {
        want w = {"irecv", RECV | POSTED, left, 7, 8};
        MPI_Irecv(ibuf[0], 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r[0]);
        MPI_Send(ibuf[1], 2, MPI_INT, right, 7, MPI_COMM_WORLD);
        MPI_Wait(&r[0], &st);
        mt_check_status(&st, MPI_INT, left, 7, 2);
        call("wait", 1);
        done(&w);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 7. */
    {
        MPI_Request p[2];
        want w[2] = {{"recv_init", RECV | POSTED, left, 8, 16}, {"send_init", POSTED, right, 8, 16}};
        MPI_Recv_init(ibuf[0], 4, MPI_INT, left, 8, MPI_COMM_WORLD, &p[0]);
        MPI_Send_init(ibuf[1], 4, MPI_INT, right, 8, MPI_COMM_WORLD, &p[1]);
        for (int k = 0; k < 2; k++) {
            MPI_Startall(2, p);
            call("startall", 2);
            rec(&w[0], RECV | STARTED | POSTED, -1);
            rec(&w[1], STARTED | POSTED, 16);
            MPI_Waitall(2, p, sts);
            call("waitall", 2);
            done(&w[0]);
            done(&w[1]);
        }
        for (int i = 0; i < 2; i++) {
            MPI_Start(&p[i]);
            call("start", 1);
            rec(&w[i], w[i].flags | STARTED, i == 0 ? -1 : 16);
        }
        for (int i = 0; i < 2; i++) {
            MPI_Wait(&p[i], &st);
            call("wait", 1);
            done(&w[i]);
        }
        MPI_Request_free(&p[0]);
        MPI_Request_free(&p[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 8. */
    {
        want w = {"sendrecv", RECV | POSTED, left, 9, 32};
        MPI_Sendrecv(ibuf[0], 8, MPI_INT, right, 9, ibuf[1], 8, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        call("sendrecv", 1);
        done(&w);
        want v = {"sendrecv_replace", RECV | POSTED, right, 10, 16};
        MPI_Sendrecv_replace(dbuf[0], 2, MPI_DOUBLE, left, 10, right, 10, MPI_COMM_WORLD, &st);
        mt_check_status(&st, MPI_DOUBLE, right, 10, 2);
        call("sendrecv_replace", 1);
        done(&v);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 9. */
    {
        want w = {"irecv", RECV | CANCELLED | POSTED, left, 11, 0};
        MPI_Irecv(ibuf[0], 2, MPI_INT, left, 11, MPI_COMM_WORLD, &r[0]);
        MPI_Cancel(&r[0]);
        MPI_Wait(&r[0], &st);
        MPI_Test_cancelled(&st, &flag);
        mt_check(flag, "the receive was not cancelled");
        call("wait", 1);
        done(&w);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* 10. */
    {
        want w[2] = {{"ibarrier", POSTED, -1, -1, -1}, {"iallreduce", POSTED, -1, -1, 8}};
        double x = mt_rank, sum = 0;
        MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
        MPI_Iallreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, sts);
        call("waitall", 2);
        done(&w[0]);
        done(&w[1]);
        mt_check(sum == mt_size * (mt_size - 1) / 2.0, "the sum is %g", sum);
    }
    fclose(out);
    if (mt_rank == 0)
        printf("messages: %d ranks\n", mt_size);
    return mt_finish();
}
