"""Expected regions of p2p_threads.c: under MPI_THREAD_MULTIPLE, every
message of every thread counted exactly once (THREADS x MESSAGES sends and
receives per rank), and each thread's allreduce on its own communicator."""

import mpiexpect as m

THREADS, MESSAGES = 4, 1000


def expect(rank, size):
    partner = rank ^ 1 if (rank ^ 1) < size else rank
    calls = [m.coll("comm_dup")] * THREADS
    for t in range(THREADS):
        calls += [m.isend(m.INT, partner, t), m.recv(m.INT, partner, t), m.wait(m.sreq(m.INT, partner, t))] * MESSAGES
        calls += [m.allreduce(m.INT, m.sym("thread", t)), m.coll("comm_free", comm=m.sym("thread", t))]
    calls += [m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
