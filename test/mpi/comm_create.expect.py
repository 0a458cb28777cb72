"""Expected regions of comm_create.c: creation calls are collectives on the
parent; every call on a new communicator names it by a symbol (one id per
symbol on all of its members, different ids for different symbols); peers
are ranks of the call's communicator."""

import mpiexpect as m

RANKS = (1, 2, 4, 8)


def color_of(rank, size):
    return None if size >= 4 and rank == size - 1 else rank % 3


def expect(rank, size):
    I = m.INT
    calls = [m.coll("comm_dup"), m.barrier("dup"), m.allreduce(I, "dup")]
    calls += [m.coll("comm_dup_with_info"), m.barrier("dupinfo")]
    calls += [m.coll("comm_idup"), m.wait(m.creq("comm_idup", -1)), m.barrier("idup")]

    color = color_of(rank, size)
    calls += [m.coll("comm_split")]
    if color is not None:
        split = m.sym("split", color)
        members = sorted((r for r in range(size) if color_of(r, size) == color), reverse=True)
        sr, ss = members.index(rank), len(members)
        calls += [m.p2p("sendrecv", I, (sr + 1) % ss, 3, split), m.bcast(m.DOUBLE, 0, split)]
        calls += [m.allreduce(I, split), m.coll("comm_dup", comm=split), m.barrier(m.sym("dupsplit", color))]

    calls += [m.coll("comm_split_type"), m.barrier("shared")]
    calls += [m.coll("comm_create")]
    if rank % 2 == 0:
        calls += [m.allreduce(I, "even")]
    else:
        calls += [m.coll("comm_create_group", tag=7), m.barrier("odd")]

    d0 = 2 if size % 2 == 0 else 1
    d1 = size // d0
    row, col = m.sym("row", rank // d1), m.sym("col", rank % d1)
    calls += [m.coll("cart_create"), m.coll("cart_sub", comm="cart2d"), m.coll("cart_sub", comm="cart2d")]
    calls += [m.allreduce(I, row), m.allreduce(I, col), m.barrier("cart2d")]

    freed = ["dup", "dupinfo", "idup"]
    if color is not None:
        freed += [m.sym("dupsplit", color), m.sym("split", color)]
    freed += ["shared", "even" if rank % 2 == 0 else "odd", row, col, "cart2d"]
    calls += [m.coll("comm_free", comm=c) for c in freed]
    calls += [m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
