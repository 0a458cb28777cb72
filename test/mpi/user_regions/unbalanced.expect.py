"""Expected regions of unbalanced.c: "a" and "b" once (overlapping, each
recorded), "left" closed at MPI_Finalize with the barrier inside it; ends
of regions that were not open make nothing."""

import mpiexpect as m

# Overlapping regions are not each other's children (nesting_check.py).
CHILDREN = {"a": [], "b": [], "left": [m.barrier()]}


def expect(rank, size):
    return ["a", "b", "left", m.barrier()]


if __name__ == "__main__":
    m.main(expect)
