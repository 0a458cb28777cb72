"""Expected regions of the Fortran test programs fortran_mpifh.f90,
fortran_usempi.f90 and fortran_f08.f90: the same calls through the three
Fortran bindings, each call counted once (docs/FORTRAN.md)."""

import mpiexpect as m

INT = m.INT


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    calls = []
    # 1. pairs: a send and a wildcard receive, a receive with MPI_STATUS_IGNORE
    partner = rank ^ 1
    if partner < size:
        if rank % 2 == 0:
            calls += [m.send(10 * INT, partner, 1), m.recv(4 * INT, partner, 2)]
        else:
            calls += [m.recv(10 * INT, partner, 1), m.send(4 * INT, partner, 2)]
    calls.append(m.barrier())
    # 2. ring: waitall with statuses, then with MPI_STATUSES_IGNORE
    calls += [m.irecv(left, 3), m.isend(6 * INT, right, 3),
              m.waitall(m.rreq(6 * INT, left, 3), m.sreq(6 * INT, right, 3))]
    calls += [m.irecv(left, 4), m.isend(5 * INT, right, 4),
              m.waitall(m.rreq(5 * INT, left, 4), m.sreq(5 * INT, right, 4))]
    # a wildcard receive completed by MPI_Wait, a send by MPI_Wait with MPI_STATUS_IGNORE
    calls += [m.irecv(m.NONE, 5), m.isend(2 * INT, right, 5),
              m.wait(m.rreq(2 * INT, left, 5)), m.wait(m.sreq(2 * INT, right, 5))]
    # two sends at once (possibly one handle value), completed in the opposite order
    calls += [m.irecv(left, 6), m.irecv(left, 7), m.isend(1 * INT, right, 6), m.isend(3 * INT, right, 7),
              m.wait(m.sreq(3 * INT, right, 7)), m.wait(m.sreq(1 * INT, right, 6)),
              m.waitall(m.rreq(1 * INT, left, 6), m.rreq(3 * INT, left, 7))]
    # 3. broadcasts
    calls += [m.bcast(8 * INT, 0), m.bcast(3 * INT, size - 1)]
    # 4. reductions and gathers; with MPI_IN_PLACE, allgather counts what it receives
    calls += [m.allreduce(3 * INT), m.allreduce(2 * INT)]
    calls += [m.coll("allgather", 1 * INT), m.coll("allgather", 2 * INT)]
    calls.append(m.barrier())
    # 5. even and odd ranks
    color = rank % 2
    sub = m.sym("split", color)
    subrank, subsize = rank // 2, (size - color + 1) // 2
    calls.append(m.coll("comm_split"))
    if subsize > 1 and subrank == 0:
        calls.append(m.send(2 * INT, 1, 7, sub))
    elif subsize > 1 and subrank == 1:
        calls.append(m.recv(2 * INT, 0, 7, sub))
    calls += [m.barrier(sub), m.coll("comm_free", comm=sub), m.barrier()]
    # 6. a cancelled receive: the cancel reports it, its wait bytes 0 and the posted peer and tag
    calls += [m.irecv(left, 99), m.completion("cancel", [m.rreq(-1, left, 99)], m.OTHER),
              m.wait(m.rreq(0, left, 99))]
    return calls
