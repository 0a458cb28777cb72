/*
 * User regions through the C API (include/mpiscope.h: begin/end, the scoped
 * macros) and MPI_Pcontrol, nested so that each region's direct children
 * are known (regions.expect.py, nesting_check.py):
 *
 *   outer  (begin/end)        only child: inner
 *   inner  (MPISCOPE_REGION)  only child: MPI_Allreduce of 3 ints
 *   phase  (MPI_Pcontrol)     children: MPI_Bcast of 2 doubles, scoped
 *   scoped (MPISCOPE_SCOPE)   only child: MPI_Barrier
 *   dyn    (a name in a buffer, ended through another pointer): no child
 *   worker (a second thread, no MPI calls, while the main thread is in
 *          outer)             only child: worker_inner (no child)
 *
 * Other MPI_Pcontrol levels, and levels 1 and -1 without a name, are passed
 * through and make no region. Linked
 * with -lmpiscope-api, it runs the same without the preload library.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "mpiscope.h"
#include "mpitest.h"

#define OUTER 5
#define PHASES 3
#define WORKER 200

static void *worker(void *arg)
{
    volatile double *x = arg;
    for (int i = 0; i < WORKER; i++) {
        mpiscope_region_begin("worker");
        MPISCOPE_REGION("worker_inner") {
            for (int k = 0; k < 100; k++)
                *x += k;
        }
        mpiscope_region_end("worker");
    }
    return NULL;
}

static double phase_step(int i)
{
    double v[2] = {0.0, 0.0};
    if (mt_rank == 0) {
        v[0] = i;
        v[1] = 2.0 * i;
    }
    MPI_Bcast(v, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPISCOPE_SCOPE("scoped");
    MPI_Barrier(MPI_COMM_WORLD);
    return v[0] + v[1];
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    long sum = 0;
    double spin = 0.0;
    pthread_t th;
    int th_ok = pthread_create(&th, NULL, worker, &spin) == 0;
    mt_check(th_ok, "pthread_create");
    for (int i = 0; i < OUTER; i++) {
        mpiscope_region_begin("outer");
        MPISCOPE_REGION("inner") {
            int in[3] = {i, mt_rank, 1}, out[3];
            MPI_Allreduce(in, out, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            mt_check(out[2] == mt_size, "allreduce: %d, expected %d", out[2], mt_size);
            sum += out[0] + out[1];
        }
        mpiscope_region_end("outer");
    }
    if (th_ok)
        pthread_join(th, NULL);
    double total = 0.0;
    for (int i = 0; i < PHASES; i++) {
        MPI_Pcontrol(1, "phase");
        total += phase_step(i);
        MPI_Pcontrol(-1, "phase");
    }
    MPI_Pcontrol(0);
    MPI_Pcontrol(2);
    MPI_Pcontrol(1, (const char *)0);   /* no name: no region */
    MPI_Pcontrol(-1, "");
    char name[16];
    snprintf(name, sizeof name, "d%s", "yn");
    mpiscope_region_begin(name);
    mpiscope_region_end("dyn");
    if (mt_rank == 0)
        printf("sum %ld total %.1f\n", sum, total);
    return mt_finish();
}
