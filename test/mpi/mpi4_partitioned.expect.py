"""Expected regions of mpi4_partitioned.c: MPI_Psend_init and
MPI_Precv_init report partitions x count x size(datatype), the peer and
the tag; MPI_Start/MPI_Startall and the completions report their requests
as request=psend_init / precv_init with those bytes (a partitioned receive
names its source and tag: its bytes are known when it is posted), and so
does MPI_Parrived, kind other, like MPI_Start. MPI_Pready, MPI_Pready_range
and MPI_Pready_list report the bytes of the partitions they name: one of
four is a quarter of the request's."""

import mpiexpect as m

FLAVOURS = ("mpich",)   # Open MPI 4.1 is MPI 3.1: partitioned communication came in 5.0
RANKS = (2, 4)
PARTS, COUNT, ITERS, TAG = 4, 3, 2, 90


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    nbytes = PARTS * COUNT * m.INT
    recv = m.Req("precv_init", nbytes, left, TAG)
    send = m.Req("psend_init", nbytes, right, TAG)

    def on_send(op, named=PARTS):
        part = m.Req("psend_init", nbytes // PARTS * named, right, TAG)
        return m.completion(op, [part], m.OTHER)

    calls = [m.p2p("precv_init", nbytes, left, TAG), m.p2p("psend_init", nbytes, right, TAG)]
    # 1.
    calls += ([m.start(recv), m.start(send)] + [on_send("pready", 1)] * PARTS +
              [m.completion("parrived", [recv], m.OTHER)] * PARTS + [m.wait(send), m.wait(recv)]) * ITERS
    # 2.
    calls += [m.startall(recv, send), on_send("pready_range", 2), on_send("pready_list", 2),
              m.waitall(recv, send)] * ITERS
    # 3.
    calls += [m.start(recv), m.start(send), on_send("pready_range"), m.test(send), m.test(recv)]
    calls += [m.request_free(recv), m.request_free(send), m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
