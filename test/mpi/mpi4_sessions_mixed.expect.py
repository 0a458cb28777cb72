"""Expected regions of mpi4_sessions_mixed.c: with MPI_Init, the session
calls are calls of the run (MPI_Init and MPI_Finalize are left out, as
everywhere); the calls after MPI_Finalize on the session's communicator are
recorded, since the run ends at the MPI_Session_finalize that closes the
last session. MPI_COMM_WORLD keeps id 0; the communicator made from the
session's mpi://WORLD group is another, and its duplicate a third."""

import mpiexpect as m

FLAVOURS = ("mpich",)
RANKS = (1, 2, 4)


def expect(rank, size):
    I, D = m.INT, m.DOUBLE
    calls = [m.bcast(I, 0)]
    calls += [m.region("session_init", m.OTHER), m.region("group_from_session_pset", m.OTHER)]
    calls += [m.coll("comm_create_from_group", comm=-1), m.allreduce(I, "sworld")]
    calls += [m.coll("comm_dup", comm="sworld"), m.barrier("dup"), m.coll("comm_free", comm="dup")]
    calls += [m.allreduce(D)]
    calls += [m.allreduce(2 * I, "sworld"), m.reduce(8, 0, "sworld"), m.coll("comm_free", comm="sworld")]
    calls += [m.region("session_finalize", m.OTHER)]
    return calls


if __name__ == "__main__":
    m.main(expect)
