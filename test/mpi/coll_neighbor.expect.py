"""Expected regions of coll_neighbor.c: neighbor_allgather(v) report the
send payload once, neighbor_alltoall(v,w) summed over the out-neighbours
(on the cart 2 per dimension, MPI_PROC_NULL neighbours included); each
topology is its own communicator, created from MPI_COMM_WORLD."""

import mpiexpect as m

RANKS = (1, 2, 4, 8)
CART, DIST, GRAPH = "cart", "dist", "graph"


def expect(rank, size):
    I, D = m.INT, m.DOUBLE
    calls = [m.coll("cart_create")]
    calls += [m.coll("neighbor_allgather", 2 * I, comm=CART)]
    calls += [m.coll("neighbor_allgatherv", (rank + 1) * I, comm=CART)]
    calls += [m.coll("neighbor_alltoall", 2 * D, comm=CART)]
    calls += [m.coll("neighbor_alltoallv", 3 * I, comm=CART)]
    calls += [m.coll("neighbor_alltoallw", I + 2 * D, comm=CART)]
    nb = {"ineighbor_allgather": 2 * I, "ineighbor_allgatherv": (rank + 1) * I, "ineighbor_alltoall": 2 * D,
          "ineighbor_alltoallv": 3 * I, "ineighbor_alltoallw": I + 2 * D}
    req = {op: m.creq(op, n, CART) for op, n in nb.items()}
    calls += [m.coll(op, n, comm=CART) for op, n in nb.items()]
    calls += [m.wait(req["ineighbor_allgather"])]
    calls += [m.waitall(req["ineighbor_allgatherv"], req["ineighbor_alltoall"])]
    calls += [m.waitall(req["ineighbor_alltoallv"], req["ineighbor_alltoallw"])]
    calls += [m.coll("comm_free", comm=CART)]

    outdeg = 2 if rank % 2 == 0 else 1
    calls += [m.coll("dist_graph_create_adjacent")]
    calls += [m.coll("neighbor_allgather", 3 * I, comm=DIST), m.coll("neighbor_alltoall", 2 * I * outdeg, comm=DIST)]
    calls += [m.coll("ineighbor_alltoall", 2 * I * outdeg, comm=DIST)]
    calls += [m.wait(m.creq("ineighbor_alltoall", 2 * I * outdeg, DIST)), m.coll("comm_free", comm=DIST)]
    calls += [m.coll("dist_graph_create"), m.coll("neighbor_alltoall", 2 * I * outdeg, comm="dist2")]
    calls += [m.coll("comm_free", comm="dist2")]

    deg = 1 if size <= 2 else 2
    calls += [m.coll("graph_create")]
    calls += [m.coll("neighbor_allgather", I, comm=GRAPH), m.coll("neighbor_alltoall", 3 * D * deg, comm=GRAPH)]
    calls += [m.coll("comm_free", comm=GRAPH)]
    calls += [m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
