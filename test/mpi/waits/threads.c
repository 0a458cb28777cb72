/*
 * A planted delay on a second thread (test/mpi/waits.sh, case threads):
 * MPI_THREAD_MULTIPLE on 2 ranks. Rank 1's second thread, ITER times,
 * sleeps D ms, then MPI_Send to rank 0 (tag 7); rank 1's first thread
 * starts it, asks its rank, and joins it. Rank 0 MPI_Recv's each message,
 * then sleeps D / 4 ms, so that it is the last into MPI_Finalize. The
 * critical path runs from rank 0's MPI_Finalize back through its waiting
 * receives to rank 1's second thread, whose sleeps are the path.
 *
 *   threads D_MS ITER
 *
 * Exit 77 (skipped) when the MPI library gives less than
 * MPI_THREAD_MULTIPLE. It prints one line on rank 0.
 */
#define _DEFAULT_SOURCE
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int d_ms, iter;

static void *late_sender(void *arg)
{
    (void)arg;
    for (int i = 0; i < iter; i++) {
        usleep((useconds_t)d_ms * 1000);
        MPI_Send(&i, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided < MPI_THREAD_MULTIPLE || size != 2 || argc != 3) {
        if (rank == 0)
            fprintf(stderr, "threads: needs MPI_THREAD_MULTIPLE (got %d), 2 ranks (got %d), D_MS ITER\n",
                    provided, size);
        MPI_Finalize();
        return 77;
    }
    d_ms = atoi(argv[1]);
    iter = atoi(argv[2]);
    long sum = 0;
    if (rank == 0) {
        for (int i = 0; i < iter; i++) {
            int v = -1;
            MPI_Recv(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += v;
        }
        usleep((useconds_t)d_ms * 250);
        printf("threads: received %d messages, sum %ld\n", iter, sum);
    } else {
        pthread_t t;
        if (pthread_create(&t, NULL, late_sender, NULL) != 0)
            MPI_Abort(MPI_COMM_WORLD, 1);
        int me = -1;
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
        pthread_join(t, NULL);
    }
    MPI_Finalize();
    return 0;
}
