/*
 * For the call-site test (../callsites.sh): the shared library of helper.c
 * loaded with dlopen after MPI_Init, so its objects join the load map only
 * when its first call site is defined.
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 2) {
        fprintf(stderr, "usage: dlopen_main LIBRARY\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    void (*bcast)(double *, int) = h ? (void (*)(double *, int))dlsym(h, "helper_bcast") : NULL;
    if (!bcast) {
        fprintf(stderr, "dlopen_main: %s\n", dlerror());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double y = 1;
    bcast(&y, 4);
    printf("sum %g\n", y);
    MPI_Finalize();
    return 0;
}
