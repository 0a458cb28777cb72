/* MPI calls from a shared library (see main.c for the markers). */
#include <mpi.h>

#include "helper.h"

void helper_bcast(double *v, int times)
{
    for (int i = 0; i < times; i++)
        MPI_Bcast(v, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); /* site: bcast 4 */
}
