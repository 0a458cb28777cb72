"""Expected regions of mpi4_sessions.c: a program without MPI_Init is
recorded from MPI_Session_init to MPI_Session_finalize, both recorded
(kind other), as MPI_Group_from_session_pset is; each of its ranks writes
the log of its rank in mpi://WORLD. MPI_Comm_create_from_group is a
collective without a parent (comm -1); the communicators it makes have ids
the same on all their members and different from every other's, also for
two made from one group with one tag (evens:1, evens:2) and for each rank's
mpi://SELF."""

import mpiexpect as m

FLAVOURS = ("mpich",)
RANKS = (1, 2, 4)


def expect(rank, size):
    I, D = m.INT, m.DOUBLE
    right, left = (rank + 1) % size, (rank - 1) % size
    calls = [m.region("session_init", m.OTHER), m.region("group_from_session_pset", m.OTHER)]
    calls += [m.coll("comm_create_from_group", comm=-1)]
    calls += [m.isend(3 * I, right, 5, "world"), m.recv(3 * I, left, 5, "world")]
    calls += [m.wait(m.sreq(3 * I, right, 5, "world"))]
    calls += [m.allreduce(D, "world"), m.bcast(2 * I, 0, "world")]
    if rank % 2 == 0:
        calls += [m.coll("comm_create_from_group", comm=-1)] * 2
        calls += [m.barrier("evens:1"), m.barrier("evens:2")]
    self = m.sym("self", rank)
    calls += [m.region("group_from_session_pset", m.OTHER), m.coll("comm_create_from_group", comm=-1)]
    calls += [m.allreduce(I, self)]
    if rank % 2 == 0:
        calls += [m.coll("comm_free", comm="evens:1"), m.coll("comm_free", comm="evens:2")]
    calls += [m.coll("comm_free", comm=self), m.reduce(8, 0, "world"), m.coll("comm_free", comm="world")]
    calls += [m.region("session_finalize", m.OTHER)]
    return calls


if __name__ == "__main__":
    m.main(expect)
