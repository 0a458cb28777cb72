/*
 * GPU work on every rank through the fake libcupti (fake_hooks.h), with a
 * known pattern that cupti_check.py expects exactly, per rank:
 *   - "_Z4initPfi" (init(float*, int)) once on stream 7, 50 us, outside
 *     every region;
 *   - 4 x region "step": "_Z7stencilPKfPfi" 2 x on stream 1 and 1 x on
 *     stream 2, 100 us each; a 4096-byte HtoD copy on stream 1 and a
 *     4096-byte DtoH copy on stream 2, 20 us each; then MPI_Barrier;
 *   - NVTX range "solve": "_Z5solvev" 2 x on stream 3, 200 us each, and a
 *     1024-byte memset on stream 3, 10 us;
 *   - "_Z7cleanupv" once on stream 4, 30 us, launched inside MPI_Comm_free
 *     (by an attribute's delete callback);
 *   - one CUPTI overhead record of 5 us;
 *   - rank 0: a copy of each kind 1..10 (HtoD ... PtoP) of 1000 + kind
 *     bytes on stream 5, 5 us each;
 *   - rank 1: 5 records dropped.
 * With the argument "early", first, before MPI_Init: "_Z5earlyv" twice on
 * stream 6 (10 us each), then 300 ms asleep, after which it prints the
 * CPU time the process used meanwhile ("early-cpu-ms N": the buffers that
 * wait for recording to start must not keep a thread spinning).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fake_hooks.h"
#include "mpiscope.h"

static int cleanup(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)val, (void)extra;
    fake_kernel("_Z7cleanupv", 4, 30000);
    return MPI_SUCCESS;
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    double early_cpu = -1;
    if (argc > 1 && strcmp(argv[1], "early") == 0) {
        fake_kernel("_Z5earlyv", 6, 10000);
        fake_kernel("_Z5earlyv", 6, 10000);
        fake_sync();
        double c0 = cpu_ms();
        struct timespec ts = {0, 300000000};
        nanosleep(&ts, NULL);
        early_cpu = cpu_ms() - c0;
    }
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (early_cpu >= 0)
        printf("early-cpu-ms %.1f\n", early_cpu);
    fake_kernel("_Z4initPfi", 7, 50000);
    fake_sync();
    for (int step = 0; step < 4; step++) {
        mpiscope_region_begin("step");
        fake_kernel("_Z7stencilPKfPfi", 1, 100000);
        fake_kernel("_Z7stencilPKfPfi", 2, 100000);
        fake_kernel("_Z7stencilPKfPfi", 1, 100000);
        fake_memcpy(1, 4096, 1, 20000);
        fake_memcpy(2, 4096, 2, 20000);
        fake_sync();
        MPI_Barrier(MPI_COMM_WORLD);
        mpiscope_region_end("step");
    }
    fake_nvtx_push("solve");
    fake_kernel("_Z5solvev", 3, 200000);
    fake_kernel("_Z5solvev", 3, 200000);
    fake_memset(1024, 3, 10000);
    fake_sync();
    fake_nvtx_pop();

    MPI_Comm dup;
    int key;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, cleanup, &key, NULL);
    MPI_Comm_set_attr(dup, key, NULL);
    MPI_Comm_free(&dup);
    MPI_Comm_free_keyval(&key);
    fake_sync();

    fake_overhead(5000);
    if (rank == 0)
        for (int kind = 1; kind <= 10; kind++)
            fake_memcpy(kind, 1000 + (unsigned)kind, 5, 5000);
    if (rank == 1)
        fake_drop(5);
    fake_sync();
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
