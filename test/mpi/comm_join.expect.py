"""Expected regions of comm_join.c: MPI_Comm_join is a collective of no
parent communicator (comm -1) whose intercommunicator has one id on both
processes; the messages over it name the remote rank; MPI_Comm_disconnect
reports the intercommunicator it frees. The messages over the
intercommunicator are in the matrix: rank 0's port number and int to rank
1, rank 1's int back."""

import mpiexpect as m

RANKS = (2,)
# MPICH here (ch4:ucx) cannot join: "MPIDI_UCX_get_local_upids: The function
# is currently not supported with ucx netmod" (no ports, no spawn).
FLAVOURS = ("openmpi",)


def MATRIX(size):
    return {(0, 1): (2, 2 * m.INT), (1, 0): (1, m.INT)}


def expect(rank, size):
    I = m.INT
    calls = [m.send(I, 1, 1)] if rank == 0 else [m.recv(I, 0, 1)]
    calls += [m.coll("comm_join", comm=-1)]
    if rank == 0:
        calls += [m.send(I, 0, 7, "join"), m.recv(I, 0, 8, "join")]
    else:
        calls += [m.recv(I, 0, 7, "join"), m.send(I, 0, 8, "join")]
    calls += [m.coll("comm_disconnect", comm="join")]
    return calls


if __name__ == "__main__":
    m.main(expect)
