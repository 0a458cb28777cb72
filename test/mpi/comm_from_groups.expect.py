"""Expected regions of comm_from_groups.c: MPI_Intercomm_create_from_groups
is a collective of no parent communicator (comm -1) whose
intercommunicator has one id on both ranks, which the calls over it
report."""

import mpiexpect as m

RANKS = (2,)
FLAVOURS = ("mpich",)   # Open MPI 4.1 is MPI 3.1: no MPI_Intercomm_create_from_groups


def expect(rank, size):
    I = m.INT
    return [m.coll("intercomm_create_from_groups", comm=-1), m.barrier("fg"), m.p2p("sendrecv", I, 0, 3, "fg"),
            m.coll("comm_free", comm="fg")]


if __name__ == "__main__":
    m.main(expect)
