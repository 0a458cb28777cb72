/*
 * A minimal PMPI tool of the test's own (stacking.sh): it defines the MPI
 * functions examples/halo.c calls, counts the calls it sees per function,
 * and passes every call on to PMPI, as profilers of this kind do. At
 * MPI_Finalize rank 0 prints "tool: N isends" (all ranks), and where
 * STACKING_COUNTS is set each rank writes "function calls" lines to
 * $STACKING_COUNTS.RANK (names as mpiscope's ops: lower case, no MPI_).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { INIT, INIT_THREAD, ISEND, IRECV, WAITALL, BCAST, REDUCE, ALLREDUCE, BARRIER, FINALIZE, N };
static const char *const names[N] = {"init", "init_thread", "isend", "irecv", "waitall",
                                     "bcast", "reduce", "allreduce", "barrier", "finalize"};
static long seen[N];

int MPI_Init(int *argc, char ***argv)
{
    seen[INIT]++;
    return PMPI_Init(argc, argv);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    seen[INIT_THREAD]++;
    return PMPI_Init_thread(argc, argv, required, provided);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    seen[ISEND]++;
    return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request *req)
{
    seen[IRECV]++;
    return PMPI_Irecv(buf, count, type, src, tag, comm, req);
}

int MPI_Waitall(int n, MPI_Request *reqs, MPI_Status *sts)
{
    seen[WAITALL]++;
    return PMPI_Waitall(n, reqs, sts);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    seen[BCAST]++;
    return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Reduce(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    seen[REDUCE]++;
    return PMPI_Reduce(s, r, count, type, op, root, comm);
}

int MPI_Allreduce(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    seen[ALLREDUCE]++;
    return PMPI_Allreduce(s, r, count, type, op, comm);
}

int MPI_Barrier(MPI_Comm comm)
{
    seen[BARRIER]++;
    return PMPI_Barrier(comm);
}

int MPI_Finalize(void)
{
    int rank;
    long total = 0;
    seen[FINALIZE]++;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Reduce(&seen[ISEND], &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        fprintf(stderr, "tool: %ld isends\n", total);
    const char *file = getenv("STACKING_COUNTS");
    if (file && file[0]) {
        char path[4096];
        snprintf(path, sizeof path, "%s.%d", file, rank);
        FILE *f = fopen(path, "w");
        if (f) {
            for (int i = 0; i < N; i++)
                if (seen[i])
                    fprintf(f, "%s %ld\n", names[i], seen[i]);
            fclose(f);
        }
    }
    return PMPI_Finalize();
}
