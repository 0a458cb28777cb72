"""Expected regions of coll_rooted.c: the payload described by the
significant arguments; MPI_IN_PLACE takes it from the receive side."""

import mpiexpect as m


def expect(rank, size):
    calls = []
    for root in (0, size - 1):
        is_root = rank == root
        calls += [m.coll("gather", 2 * m.INT, root)] * 2
        calls += [m.coll("gatherv", (rank + 1) * m.INT, root)] * 2
        scatter = 3 * m.DOUBLE * size if is_root else 3 * m.DOUBLE
        calls += [m.coll("scatter", scatter, root)] * 2
        scatterv = size * (size + 1) // 2 * m.SHORT if is_root else (rank + 1) * m.SHORT
        calls += [m.coll("scatterv", scatterv, root)] * 2
        calls += [m.reduce(4 * m.INT, root)]
    calls += [m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
