"""Expected regions of p2p_threads.c: under MPI_THREAD_MULTIPLE, every
message of every thread counted exactly once (THREADS x MESSAGES sends and
receives per rank), each thread's burst of sends to MPI_PROC_NULL (one
handle value for all threads) completed by one waitall, and each thread's
allreduce on its own communicator."""

import mpiexpect as m

THREADS, MESSAGES, BURST = 4, 1000, 300


def expect(rank, size):
    partner = rank ^ 1 if (rank ^ 1) < size else rank
    calls = [m.coll("comm_dup")] * THREADS
    for t in range(THREADS):
        calls += [m.isend(m.INT, partner, t), m.recv(m.INT, partner, t), m.wait(m.sreq(m.INT, partner, t))] * MESSAGES
        calls += [m.isend(m.INT, m.NONE, t)] * BURST + [m.waitall(*[m.sreq(m.INT, m.NONE, t)] * BURST)]
        calls += [m.allreduce(m.INT, m.sym("thread", t)), m.coll("comm_free", comm=m.sym("thread", t))]
    calls += [m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
