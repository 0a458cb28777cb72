"""Expected regions of collectives.c: the same bytes (count x type size) on
every rank, the root for rooted collectives."""

import mpiexpect as m


def expect(rank, size):
    last = size - 1
    calls = [m.barrier()] * 3
    calls += [m.bcast(10 * m.INT, 0)] + [m.bcast(1000 * m.DOUBLE, last)] * 2
    calls += [m.reduce(3 * m.DOUBLE, 0), m.reduce(5 * m.INT, last)]
    calls += [m.allreduce(1 * m.DOUBLE)] * 4 + [m.allreduce(7 * m.INT), m.allreduce(10000 * m.DOUBLE)]
    calls.append(m.barrier())
    return calls


if __name__ == "__main__":
    m.main(expect)
