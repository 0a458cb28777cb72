"""Expected regions of p2p_cancel.c: MPI_Cancel reports the request it
cancels (a receive: bytes -1); the completion of a cancelled receive
reports bytes 0 with the posted peer and tag."""

import mpiexpect as m


def cancel(req):
    return m.completion("cancel", [req], m.OTHER)


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    I = m.INT
    calls = []
    # 1. and 2.
    for _ in range(2):
        calls += [m.irecv(left, 99), cancel(m.rreq(-1, left, 99)), m.wait(m.rreq(0, left, 99))]
    # 3.
    calls += [m.irecv(left, 97), m.irecv(left, 98), m.irecv(left, 96)]
    calls += [cancel(m.rreq(-1, left, 97)), cancel(m.rreq(-1, left, 98))]
    calls += [m.send(I, right, 96)]
    calls += [m.waitall(m.rreq(0, left, 97), m.rreq(0, left, 98), m.rreq(I, left, 96))]
    calls.append(m.barrier())
    return calls


if __name__ == "__main__":
    m.main(expect)
