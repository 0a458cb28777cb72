"""Expected regions of rma_passive.c: lock, unlock, flush and flush_local
name their target rank; the request forms (rput, rget, raccumulate,
rget_accumulate) report their bytes again at completion with
request=<op>; every call reports its window's communicator."""

import mpiexpect as m

# Open MPI 4.1 cannot create a window on a single process with its default
# components (MPI_ERR_WIN, with or without the tool).
RANKS = {"mpich": (1, 2, 4), "openmpi": (2, 4)}


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    I = m.INT

    def rreq(op, nbytes, peer):
        return m.Req(op, nbytes, peer, -1)

    calls = [m.coll("win_allocate"), m.rma("win_lock", peer=rank), m.rma("win_unlock", peer=rank), m.barrier()]
    calls += [m.rma("win_lock", peer=right), m.rma("put", I, right), m.rma("win_unlock", peer=right)]
    calls += [m.rma("win_lock", peer=left), m.rma("get", 2 * I, left), m.rma("win_unlock", peer=left), m.barrier()]
    calls += [m.rma("win_lock_all"), m.rma("fetch_and_op", I, 0), m.rma("win_flush", peer=0)]
    calls += [m.rma("compare_and_swap", I, right), m.rma("win_flush_local", peer=right)]
    for op, nbytes, peer in (("rput", I, right), ("rget", 3 * I, left), ("raccumulate", I, 0),
                             ("rget_accumulate", I, left)):
        calls += [m.rma(op, nbytes, peer), m.wait(rreq(op, nbytes, peer))]
    calls += [m.rma("win_flush_all"), m.rma("win_flush_local_all"), m.rma("win_sync"), m.rma("win_unlock_all")]
    calls += [m.barrier(), m.rma("win_lock", peer=rank), m.rma("win_unlock", peer=rank)]
    calls += [m.coll("comm_split_type"), m.coll("win_allocate_shared", comm="shared")]
    calls += [m.rma(op, comm="shared") for op in ("win_lock_all", "win_sync", "win_unlock_all")]
    calls += [m.barrier("shared")]
    calls += [m.coll("win_create_dynamic"), m.p2p("sendrecv", 8, left, 11)]
    calls += [m.rma("win_fence"), m.rma("put", 2 * I, right), m.rma("win_fence")]
    calls += [m.coll("win_free"), m.coll("win_free", comm="shared"), m.coll("comm_free", comm="shared")]
    calls += [m.coll("win_free"), m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
