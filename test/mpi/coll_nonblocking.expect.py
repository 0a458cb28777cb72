"""Expected regions of coll_nonblocking.c: a nonblocking collective reports
the bytes of its blocking form, and its completion carries them again under
request=i<op> (no peer, tag or root)."""

import mpiexpect as m

RANKS = (1, 2, 4, 8)


def expect(rank, size):
    I, D, S = m.INT, m.DOUBLE, m.SHORT
    last, tri = size - 1, size * (size + 1) // 2
    calls = []

    def nb(op, nbytes, root=-1):
        calls.append(m.coll(op, nbytes, root))
        return m.creq(op, nbytes)

    # ibarrier
    if rank == 0:
        req = nb("ibarrier", -1)
        if size > 1:
            calls.append(m.test())
            calls += [m.send(I, j, 5) for j in range(1, size)]
        calls.append(m.wait(req))
    else:
        calls.append(m.recv(I, 0, 5))
        calls.append(m.wait(nb("ibarrier", -1)))
    calls.append(m.waitall(nb("ibcast", 10 * I, 0), nb("ireduce", 3 * D, last)))
    calls.append(m.test(nb("iallreduce", 4 * I)))
    calls.append(m.wait(nb("igather", 2 * I, 0)))
    calls.append(m.wait(nb("igatherv", (rank + 1) * I, last)))
    calls.append(m.wait(nb("iscatter", 3 * D * (size if rank == 0 else 1), 0)))
    calls.append(m.wait(nb("iscatterv", (tri if rank == last else rank + 1) * S, last)))
    calls.append(m.waitall(nb("iallgather", 2 * D), nb("iallgatherv", (rank + 1) * I)))
    calls.append(m.testall(nb("ialltoall", 2 * I * size)))
    calls.append(m.waitany(nb("ialltoallv", tri * I)))
    calls.append(m.waitsome(nb("ialltoallw", sum(I if j % 2 == 0 else 2 * D for j in range(size)))))
    calls.append(m.waitall(nb("ireduce_scatter", tri * I), nb("ireduce_scatter_block", 2 * I * size)))
    calls.append(m.testany(nb("iscan", 3 * I)))
    calls.append(m.testsome(nb("iexscan", 2 * D)))
    calls.append(m.reduce(8, 0))
    return calls


if __name__ == "__main__":
    m.main(expect)
