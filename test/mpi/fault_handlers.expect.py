"""Expected regions of fault_handlers.c: the two barriers around the signals."""

import mpiexpect as m


def expect(rank, size):
    return [m.barrier(), m.barrier()]


if __name__ == "__main__":
    m.main(expect)
