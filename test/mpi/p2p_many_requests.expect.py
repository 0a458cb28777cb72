"""Expected regions of p2p_many_requests.c: 70,000 requests live at once,
each attributed exactly by the one MPI_Waitall that completes them."""

import mpiexpect as m

N = 70000
RANKS = (1, 2, 4)


def expect(rank, size):
    calls = []
    if size >= 2 and rank == 0:
        calls += [m.irecv(1, 4)] * N
        calls.append(m.waitall(*[m.rreq(1, 1, 4)] * N))
    elif size >= 2 and rank == 1:
        calls += [m.isend(1, 0, 4)] * N
        calls.append(m.waitall(*[m.sreq(1, 0, 4)] * N))
    calls.append(m.barrier())
    return calls


if __name__ == "__main__":
    m.main(expect)
