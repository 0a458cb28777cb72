/*
 * An MPI 4.0 session first, MPI_Init after it (MPICH 4.0; Open MPI 4.1 has
 * no sessions): the run is recorded from MPI_Session_init, which began it
 * over mpi://WORLD; MPI_Init is a call of the run, after which
 * MPI_COMM_WORLD and MPI_COMM_SELF have their ids 0 and 1; the session is
 * finalized first, so the log ends at MPI_Finalize.
 *   1. MPI_Session_init, MPI_Group_from_session_pset("mpi://WORLD"),
 *      MPI_Comm_create_from_group (tag "mpi4_sessions_init"): "sworld";
 *      MPI_Barrier on it;
 *   2. MPI_Init; MPI_Bcast on MPI_COMM_WORLD (1 int from rank 0),
 *      MPI_Allreduce (1 int) on MPI_COMM_SELF and (1 double) on "sworld";
 *   3. MPI_Comm_free of "sworld", MPI_Session_finalize, MPI_Reduce (1
 *      long) on MPI_COMM_WORLD, MPI_Finalize.
 */
#include <stdio.h>

#include "mpitest.h"

/* mpitest.h's checks (its mt_init and mt_finish are not for a program
 * that starts with a session). */
#define check(ok, what, got) mt_check((ok), "%s: %ld", (what), (long)(got))

int main(int argc, char **argv)
{
    /* 1. */
    MPI_Session session;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
    MPI_Group group;
    MPI_Group_from_session_pset(session, "mpi://WORLD", &group);
    MPI_Comm sworld;
    MPI_Comm_create_from_group(group, "mpi4_sessions_init", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &sworld);
    MPI_Barrier(sworld);

    /* 2. */
    MPI_Init(&argc, &argv);
    int n = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int b = mt_rank == 0 ? 7 : 0;
    MPI_Bcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD);
    check(b == 7, "bcast", b);
    int one = 1, ones = 0;
    MPI_Allreduce(&one, &ones, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
    check(ones == 1, "allreduce on self", ones);
    double d = mt_rank, ds = 0;
    MPI_Allreduce(&d, &ds, 1, MPI_DOUBLE, MPI_SUM, sworld);
    check(ds == n * (n - 1) / 2, "allreduce on sworld", (long)ds);

    /* 3. */
    MPI_Comm_free(&sworld);
    MPI_Group_free(&group);
    MPI_Session_finalize(&session);
    long sum = b + ones + (long)ds, all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("mpi4_sessions_init: ranks=%d checksum=%ld\n", n, all);
    MPI_Finalize();
    return mt_failures ? 1 : 0;
}
