/*
 * Time of single MPI calls that cost MPI itself little: to and from
 * MPI_PROC_NULL, MPI_Allreduce on MPI_COMM_SELF, MPI_Waitall on 8 requests
 * already complete (sends to MPI_PROC_NULL: one handle shared by all 8), and
 * MPI_Waitall on 4 receives and 4 sends of a rank to itself (8 handles), and
 * MPI_Test polling a receive that is not there yet (test_pending), and
 * MPI_Waitany over 64 receives of which one has arrived (waitany). Each call is timed on its own with a clock read either
 * side (CLOCK_MONOTONIC), summed over n iterations after n / 100 of warm-up;
 * the calls around it that it needs (the MPI_Irecv before an MPI_Wait, the
 * MPI_Wait after an MPI_Isend) stay outside the timed segment. Prints one
 * "ns_<call> X" line per call (mean ns per call, the clock reads included:
 * their cost cancels in with - without). One rank.
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#include "bench_util.h"

enum { SEND, RECV, ISEND, IRECV, WAIT, TEST, TEST_PENDING, WAITANY, ALLREDUCE, SENDRECV, WAITALL, WAITALL_SELF,
       NCALLS };
static const char *const names[NCALLS] = {
    "send", "recv", "isend", "irecv", "wait", "test", "test_pending", "waitany", "allreduce", "sendrecv",
    "waitall", "waitall_self",
};

/* waitany: receives from itself, one per tag, reposted as each completes;
 * each call sends to one of them (untimed), then waits for any. */
#define ANY_REQUESTS 64
static MPI_Request any_req[ANY_REQUESTS];
static char any_buf[ANY_REQUESTS][8];
static int any_next, any_posted;

/* The receive test_pending polls: posted once, from itself, completed
 * after the last poll. */
static MPI_Request pending = MPI_REQUEST_NULL;
static char pending_buf[8];
static const char sbuf_last[8];

static inline long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#define TIMED(call)                       \
    do {                                  \
        long long t_a = now_ns();         \
        call;                             \
        d = now_ns() - t_a;               \
    } while (0)

/* ns of one call of kind c, with what it needs around it untimed. */
static long long once(int c)
{
    static char sbuf[8], rbuf[8];
    static double x = 1, y;
    const int p = MPI_PROC_NULL;
    const MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request req[8];
    int flag = 0;
    long long d = 0;
    switch (c) {
    case SEND:
        TIMED(MPI_Send(sbuf, 8, MPI_CHAR, p, 0, w));
        break;
    case RECV:
        TIMED(MPI_Recv(rbuf, 8, MPI_CHAR, p, 0, w, MPI_STATUS_IGNORE));
        break;
    case ISEND:
        TIMED(MPI_Isend(sbuf, 8, MPI_CHAR, p, 0, w, &req[0]));
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        break;
    case IRECV:
        TIMED(MPI_Irecv(rbuf, 8, MPI_CHAR, p, 0, w, &req[0]));
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        break;
    case WAIT:
        MPI_Irecv(rbuf, 8, MPI_CHAR, p, 0, w, &req[0]);
        TIMED(MPI_Wait(&req[0], MPI_STATUS_IGNORE));
        break;
    case TEST:
        MPI_Irecv(rbuf, 8, MPI_CHAR, p, 0, w, &req[0]);
        TIMED(MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE));
        if (!flag)
            MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        break;
    case TEST_PENDING:
        if (pending == MPI_REQUEST_NULL)
            MPI_Irecv(pending_buf, 8, MPI_CHAR, 0, 99, MPI_COMM_SELF, &pending);
        TIMED(MPI_Test(&pending, &flag, MPI_STATUS_IGNORE));
        break;
    case WAITANY: {
        if (!any_posted) {
            for (int k = 0; k < ANY_REQUESTS; k++)
                MPI_Irecv(any_buf[k], 8, MPI_CHAR, 0, k, MPI_COMM_SELF, &any_req[k]);
            any_posted = 1;
        }
        int k = any_next, idx;
        any_next = (any_next + 1) % ANY_REQUESTS;
        MPI_Send(sbuf, 8, MPI_CHAR, 0, k, MPI_COMM_SELF);
        TIMED(MPI_Waitany(ANY_REQUESTS, any_req, &idx, MPI_STATUS_IGNORE));
        MPI_Irecv(any_buf[idx], 8, MPI_CHAR, 0, idx, MPI_COMM_SELF, &any_req[idx]);
        break;
    }
    case ALLREDUCE:
        TIMED(MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF));
        break;
    case SENDRECV:
        TIMED(MPI_Sendrecv(sbuf, 8, MPI_CHAR, p, 0, rbuf, 8, MPI_CHAR, p, 0, w, MPI_STATUS_IGNORE));
        break;
    case WAITALL:
        for (int k = 0; k < 4; k++) {
            MPI_Irecv(rbuf, 8, MPI_CHAR, p, k, w, &req[k]);
            MPI_Isend(sbuf, 8, MPI_CHAR, p, k, w, &req[4 + k]);
        }
        TIMED(MPI_Waitall(8, req, MPI_STATUSES_IGNORE));
        break;
    case WAITALL_SELF:
        /* Messages to itself: 8 distinct handles (MPI gives the sends to
         * MPI_PROC_NULL above one shared handle), the 4 sends eager. */
        for (int k = 0; k < 4; k++) {
            MPI_Irecv(rbuf, 8, MPI_CHAR, 0, k, MPI_COMM_SELF, &req[k]);
            MPI_Isend(sbuf, 8, MPI_CHAR, 0, k, MPI_COMM_SELF, &req[4 + k]);
        }
        TIMED(MPI_Waitall(8, req, MPI_STATUSES_IGNORE));
        break;
    }
    return d;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long n = bench_count(argc, argv, 2000000);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int c = 0; c < NCALLS; c++) {
        long long sum = 0;
        for (long i = -n / 100; i < n; i++) {
            long long d = once(c);
            if (i >= 0)
                sum += d;
        }
        if (c == WAITANY)
            for (int k = 0; k < ANY_REQUESTS; k++) {
                MPI_Send(sbuf_last, 8, MPI_CHAR, 0, k, MPI_COMM_SELF);
                MPI_Wait(&any_req[k], MPI_STATUS_IGNORE);
            }
        if (c == TEST_PENDING) {
            MPI_Send(sbuf_last, 8, MPI_CHAR, 0, 99, MPI_COMM_SELF);
            MPI_Wait(&pending, MPI_STATUS_IGNORE);
        }
        if (rank == 0)
            printf("ns_%s %.3f\n", names[c], (double)sum / (double)n);
    }
    MPI_Finalize();
    return 0;
}
