"""Expected regions of mpi4py_calls.py: the buffer methods (Send, Recv,
Isend, Irecv, Waitall, Bcast, Allreduce, Barrier) are one MPI call each;
pickle-based comm.send is one MPI_Send of the pickled bytes, comm.recv one
MPI_Mprobe and one MPI_Mrecv of them, comm.bcast one MPI_Bcast of the size
(an int) and one of the pickled bytes. The pickled sizes are computed here
with the protocol the script fixes, so every byte count is asserted."""

import os
import pickle
import sys

import mpiexpect as m

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi4py_calls as prog  # noqa: E402  (defines the objects; imports mpi4py only in main)

FLAVOURS = ("openmpi",)


def pickled(obj):
    return len(pickle.dumps(obj, prog.PROTOCOL))


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    I, D = m.INT, m.DOUBLE
    calls = [m.send(8 * D, right, 1), m.recv(8 * D, left, 1)] * prog.ROUNDS
    calls += [m.irecv(left, 2), m.isend(4 * I, right, 2), m.waitall(m.rreq(4 * I, left, 2), m.sreq(4 * I, right, 2))]
    calls += [m.bcast(10 * I, 0), m.allreduce(4 * D), m.barrier()]
    calls += [m.send(pickled(prog.message(rank)), right, 3)]
    calls += [m.p2p(op, pickled(prog.message(left)), left, 3) for op in ("mprobe", "mrecv")]
    calls += [m.bcast(I, 0), m.bcast(pickled(prog.announcement()), 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
