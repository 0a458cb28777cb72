"""Expected regions of comm_intercomm.c: an intercommunicator and its
duplicate each have one id on the members of both groups; peers are ranks
of the remote group; bytes that scale with the peers use the remote group;
MPI_ROOT and MPI_PROC_NULL roots are -1."""

import mpiexpect as m

RANKS = (2, 4, 8)


def expect(rank, size):
    half = size // 2
    high = 1 if rank >= half else 0
    lr = rank - half if high else rank
    rs = half if high else size - half
    local = m.sym("half", high)
    I = m.INT
    calls = [m.coll("comm_split"), m.coll("intercomm_create", comm=local), m.coll("intercomm_create", comm=local)]
    calls += [m.barrier("inter")]
    if lr < rs:
        calls += [m.recv(m.DOUBLE, lr, 4, "inter") if high else m.send(m.DOUBLE, lr, 4, "inter")]
    calls += [m.bcast(3 * I, 0 if high else -1, "inter"), m.allreduce(I, "inter")]
    calls += [m.coll("alltoall", 2 * I * rs, comm="inter"), m.barrier("inter2")]
    calls += [m.coll("comm_dup", comm="inter"), m.barrier("interdup")]
    calls += [m.coll("intercomm_merge", comm="inter"), m.p2p("sendrecv", I, (rank + 1) % size, 8, "merged")]
    calls += [m.coll("comm_free", comm=c) for c in ("interdup", "inter2", "inter", "merged", local)]
    calls += [m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
