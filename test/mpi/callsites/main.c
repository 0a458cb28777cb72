/*
 * MPI calls on known lines, for the call-site test (../callsites.sh). A
 * comment "site: OP CALLS" marks the line of each call: OP the region's
 * operation, CALLS the calls each rank makes there. The same region is
 * called from two lines (allreduce), and one call is made through a shared
 * library of the test's own (helper.c).
 */
#include <mpi.h>
#include <stdio.h>

#include "helper.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double x = rank + 1, y = 0;
    for (int i = 0; i < 3; i++)
        MPI_Barrier(MPI_COMM_WORLD); /* site: barrier 3 */
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* site: allreduce 1 */
    for (int i = 0; i < 2; i++)
        MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* site: allreduce 2 */
    helper_bcast(&y, 4);
    if (rank == 0)
        printf("sum %g\n", y);
    MPI_Finalize();
    return 0;
}
