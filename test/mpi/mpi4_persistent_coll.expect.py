"""Expected regions of mpi4_persistent_coll.c: each *_init reports the
bytes (and root) of its blocking form; MPI_Start/MPI_Startall, the
completions and MPI_Request_free report them again with request=<op>_init
(mixed for several ops)."""

import mpiexpect as m

FLAVOURS = ("mpich",)
RANKS = (1, 2, 4, 8)
ITERS = 3


def expect(rank, size):
    I, D = m.INT, m.DOUBLE
    last, tri = size - 1, size * (size + 1) // 2
    world = [("barrier_init", -1, -1), ("bcast_init", 2 * I, 0), ("reduce_init", 3 * D, last),
             ("gather_init", I, 0), ("gatherv_init", (rank + 1) * I, last),
             ("scatterv_init", (tri if rank == last else rank + 1) * I, last),
             ("allgatherv_init", (rank + 1) * I, -1),
             ("alltoall_init", I * size, -1), ("alltoallv_init", tri * I, -1), ("alltoallw_init", I * size, -1),
             ("reduce_scatter_init", tri * I, -1), ("reduce_scatter_block_init", I * size, -1),
             ("scan_init", 2 * I, -1), ("exscan_init", D, -1)]
    cart = [("neighbor_allgather_init", I), ("neighbor_allgatherv_init", (rank + 1) * I),
            ("neighbor_alltoall_init", 2 * I), ("neighbor_alltoallv_init", 3 * I),
            ("neighbor_alltoallw_init", I + D)]
    ar, ag = m.creq("allreduce_init", 4 * I), m.creq("allgather_init", D)
    wreqs = [m.creq(op, nbytes) for op, nbytes, _ in world]
    creqs = [m.creq(op, nbytes, "cart") for op, nbytes in cart]

    calls = [m.coll("scatter_init", 2 * I * (size if rank == 0 else 1), 0)]
    calls += [m.request_free(m.creq("scatter_init", 2 * I * (size if rank == 0 else 1)))]
    calls += [m.coll("allreduce_init", 4 * I), m.coll("allgather_init", D)]
    calls += [m.coll(op, nbytes, root) for op, nbytes, root in world]
    calls += [m.coll("cart_create")] + [m.coll(op, nbytes, comm="cart") for op, nbytes in cart]
    for _ in range(ITERS):
        calls += [m.start(ar), m.wait(ar), m.start(ag), m.wait(ag)]
        calls += [m.startall(*wreqs), m.waitall(*wreqs), m.startall(*creqs), m.waitall(*creqs)]
    calls += [m.start(ar), m.waitsome(ar), m.start(ar), m.testsome(ar)]
    calls += [m.request_free(r) for r in [ar, ag] + wreqs + creqs]
    calls += [m.coll("comm_free", comm="cart"), m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
