"""Expected regions of p2p_handle_reuse.c: one handle value held by many
live requests (sends to MPI_PROC_NULL), each completion attributed to the
request it completed."""

import mpiexpect as m

N = 1000


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    C, I = m.CHAR, m.INT
    null = m.sreq(8 * C, m.NONE, 5)
    recv, send = m.rreq(4 * I, left, 5), m.sreq(4 * I, right, 5)
    calls = []
    for rnd in (1, 2, 3, 4):
        calls += [m.isend(8 * C, m.NONE, 5)] * N + [m.irecv(left, 5), m.isend(4 * I, right, 5)]
        if rnd in (1, 4):
            calls.append(m.waitall(*([null] * N + [recv, send])))
        elif rnd == 2:
            calls += [m.waitany(null)] * N + [m.waitany(recv), m.waitany(send)]
        else:
            calls += [m.test(null)] * N + [m.waitall(recv, send)]
    return calls


if __name__ == "__main__":
    m.main(expect)
