"""Expected regions of p2p_completion.c: a completion call reports the
requests it completed; one that completed nothing (a test that returned
false, or null requests only) has no request= and -1 fields."""

import mpiexpect as m

DUP = "dup"


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    I = m.INT
    calls = []
    # 1.
    calls += [m.irecv(left, 90), m.irecv(left, 91)]
    calls += [m.test(), m.testany(), m.testsome(), m.testall(), m.barrier()]
    # 2.
    calls += [m.isend(2 * I, right, 90), m.isend(3 * I, right, 91)]
    calls += [m.test(m.rreq(2 * I, left, 90)), m.testany(m.rreq(3 * I, left, 91))]
    calls += [m.testall(m.sreq(2 * I, right, 90), m.sreq(3 * I, right, 91))]
    # 3.
    calls += [m.test(), m.testany(), m.testsome(), m.testall()]
    calls += [m.wait(), m.waitany(), m.waitsome(), m.waitall()]
    # 4.
    sizes = {92: 4 * m.DOUBLE, 93: I, 94: 6}
    calls += [m.irecv(left, tag) for tag in sizes] + [m.isend(n, right, tag) for tag, n in sizes.items()]
    calls += [m.waitsome(*[m.rreq(n, left, tag) for tag, n in sizes.items()])]
    calls += [m.testsome(*[m.sreq(n, right, tag) for tag, n in sizes.items()])]
    # 5.
    calls += [m.irecv(left, 95), m.isend(2 * m.SHORT, right, 95)]
    calls += [m.waitany(m.rreq(2 * m.SHORT, left, 95)), m.wait(m.sreq(2 * m.SHORT, right, 95))]
    calls += [m.irecv(left, 96)] * 3 + [m.isend(I, right, 96)] * 3
    calls += [m.waitany(m.rreq(I, left, 96))] * 3 + [m.waitall(*[m.sreq(I, right, 96)] * 3)]
    # 6.
    calls += [m.coll("comm_dup"), m.irecv(left, 97), m.irecv(left, 97, DUP)]
    calls += [m.isend(I, right, 97), m.isend(I, right, 97, DUP)]
    calls += [m.waitall(m.rreq(I, left, 97), m.rreq(I, left, 97, DUP))]
    calls += [m.waitall(m.sreq(I, right, 97), m.sreq(I, right, 97, DUP))]
    calls += [m.coll("comm_free", comm=DUP), m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
