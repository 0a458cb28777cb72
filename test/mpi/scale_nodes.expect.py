"""Expected regions of scale_nodes.c, at 64 ranks oversubscribed: node
communicators are one symbol per node, the leaders' communicator another;
every rank's calls are exact."""

import mpiexpect as m

RANKS = (64,)
NODE, ROUNDS, TAG = 8, 5, 9
LONG = 8


def expect(rank, size):
    node_size = NODE if size % NODE == 0 else 1
    node = m.sym("node", rank // node_size)
    leader = rank % node_size == 0
    left, right = (rank - 1) % size, (rank + 1) % size
    calls = [m.coll("comm_split"), m.coll("comm_split")]
    for _ in range(ROUNDS):
        calls.append(m.allreduce(LONG, node))
        if leader:
            calls += [m.allreduce(LONG, "leaders"), m.bcast(LONG, 0, "leaders")]
        calls.append(m.bcast(LONG, 0, node))
        calls.append(m.p2p("sendrecv", 2 * m.INT, right, TAG))
    calls.append(m.coll("alltoall", m.INT * size))
    calls.append(m.coll("gather", m.INT, 0))
    if leader:
        calls.append(m.coll("comm_free", comm="leaders"))
    calls += [m.coll("comm_free", comm=node), m.barrier()]
    return calls


if __name__ == "__main__":
    m.main(expect)
