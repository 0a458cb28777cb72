"""Expected regions of pcontrol.f90: the barriers only; MPI_PCONTROL
without a name makes no region."""

import mpiexpect as m

CHILDREN = {}


def expect(rank, size):
    return [m.barrier()] * 3


if __name__ == "__main__":
    m.main(expect)
