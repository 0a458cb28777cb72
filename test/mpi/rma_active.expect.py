"""Expected regions of rma_active.c: window creation and MPI_Win_free are
collectives on the window's communicator; data calls report
origin_count x size and the target rank; synchronization calls report the
window's communicator (and the target where they name one)."""

import mpiexpect as m

# Open MPI 4.1 cannot create a window on a single process with its default
# components (MPI_ERR_WIN from MPI_Win_create, with or without the tool).
RANKS = {"mpich": (1, 2, 4), "openmpi": (2, 4)}


def expect(rank, size):
    left, right = (rank - 1) % size, (rank + 1) % size
    I = m.INT
    calls = [m.coll("win_create")]
    calls += [m.rma("win_fence"), m.rma("put", 2 * I, right), m.rma("get", I, left), m.rma("accumulate", I, 0)]
    calls += [m.rma("win_fence"), m.rma("get_accumulate", I, right), m.rma("fetch_and_op", I, left)]
    calls += [m.rma("compare_and_swap", I, 0), m.rma("win_fence")]
    calls += [m.rma("win_post"), m.rma("win_start"), m.rma("put", I, right), m.rma("win_complete")]
    calls += [m.rma("win_wait"), m.rma("win_post"), m.rma("win_test")]
    calls += [m.coll("comm_dup"), m.coll("win_allocate", comm="dup")]
    calls += [m.rma("win_fence", comm="dup"), m.rma("put", 3 * m.DOUBLE, left, "dup"), m.rma("win_fence", comm="dup")]
    calls += [m.coll("win_free", comm="dup"), m.coll("comm_free", comm="dup"), m.coll("win_free")]
    calls += [m.reduce(8, 0)]
    return calls


if __name__ == "__main__":
    m.main(expect)
