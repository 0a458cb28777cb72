/*
 * MPI_THREAD_MULTIPLE: THREADS threads on every rank exchange MESSAGES
 * messages each with the same thread of the partner rank (rank ^ 1; a rank
 * without one is its own partner), thread t with tag t: MPI_Isend, MPI_Recv,
 * MPI_Wait per message, all threads at once. Then each thread posts BURST
 * MPI_Isend to MPI_PROC_NULL (tag t) into an array of its own and completes
 * them with one MPI_Waitall: the MPI library gives all those requests of
 * all threads one handle value, so that they share its entries while the
 * threads add, find and erase them at once. Then each thread runs an
 * MPI_Allreduce on a communicator of its own (MPI_Comm_dup'ed by the main
 * thread), so that collectives run concurrently on different
 * communicators. Every call must be counted exactly once, on the thread
 * that made it.
 */
#include <pthread.h>
#include <stdlib.h>

#include "mpitest.h"

enum { THREADS = 4, MESSAGES = 1000, BURST = 300 };

struct job {
    int thread, partner;
    MPI_Comm comm;
    long received;
    int errors;
};

static void *exchange(void *arg)
{
    struct job *j = arg;
    for (int i = 0; i < MESSAGES; i++) {
        int out = mt_rank * 1000000 + j->thread * 10000 + i, in = -1;
        MPI_Request req;
        MPI_Isend(&out, 1, MPI_INT, j->partner, j->thread, MPI_COMM_WORLD, &req);
        MPI_Recv(&in, 1, MPI_INT, j->partner, j->thread, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (in != j->partner * 1000000 + j->thread * 10000 + i)
            j->errors++;
        j->received += in % 10000;
    }
    int one = 1, total = 0;
    MPI_Request burst[BURST];
    for (int i = 0; i < BURST; i++)
        MPI_Isend(&one, 1, MPI_INT, MPI_PROC_NULL, j->thread, MPI_COMM_WORLD, &burst[i]);
    MPI_Waitall(BURST, burst, MPI_STATUSES_IGNORE);
    MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, j->comm);
    if (total != mt_size)
        j->errors++;
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mt_size);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int partner = (mt_rank ^ 1) < mt_size ? mt_rank ^ 1 : mt_rank;

    struct job jobs[THREADS];
    pthread_t tids[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (struct job){.thread = t, .partner = partner, .received = 0, .errors = 0};
        MPI_Comm_dup(MPI_COMM_WORLD, &jobs[t].comm);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_create(&tids[t], NULL, exchange, &jobs[t]);
    long sum = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(tids[t], NULL);
        mt_check(jobs[t].errors == 0, "thread %d: %d wrong messages", t, jobs[t].errors);
        sum += jobs[t].received;
        MPI_Comm_free(&jobs[t].comm);
    }

    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("p2p_threads: ranks=%d threads=%d messages=%d checksum=%ld\n", mt_size, THREADS, MESSAGES, all);
    return mt_finish();
}
