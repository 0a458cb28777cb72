/*
 * MPI_Init and an MPI 4.0 session in one program (MPICH 4.0; Open MPI 4.1
 * has no sessions): the run is recorded from MPI_Init; the session calls
 * are calls of the run, and since the session outlives MPI_Finalize the
 * log ends at MPI_Session_finalize.
 *   1. MPI_Init, MPI_Bcast on MPI_COMM_WORLD (1 int from rank 0);
 *   2. MPI_Session_init, MPI_Group_from_session_pset("mpi://WORLD"),
 *      MPI_Comm_create_from_group (tag "mpi4_sessions_mixed"): "sworld";
 *      MPI_Allreduce (1 int) on it; MPI_Comm_dup of it, "dup", an
 *      MPI_Barrier on that and its MPI_Comm_free; MPI_Allreduce (1 double)
 *      on MPI_COMM_WORLD;
 *   3. MPI_Finalize, then on "sworld" an MPI_Allreduce (2 ints) and an
 *      MPI_Reduce (1 long) to rank 0, MPI_Comm_free, MPI_Session_finalize.
 */
#include <stdio.h>

#include "mpitest.h"

/* mpitest.h's checks (its mt_init and mt_finish are not for a program
 * that starts with a session). */
#define check(ok, what, got) mt_check((ok), "%s: %ld", (what), (long)(got))

int main(int argc, char **argv)
{
    /* 1. */
    MPI_Init(&argc, &argv);
    int n = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int b = mt_rank == 0 ? 42 : 0;
    MPI_Bcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD);
    check(b == 42, "bcast", b);
    long sum = b;

    /* 2. */
    MPI_Session session;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
    MPI_Group group;
    MPI_Group_from_session_pset(session, "mpi://WORLD", &group);
    MPI_Comm sworld;
    MPI_Comm_create_from_group(group, "mpi4_sessions_mixed", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &sworld);
    int sr = -1;
    MPI_Comm_rank(sworld, &sr);
    check(sr == mt_rank, "rank in the session's world", sr);
    int x = mt_rank, xs = 0;
    MPI_Allreduce(&x, &xs, 1, MPI_INT, MPI_SUM, sworld);
    check(xs == n * (n - 1) / 2, "allreduce on sworld", xs);
    MPI_Comm dup;
    MPI_Comm_dup(sworld, &dup);
    MPI_Barrier(dup);
    MPI_Comm_free(&dup);
    double d = 1, ds = 0;
    MPI_Allreduce(&d, &ds, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    check(ds == n, "allreduce on world", (long)ds);
    sum += xs + (long)ds;

    /* 3. */
    MPI_Finalize();
    int two[2] = {mt_rank, 1}, twos[2] = {0, 0};
    MPI_Allreduce(two, twos, 2, MPI_INT, MPI_MAX, sworld);
    check(twos[0] == n - 1 && twos[1] == 1, "allreduce after MPI_Finalize", twos[0]);
    sum += twos[0];
    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, sworld);
    if (mt_rank == 0)
        printf("mpi4_sessions_mixed: ranks=%d checksum=%ld\n", n, all);
    MPI_Comm_free(&sworld);
    MPI_Group_free(&group);
    MPI_Session_finalize(&session);
    return mt_failures ? 1 : 0;
}
