"""Expected regions of io_calls.c: every MPI-IO call names its file (the
rank's file 0, opened on MPI_COMM_WORLD); reads report what they read, the
completion of the non-blocking write its op."""

import mpiexpect as m

N = 16


def expect(rank, size):
    f = 0
    calls = [m.io("file_open", f)]
    calls += [m.io("file_write_at_all", f, N * m.INT), m.io("file_sync", f), m.barrier()]
    calls += [m.io("file_read_at", f, N * m.INT), m.io("file_set_view", f), m.io("file_seek", f)]
    calls += [m.io("file_write", f, N // 2 * m.INT), m.io("file_seek", f), m.io("file_read", f, N // 2 * m.INT)]
    calls += [m.io("file_iwrite_at", f, 4 * m.INT), m.wait(m.sreq(4 * m.INT, -1, -1, op="file_iwrite_at"))]
    calls += [m.io("file_read_all_begin", f, N // 2 * m.INT), m.io("file_read_all_end", f, N // 2 * m.INT)]
    calls += [m.io("file_write_shared", f, 2 * m.INT), m.barrier(), m.io("file_read_ordered", f, 2 * m.INT)]
    calls += [m.io("file_set_size", f), m.io("file_preallocate", f), m.io("file_close", f), m.barrier()]
    if rank == 0:
        calls.append(m.io("file_delete", 1, comm=-1))
    return calls


if __name__ == "__main__":
    m.main(expect)
