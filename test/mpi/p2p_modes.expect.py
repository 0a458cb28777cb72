"""Expected regions of p2p_modes.c: every send mode reports count x type
size and its destination; receives from MPI_PROC_NULL report 0 bytes and
peer -1; sends to MPI_PROC_NULL keep their bytes and tag, with peer -1."""

import mpiexpect as m

NULL = m.NONE


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    I, D, S = m.INT, m.DOUBLE, m.SHORT
    calls = []
    # 1. buffered.
    calls += [m.irecv(left, 10), m.p2p("bsend", 8 * I, right, 10), m.wait(m.rreq(8 * I, left, 10))]
    calls += [m.irecv(left, 11), m.p2p("ibsend", 12 * I, right, 11)]
    calls += [m.wait(m.sreq(12 * I, right, 11, op="ibsend")), m.wait(m.rreq(12 * I, left, 11))]
    # 2. synchronous.
    calls += [m.irecv(left, 20), m.p2p("ssend", 5 * D, right, 20), m.wait(m.rreq(5 * D, left, 20))]
    calls += [m.irecv(left, 21), m.p2p("issend", 3 * I, right, 21)]
    calls += [m.waitall(m.rreq(3 * I, left, 21), m.sreq(3 * I, right, 21, op="issend"))]
    # 3. ready.
    calls += [m.irecv(left, 30), m.barrier(), m.p2p("rsend", 3 * S, right, 30), m.wait(m.rreq(3 * S, left, 30))]
    calls += [m.irecv(left, 31), m.barrier(), m.p2p("irsend", 7 * I, right, 31)]
    calls += [m.waitall(m.rreq(7 * I, left, 31), m.sreq(7 * I, right, 31, op="irsend"))]
    # 4. combined: the send side.
    calls += [m.p2p("sendrecv", 4 * I, right, 40), m.p2p("sendrecv_replace", 6 * D, right, 41)]
    # 5. MPI_PROC_NULL.
    calls += [m.p2p(op, 2 * I, NULL, 50) for op in ("send", "bsend", "ssend", "rsend")]
    calls += [m.recv(0, NULL, NULL)]
    calls += [m.irecv(NULL, 51), m.isend(2 * I, NULL, 51)]
    calls += [m.waitall(m.rreq(0, NULL, NULL), m.sreq(2 * I, NULL, 51))]
    up = rank + 1 if rank + 1 < size else NULL
    calls += [m.p2p("sendrecv", 5 * I, up, 52)]
    calls += [m.barrier(), m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
