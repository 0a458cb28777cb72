"""Expected regions of halo.c."""

import mpiexpect as m

GHOST, STEPS, EVERY = 3, 30, 5


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    ghost = GHOST * m.DOUBLE
    calls = [m.bcast(4 * m.DOUBLE, 0)]
    for step in range(1, STEPS + 1):
        calls += [m.irecv(left, 1), m.irecv(right, 2)]
        calls += [m.isend(ghost, right, 1), m.isend(ghost, left, 2)]
        calls.append(m.waitall(m.rreq(ghost, left, 1), m.rreq(ghost, right, 2),
                               m.sreq(ghost, right, 1), m.sreq(ghost, left, 2)))
        if step % EVERY == 0:
            calls.append(m.allreduce(m.DOUBLE))
    calls += [m.reduce(2 * m.DOUBLE, 0), m.barrier()]
    return calls


if __name__ == "__main__":
    m.main(expect)
