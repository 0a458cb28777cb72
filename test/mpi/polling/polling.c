/*
 * Polling counts as waiting (test/mpi/polling.sh): rank 1 sends late to
 * rank 0 (a planted usleep of D ms before each send, ITER times), and rank
 * 0 receives each message in the way the mode says. Each delay starts when
 * rank 0 is ready (it sends rank 1 a word on tag READY first), so that rank
 * 0 waits D ms however late the machine let it come. Every mode named on
 * the command line runs in turn, each on its own tag, so that its calls
 * have region names of their own.
 *
 *   polling D_MS ITER MODE...
 *
 *   recv     MPI_Recv (the blocking form every other mode is compared to)
 *   wait     MPI_Irecv + MPI_Wait
 *   test     MPI_Irecv + a loop of MPI_Test
 *   testany  two MPI_Irecv (tags t and t + 100; rank 1 sends the second
 *            right after the first) + a loop of MPI_Testany until both came
 *   testall  the same two + a loop of MPI_Testall
 *   iprobe   a loop of MPI_Iprobe, then MPI_Recv
 *   improbe  a loop of MPI_Improbe, then MPI_Mrecv
 *
 * Between two polls rank 0 naps NAP_US µs (usleep): a poll loop that
 * leaves the core to others, so that ranks sharing cores with a busy
 * machine are seldom descheduled between polls for long; it also keeps the
 * log's events few. Ranks other than 0 and 1 take no part. It prints one line on rank 0 (the
 * sum of what it received), the same with and without a profiler.
 */
#define _DEFAULT_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAP_US 50
#define READY 99

static const char *const modes[] = {"recv", "wait", "test", "testany", "testall", "iprobe", "improbe"};
#define NMODES (int)(sizeof modes / sizeof *modes)

/* What rank 0 does between two polls. */
static void work(void)
{
    usleep(NAP_US);
}

/* Rank 0's side of one message of mode m on tag `tag`; the sum of what it
 * received. */
static double receive(int m, int tag)
{
    double y[2] = {0, 0};
    MPI_Request r[2];
    MPI_Status st;
    int flag = 0, idx, done = 0;
    switch (m) {
    case 0:
        MPI_Recv(&y[0], 1, MPI_DOUBLE, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    case 1:
        MPI_Irecv(&y[0], 1, MPI_DOUBLE, 1, tag, MPI_COMM_WORLD, &r[0]);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        break;
    case 2:
        MPI_Irecv(&y[0], 1, MPI_DOUBLE, 1, tag, MPI_COMM_WORLD, &r[0]);
        for (MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE); !flag; MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE))
            work();
        break;
    case 3:
        MPI_Irecv(&y[0], 1, MPI_DOUBLE, 1, tag, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&y[1], 1, MPI_DOUBLE, 1, tag + 100, MPI_COMM_WORLD, &r[1]);
        while (done < 2) {
            MPI_Testany(2, r, &idx, &flag, MPI_STATUS_IGNORE);
            done += flag && idx != MPI_UNDEFINED;
            if (!flag)
                work();
        }
        break;
    case 4:
        MPI_Irecv(&y[0], 1, MPI_DOUBLE, 1, tag, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&y[1], 1, MPI_DOUBLE, 1, tag + 100, MPI_COMM_WORLD, &r[1]);
        for (MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE); !flag; MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE))
            work();
        break;
    case 5:
        for (MPI_Iprobe(1, tag, MPI_COMM_WORLD, &flag, &st); !flag; MPI_Iprobe(1, tag, MPI_COMM_WORLD, &flag, &st))
            work();
        MPI_Recv(&y[0], 1, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    case 6: {
        MPI_Message msg;
        for (MPI_Improbe(1, tag, MPI_COMM_WORLD, &flag, &msg, &st); !flag;
             MPI_Improbe(1, tag, MPI_COMM_WORLD, &flag, &msg, &st))
            work();
        MPI_Mrecv(&y[0], 1, MPI_DOUBLE, &msg, MPI_STATUS_IGNORE);
        break;
    }
    }
    return y[0] + y[1];
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int ok = argc >= 4 && size >= 2;
    for (int a = 3; ok && a < argc; a++) {
        int m = 0;
        while (m < NMODES && strcmp(argv[a], modes[m]) != 0)
            m++;
        ok = m < NMODES;
    }
    if (!ok) {
        if (rank == 0)
            fprintf(stderr, "usage: polling D_MS ITER MODE... (at least 2 ranks; modes: recv wait test testany "
                            "testall iprobe improbe)\n");
        MPI_Finalize();
        return 2;
    }
    int d = atoi(argv[1]), iter = atoi(argv[2]);
    double sum = 0, x = 1;
    for (int a = 3; a < argc; a++) {
        int m = 0;
        while (strcmp(argv[a], modes[m]) != 0)
            m++;
        int tag = 10 + m, two = m == 3 || m == 4;
        for (int i = 0; i < iter; i++) {
            if (rank == 0) {
                MPI_Send(&x, 1, MPI_DOUBLE, 1, READY, MPI_COMM_WORLD);
                sum += receive(m, tag);
            } else if (rank == 1) {
                double ready;
                MPI_Recv(&ready, 1, MPI_DOUBLE, 0, READY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                usleep((useconds_t)d * 1000u);
                MPI_Send(&x, 1, MPI_DOUBLE, 0, tag, MPI_COMM_WORLD);
                if (two)
                    MPI_Send(&x, 1, MPI_DOUBLE, 0, tag + 100, MPI_COMM_WORLD);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("polling: ranks=%d iter=%d modes=%d received=%.0f\n", size, iter, argc - 3, sum);
    MPI_Finalize();
    return 0;
}
