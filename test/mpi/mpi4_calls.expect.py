"""Expected regions of mpi4_calls.c: a large-count (_c) call is recorded
under the op of its base function with the same fields; MPI_Isendrecv and
MPI_Isendrecv_replace report the send side, at the call and at
completion."""

import mpiexpect as m

FLAVOURS = ("mpich",)


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    I, D = m.INT, m.DOUBLE
    calls = [m.irecv(left, 1), m.send(5 * D, right, 1), m.wait(m.rreq(5 * D, left, 1))]
    calls += [m.isend(3 * I, right, 2), m.recv(3 * I, left, 2), m.wait(m.sreq(3 * I, right, 2))]
    calls += [m.bcast(3 * I, 0), m.allreduce(4 * D), m.coll("alltoallv", size * (size + 1) // 2 * I)]
    calls += [m.p2p("isendrecv", 2 * I, right, 3), m.wait(m.Req("isendrecv", 2 * I, right, 3))]
    calls += [m.p2p("isendrecv_replace", 4 * m.SHORT, right, 4)]
    calls += [m.wait(m.Req("isendrecv_replace", 4 * m.SHORT, right, 4))]
    calls += [m.coll("comm_idup_with_info"), m.wait(m.creq("comm_idup_with_info", -1))]
    calls += [m.barrier("dup"), m.coll("comm_free", comm="dup"), m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
