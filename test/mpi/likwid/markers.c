/*
 * An MPI program instrumented with LIKWID's marker API (built with
 * -DLIKWID_PERFMON -llikwid). Per rank: likwid:triad 5 calls, likwid:outer
 * 1, likwid:inner 3 (nested in outer), likwid:threaded 8 (4 on each of two
 * threads); a stop of a region never started is no call. With the argument
 * "noclose" the marker API is not closed.
 */
#include <likwid-marker.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define N 4096

static double a[N], b[N], c[N];

static void triad(double s)
{
    for (int i = 0; i < N; i++)
        a[i] = b[i] + s * c[i];
}

static void *worker(void *arg)
{
    (void)arg;
    LIKWID_MARKER_THREADINIT;
    for (int k = 0; k < 4; k++) {
        LIKWID_MARKER_START("threaded");
        LIKWID_MARKER_STOP("threaded");
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    LIKWID_MARKER_INIT;
    LIKWID_MARKER_REGISTER("triad");
    for (int i = 0; i < N; i++)
        b[i] = i, c[i] = 1.0 / (i + 1);
    for (int k = 0; k < 5; k++) {
        LIKWID_MARKER_START("triad");
        triad(k);
        LIKWID_MARKER_STOP("triad");
    }
    LIKWID_MARKER_START("outer");
    for (int k = 0; k < 3; k++) {
        LIKWID_MARKER_START("inner");
        triad(k);
        LIKWID_MARKER_STOP("inner");
    }
    LIKWID_MARKER_STOP("outer");
    LIKWID_MARKER_STOP("never-started");
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += a[i];
    double total = 0;
    MPI_Allreduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (argc < 2 || strcmp(argv[1], "noclose") != 0)
        LIKWID_MARKER_CLOSE;
    if (rank == 0)
        printf("checksum %.6e\n", total);
    MPI_Finalize();
    return 0;
}
