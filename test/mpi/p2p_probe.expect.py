"""Expected regions of p2p_probe.c: a probe that finds a message reports
its bytes, source and tag; a nonblocking probe that finds none reports the
posted source and tag and bytes -1; MPI_Imrecv reports the probe's
communicator and -1 fields, its completion what arrived."""

import mpiexpect as m

NULL, NEVER = m.NONE, 99
DUP = "dup"


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    I, D = m.INT, m.DOUBLE
    calls = []
    # 1.
    calls += [m.isend(6 * I, right, 60), m.p2p("probe", 6 * I, left, 60), m.recv(6 * I, left, 60)]
    calls += [m.wait(m.sreq(6 * I, right, 60)), m.barrier()]
    calls += [m.isend(3 * D, right, 61), m.p2p("probe", 3 * D, left, 61), m.recv(3 * D, left, 61)]
    calls += [m.wait(m.sreq(3 * D, right, 61)), m.p2p("probe", 0, NULL, NULL), m.barrier()]
    # 2.
    calls += [m.p2p("iprobe", -1, left, NEVER), m.p2p("iprobe", -1, NULL, NEVER)]
    calls += [m.isend(10, right, 62), m.p2p("probe", 10, left, 62)]
    calls += [m.p2p("iprobe", 10, left, 62)] * 2 + [m.p2p("iprobe", 0, NULL, NULL)]
    calls += [m.recv(10, left, 62), m.wait(m.sreq(10, right, 62)), m.barrier()]
    # 3.
    calls += [m.isend(7 * I, right, 63), m.p2p("mprobe", 7 * I, left, 63), m.p2p("mrecv", 7 * I, left, 63)]
    calls += [m.wait(m.sreq(7 * I, right, 63)), m.barrier()]
    # 4.
    calls += [m.p2p("improbe", -1, left, NEVER)]
    calls += [m.isend(5 * D, right, 64), m.p2p("probe", 5 * D, left, 64), m.p2p("improbe", 5 * D, left, 64)]
    calls += [m.p2p("imrecv"), m.wait(m.rreq(5 * D, left, 64, op="imrecv"))]
    calls += [m.wait(m.sreq(5 * D, right, 64)), m.barrier()]
    # 5.
    calls += [m.coll("comm_dup"), m.isend(2 * m.SHORT, right, 65, DUP)]
    calls += [m.p2p("mprobe", 2 * m.SHORT, left, 65, DUP), m.p2p("mrecv", 2 * m.SHORT, left, 65, DUP)]
    calls += [m.wait(m.sreq(2 * m.SHORT, right, 65, DUP)), m.coll("comm_free", comm=DUP)]
    calls += [m.barrier(), m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
