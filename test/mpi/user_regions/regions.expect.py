"""Expected regions of regions.c: user regions keep their given names
(DESIGN section 4), MPI_Pcontrol makes the region "phase" and is not itself
recorded as a call."""

import mpiexpect as m

OUTER, PHASES, WORKER = 5, 3, 200
# Each region's direct children on its thread (nesting_check.py).
CHILDREN = {
    "outer": ["inner"],
    "inner": [m.allreduce(3 * m.INT)],
    "phase": [m.bcast(2 * m.DOUBLE, 0), "scoped"],
    "scoped": [m.barrier()],
    "dyn": [],
    "worker": ["worker_inner"],
    "worker_inner": [],
}


def expect(rank, size):
    calls = ["outer", "inner", m.allreduce(3 * m.INT)] * OUTER
    calls += ["phase", m.bcast(2 * m.DOUBLE, 0), "scoped", m.barrier()] * PHASES
    calls += ["dyn"]
    calls += ["worker", "worker_inner"] * WORKER
    return calls


if __name__ == "__main__":
    m.main(expect)
