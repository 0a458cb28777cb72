"""Expected regions of fault_fork.c: the two barriers around the children."""

import mpiexpect as m


def expect(rank, size):
    return [m.barrier(), m.barrier()]


if __name__ == "__main__":
    m.main(expect)
