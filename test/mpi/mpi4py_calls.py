"""A Python MPI program (mpi4py, built on Open MPI): a known number of calls
of each kind on a ring (a single rank is its own neighbour).

  1. ROUNDS x comm.Send / comm.Recv of 8 doubles, tag 1 (even ranks send
     first);
  2. comm.Isend / comm.Irecv of 4 ints, tag 2, completed by one
     MPI.Request.Waitall;
  3. comm.Bcast of 10 ints from rank 0, comm.Allreduce of 4 doubles,
     comm.Barrier;
  4. pickle-based comm.send / comm.recv of a dict whose size depends on the
     rank, tag 3 (mpi4py sends it with MPI_Send and receives it with
     MPI_Mprobe + MPI_Mrecv);
  5. pickle-based comm.bcast of a dict from rank 0 (mpi4py broadcasts its
     size, then its bytes).

Buffers are numpy arrays when numpy is installed, else array.array; the
datatypes are given explicitly, so the bytes are the same either way. The
pickle protocol is fixed (PROTOCOL) so that the expectation can compute the
sizes of the pickled objects.
"""

import array
import sys

try:
    import numpy
except ImportError:
    numpy = None

ROUNDS = 3
PROTOCOL = 4


def doubles(values):
    return numpy.array(values, dtype="f8") if numpy is not None else array.array("d", values)


def ints(values):
    return numpy.array(values, dtype="i4") if numpy is not None else array.array("i", values)


def message(rank):
    """The object rank `rank` sends with comm.send."""
    return {"rank": rank, "text": "x" * rank, "values": list(range(rank + 3))}


def announcement():
    """The object rank 0 broadcasts with comm.bcast."""
    return {"from": 0, "words": ["alpha", "beta", "gamma"], "scale": 2.5}


def main():
    from mpi4py import MPI  # initializes MPI; the expectation imports this file without it

    MPI.pickle.PROTOCOL = PROTOCOL
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    left, right = (rank - 1) % size, (rank + 1) % size
    failures = []

    # 1.
    total = 0.0
    for r in range(ROUNDS):
        out = doubles([rank * 10 + r + k for k in range(8)])
        got = doubles([0.0] * 8)
        if rank % 2 == 0:
            comm.Send([out, MPI.DOUBLE], dest=right, tag=1)
            comm.Recv([got, MPI.DOUBLE], source=left, tag=1)
        else:
            comm.Recv([got, MPI.DOUBLE], source=left, tag=1)
            comm.Send([out, MPI.DOUBLE], dest=right, tag=1)
        if list(got) != [left * 10 + r + k for k in range(8)]:
            failures.append(f"round {r}: received {list(got)}")
        total += sum(got)

    # 2.
    out = ints([rank, 1, 2, 3])
    got = ints([0] * 4)
    reqs = [comm.Irecv([got, MPI.INT], source=left, tag=2), comm.Isend([out, MPI.INT], dest=right, tag=2)]
    MPI.Request.Waitall(reqs)
    if list(got) != [left, 1, 2, 3]:
        failures.append(f"nonblocking: received {list(got)}")

    # 3.
    ten = ints([k * k if rank == 0 else -1 for k in range(10)])
    comm.Bcast([ten, MPI.INT], root=0)
    four = doubles([rank, 1.0, 2.0, 3.0])
    sums = doubles([0.0] * 4)
    comm.Allreduce([four, MPI.DOUBLE], [sums, MPI.DOUBLE], op=MPI.SUM)
    comm.Barrier()
    if list(ten) != [k * k for k in range(10)] or sums[1] != size:
        failures.append(f"collectives: {list(ten)} {list(sums)}")

    # 4.
    if rank % 2 == 0:
        comm.send(message(rank), dest=right, tag=3)
        obj = comm.recv(source=left, tag=3)
    else:
        obj = comm.recv(source=left, tag=3)
        comm.send(message(rank), dest=right, tag=3)
    if obj != message(left):
        failures.append(f"pickled message: {obj}")

    # 5.
    news = comm.bcast(announcement() if rank == 0 else None, root=0)
    if news != announcement():
        failures.append(f"pickled bcast: {news}")

    for f in failures:
        print(f"check failed on rank {rank}: {f}", file=sys.stderr, flush=True)
    if rank == 0:
        print(f"mpi4py_calls: ranks={size} total={total} bcast={ten[9]} allreduce={sums[0]} words={news['words'][2]}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
