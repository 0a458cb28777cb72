"""Expected regions of p2p_persistent.c: MPI_Start/MPI_Startall and
MPI_Request_free report their requests (kind other; a receive with bytes
-1), completions the creating *_init op and what was sent or received."""

import mpiexpect as m

ITERS, MODES = 5, 2


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    I = m.INT
    calls = []
    # 1.
    recv80 = m.Req("recv_init", -1, left, 80)
    send80 = m.Req("send_init", 4 * I, right, 80)
    done80 = m.rreq(4 * I, left, 80, op="recv_init")
    calls += [m.p2p("recv_init", -1, left, 80), m.p2p("send_init", 4 * I, right, 80)]
    calls += [m.startall(recv80, send80), m.waitall(done80, send80)] * ITERS
    calls += [m.start(recv80), m.start(send80), m.wait(send80), m.wait(done80)] * ITERS
    # 2.
    sizes = {81: 2 * m.DOUBLE, 82: 3 * m.SHORT, 83: 5 * m.CHAR}
    ops = {81: "bsend_init", 82: "ssend_init", 83: "rsend_init"}
    recvs = [m.Req("recv_init", -1, left, tag) for tag in (81, 82, 83)]
    done = [m.rreq(sizes[tag], left, tag, op="recv_init") for tag in (81, 82, 83)]
    sends = [m.Req(ops[tag], sizes[tag], right, tag) for tag in (81, 82, 83)]
    calls += [m.p2p("recv_init", -1, left, tag) for tag in (81, 82, 83)]
    calls += [m.p2p(ops[tag], sizes[tag], right, tag) for tag in (81, 82, 83)]
    calls += [m.startall(*recvs), m.barrier(), m.startall(*sends), m.waitall(*sends), m.waitall(*done)] * MODES
    # 3.
    calls += [m.request_free(r) for r in [recv80, send80] + sends + recvs]
    calls += [m.isend(I, right, 84), m.request_free(m.sreq(I, right, 84)), m.recv(I, left, 84), m.barrier()]
    calls += [m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
