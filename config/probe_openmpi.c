/* config/probe.sh: an Open MPI program, compiled and linked by the Open MPI
 * compiler wrapper (MPICC_OPENMPI). */
#include <mpi.h>
#ifndef OPEN_MPI
#error "this compiler wrapper's <mpi.h> is not Open MPI's"
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    return MPI_Finalize();
}
