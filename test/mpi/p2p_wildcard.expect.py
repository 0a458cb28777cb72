"""Expected regions of p2p_wildcard.c: wildcard receives name the actual
source and tag, and every receive the bytes actually received."""

import mpiexpect as m


def expect(rank, size):
    calls = []
    # 1. rank r > 0 sends r + 1 ints with tag 100 + r to rank 0.
    if rank == 0:
        calls += [m.recv((r + 1) * m.INT, r, 100 + r) for r in range(1, size)]
    else:
        calls.append(m.send((rank + 1) * m.INT, 0, 100 + rank))
    calls.append(m.barrier())
    # 2. between ranks 0 and 1.
    if size > 1 and rank == 0:
        calls += [m.send(10 * m.DOUBLE, 1, 5), m.recv(3 * m.INT, 1, 6), m.recv(7 * m.CHAR, 1, 8)]
    elif size > 1 and rank == 1:
        calls += [m.recv(10 * m.DOUBLE, 0, 5), m.send(3 * m.INT, 0, 6), m.send(7 * m.CHAR, 0, 8)]
    calls.append(m.barrier())
    # 3. self message.
    calls += [m.isend(5 * m.SHORT, rank, 42), m.recv(5 * m.SHORT, rank, 42), m.wait(m.sreq(5 * m.SHORT, rank, 42)), m.barrier()]
    return calls


if __name__ == "__main__":
    m.main(expect)
