/*
 * A minimal PMPI tool of the test's own (stacking.sh): it defines MPI_Init,
 * MPI_Isend and MPI_Finalize, counts the sends, and passes every call on to
 * PMPI, as profilers of this kind do. At MPI_Finalize rank 0 prints
 * "tool: N isends" (all ranks).
 */
#include <mpi.h>
#include <stdio.h>

static long sends;

int MPI_Init(int *argc, char ***argv)
{
    return PMPI_Init(argc, argv);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    sends++;
    return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}

int MPI_Finalize(void)
{
    int rank;
    long total = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Reduce(&sends, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        fprintf(stderr, "tool: %ld isends\n", total);
    return PMPI_Finalize();
}
