"""Expected regions of coll_global.c: the payload described by the send
arguments, summed over peers for the v and w forms; MPI_IN_PLACE takes it
from the receive side."""

import mpiexpect as m

RANKS = (1, 2, 4, 8)


def expect(rank, size):
    I, D = m.INT, m.DOUBLE
    peers = range(size)
    tri = size * (size + 1) // 2
    calls = []
    calls += [m.coll("allgather", 2 * D)] * 2
    calls += [m.coll("allgatherv", (rank + 1) * I)] * 2
    calls += [m.coll("alltoall", 2 * I * size)] * 2
    calls += [m.coll("alltoallv", tri * I), m.coll("alltoallv", sum(rank + j + 1 for j in peers) * I)]
    calls += [m.coll("alltoallw", sum(I if j % 2 == 0 else 2 * D for j in peers))]
    calls += [m.coll("alltoallw", sum(I if (rank + j) % 2 == 0 else 2 * D for j in peers))]
    calls += [m.coll("reduce_scatter", tri * I)] * 2
    calls += [m.coll("reduce_scatter_block", 2 * I * size)] * 2
    calls += [m.coll("scan", 3 * I)] * 2 + [m.coll("exscan", 2 * D)] * 2
    calls += [m.allreduce(5 * I), m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
