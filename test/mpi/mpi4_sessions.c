/*
 * MPI 4.0 sessions without MPI_Init (MPICH 4.0; Open MPI 4.1 has none), so
 * without MPI_COMM_WORLD: the run is recorded from MPI_Session_init to
 * MPI_Session_finalize, and the ranks are those of mpi://WORLD.
 *   1. MPI_Session_init, MPI_Group_from_session_pset("mpi://WORLD") and
 *      MPI_Comm_create_from_group (tag "mpi4_sessions.world"): "world";
 *   2. on it a ring of MPI_Isend / MPI_Recv / MPI_Wait (3 ints, tag 5; a
 *      single rank is its own neighbour: MPICH 4.0.2 crashes in a blocking
 *      MPI_Send to itself on a communicator of a session), MPI_Allreduce
 *      (1 double), MPI_Bcast (2 ints from rank 0);
 *   3. from the group of the even ranks, twice with one tag
 *      ("mpi4_sessions.evens"), "evens:1" and "evens:2", an MPI_Barrier on
 *      each (odd ranks take no part);
 *   4. MPI_Group_from_session_pset("mpi://SELF") and a communicator from
 *      it, "self:R" on rank R, an MPI_Allreduce (1 int) on it;
 *   5. MPI_Comm_free of them all, MPI_Session_finalize.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mpitest.h"

/* mpitest.h's checks (its mt_init and mt_finish are not for a program
 * that starts with a session). */
#define check(ok, what, got) mt_check((ok), "%s: %ld", (what), (long)(got))

int main(void)
{
    /* 1. */
    MPI_Session session;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
    MPI_Group world_group;
    MPI_Group_from_session_pset(session, "mpi://WORLD", &world_group);
    int n = 0;
    MPI_Group_rank(world_group, &mt_rank);
    MPI_Group_size(world_group, &n);
    MPI_Comm world;
    MPI_Comm_create_from_group(world_group, "mpi4_sessions.world", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &world);
    int cr = -1;
    MPI_Comm_rank(world, &cr);
    check(cr == mt_rank, "rank in world", cr);
    long sum = 0;

    /* 2. */
    const int right = (mt_rank + 1) % n, left = (mt_rank + n - 1) % n;
    int out3[3] = {mt_rank, 7, 8}, in3[3] = {-1, -1, -1};
    MPI_Request rq;
    MPI_Isend(out3, 3, MPI_INT, right, 5, world, &rq);
    MPI_Recv(in3, 3, MPI_INT, left, 5, world, MPI_STATUS_IGNORE);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    check(in3[0] == left && in3[2] == 8, "ring delivered", in3[0]);
    double d = mt_rank, dsum = 0;
    MPI_Allreduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, world);
    check(dsum == n * (n - 1) / 2, "allreduce", (long)dsum);
    int b2[2] = {0, 0};
    if (mt_rank == 0)
        b2[0] = 11, b2[1] = 12;
    MPI_Bcast(b2, 2, MPI_INT, 0, world);
    check(b2[1] == 12, "bcast", b2[1]);
    sum += in3[0] + (long)dsum + b2[0];

    /* 3. */
    int *evens = malloc((size_t)n * sizeof *evens), ne = 0;
    for (int r = 0; r < n; r += 2)
        evens[ne++] = r;
    MPI_Group even_group;
    MPI_Group_incl(world_group, ne, evens, &even_group);
    free(evens);
    MPI_Comm even1 = MPI_COMM_NULL, even2 = MPI_COMM_NULL;
    if (mt_rank % 2 == 0) {
        MPI_Comm_create_from_group(even_group, "mpi4_sessions.evens", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &even1);
        MPI_Comm_create_from_group(even_group, "mpi4_sessions.evens", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &even2);
        MPI_Barrier(even1);
        MPI_Barrier(even2);
        int es = 0;
        MPI_Comm_size(even2, &es);
        check(es == ne, "evens size", es);
        sum += es;
    }
    MPI_Group_free(&even_group);

    /* 4. */
    MPI_Group self_group;
    MPI_Group_from_session_pset(session, "mpi://SELF", &self_group);
    MPI_Comm self;
    MPI_Comm_create_from_group(self_group, "mpi4_sessions.self", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &self);
    int one = 1, ones = 0;
    MPI_Allreduce(&one, &ones, 1, MPI_INT, MPI_SUM, self);
    check(ones == 1, "allreduce on self", ones);
    MPI_Group_free(&self_group);

    /* 5. */
    if (mt_rank % 2 == 0) {
        MPI_Comm_free(&even1);
        MPI_Comm_free(&even2);
    }
    MPI_Comm_free(&self);
    long all = 0;
    MPI_Reduce(&sum, &all, 1, MPI_LONG, MPI_SUM, 0, world);
    if (mt_rank == 0)
        printf("mpi4_sessions: ranks=%d checksum=%ld\n", n, all);
    MPI_Comm_free(&world);
    MPI_Group_free(&world_group);
    MPI_Session_finalize(&session);
    return mt_failures ? 1 : 0;
}
