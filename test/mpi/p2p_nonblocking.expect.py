"""Expected regions of p2p_nonblocking.c: completion calls name the op that
created their requests, or `mixed`."""

import mpiexpect as m


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    calls = []
    # 1.
    calls += [m.irecv(left, 1), m.isend(16 * m.DOUBLE, right, 1)]
    calls += [m.wait(m.rreq(16 * m.DOUBLE, left, 1)), m.wait(m.sreq(16 * m.DOUBLE, right, 1))]
    # 2.
    calls += [m.irecv(left, 2), m.irecv(right, 3)]
    calls += [m.isend(4 * m.INT, right, 2), m.isend(4 * m.INT, left, 3)]
    calls += [m.waitall(m.rreq(4 * m.INT, left, 2), m.rreq(4 * m.INT, right, 3))]
    calls += [m.waitall(m.sreq(4 * m.INT, right, 2), m.sreq(4 * m.INT, left, 3))]
    # 3.
    for n in (100, 400000, 100):
        calls += [m.irecv(left, 4), m.isend(n * m.CHAR, right, 4)]
        calls += [m.waitall(m.rreq(n * m.CHAR, left, 4), m.sreq(n * m.CHAR, right, 4))]
    # 4. each completion reports its own request, even where the library
    # gave the small sends one handle.
    calls += [m.irecv(left, 5), m.irecv(left, 6), m.isend(m.INT, right, 5), m.isend(m.INT, right, 6)]
    calls += [m.wait(m.sreq(m.INT, right, 5)), m.wait(m.sreq(m.INT, right, 6))]
    calls += [m.wait(m.rreq(m.INT, left, 6)), m.wait(m.rreq(m.INT, left, 5))]
    calls.append(m.barrier())
    return calls


if __name__ == "__main__":
    m.main(expect)
