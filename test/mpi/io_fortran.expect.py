"""Expected regions of io_fortran.f90 (use mpi): the same regions as from
C, the file's path given as a Fortran string."""

import mpiexpect as m

N = 8


def expect(rank, size):
    f = 0
    calls = [m.io("file_open", f), m.io("file_write_at", f, N * m.INT), m.io("file_read_at", f, N * m.INT)]
    calls += [m.io("file_seek", f), m.io("file_read", f, N // 2 * m.INT)]
    calls += [m.io("file_iwrite_at", f, 2 * m.INT), m.wait(m.sreq(2 * m.INT, -1, -1, op="file_iwrite_at"))]
    calls += [m.io("file_close", f), m.barrier()]
    if rank == 0:
        calls.append(m.io("file_delete", 1, comm=-1))
    return calls


if __name__ == "__main__":
    m.main(expect)
