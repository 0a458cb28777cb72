"""Expected regions of p2p_datatypes.c: bytes = count x MPI_Type_size for
sends and collectives, and the bytes that arrived for receives."""

import mpiexpect as m

CONTIG, VECTOR, STRUCT = 3 * m.INT, 8 * m.DOUBLE, m.INT + 2 * m.DOUBLE + m.CHAR


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    calls = []
    calls += [m.isend(2 * CONTIG, right, 70), m.recv(2 * CONTIG, left, 70), m.wait(m.sreq(2 * CONTIG, right, 70))]
    for tag in (71, 72):
        calls += [m.isend(VECTOR, right, tag), m.recv(VECTOR, left, tag), m.wait(m.sreq(VECTOR, right, tag))]
    calls += [m.irecv(left, 73), m.send(3 * STRUCT, right, 73), m.wait(m.rreq(3 * STRUCT, left, 73))]
    calls += [m.bcast(2 * STRUCT, 0), m.coll("allgather", CONTIG)]
    calls += [m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
