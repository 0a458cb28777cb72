"""Expected regions of mpi4_sessions_init.c: MPI_Session_init before
MPI_Init begins the run (recorded, kind other); MPI_Init (left out, as
everywhere) is a call of it, after which MPI_COMM_WORLD is comm 0 and
MPI_COMM_SELF comm 1; the calls between the session's finalization and
MPI_Finalize are recorded."""

import mpiexpect as m

FLAVOURS = ("mpich",)
RANKS = (1, 2, 4)


def expect(rank, size):
    I, D = m.INT, m.DOUBLE
    calls = [m.region("session_init", m.OTHER), m.region("group_from_session_pset", m.OTHER)]
    calls += [m.coll("comm_create_from_group", comm=-1), m.barrier("sworld")]
    calls += [m.bcast(I, 0), m.allreduce(I, m.SELF), m.allreduce(D, "sworld")]
    calls += [m.coll("comm_free", comm="sworld"), m.region("session_finalize", m.OTHER), m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
