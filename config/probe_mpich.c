/* config/probe.sh: an MPI program of the MPICH ABI, compiled and linked by
 * the MPICH compiler wrapper (MPICC_MPICH). */
#include <mpi.h>
#ifndef MPICH_VERSION
#error "this compiler wrapper's <mpi.h> is not MPICH's"
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    return MPI_Finalize();
}
