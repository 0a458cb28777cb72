"""LAMMPS in.melt profiled: the call-site report agrees with the other
reports (sites_check.py); its top site is LAMMPS's blocking send in
CommBrick::reverse_comm() (the halo of forces, where a rank waits for its
neighbours to finish their pair forces); and LAMMPS printed the same thermo
table with the profiler as without.

    lammps_check.py DIR     (DIR: the reports, plain.txt and profiled.txt,
                             LAMMPS's output without and with the profiler)"""
import os
import sys

import sites_check
from sites_check import fail

TOP_OP = "send"
TOP_FUNCTION = "LAMMPS_NS::CommBrick::reverse_comm()"


def thermo(path):
    """The thermo table: from its 'Step ...' header to 'Loop time'."""
    lines = open(path, errors="replace").read().splitlines()
    starts = [i for i, line in enumerate(lines) if line.split()[:1] == ["Step"]]
    ends = [i for i, line in enumerate(lines) if line.startswith("Loop time")]
    if not starts or not ends or ends[-1] < starts[-1] + 2:
        fail(f"{path}: no thermo table")
    return [line.rstrip() for line in lines[starts[-1]:ends[-1]]]


def extra(d):
    def check(report, sites):
        top = sites[0]
        if top["operation"] != TOP_OP or not top["function"].startswith(TOP_FUNCTION):
            fail(f"the top call site is {top['operation']} in {top['function']!r} ({top['object']}), "
                 f"not {TOP_OP} in {TOP_FUNCTION}")
        plain, profiled = (thermo(os.path.join(d, f)) for f in ("plain.txt", "profiled.txt"))
        if plain != profiled:
            diff = next(f"without: {a!r}, with: {b!r}" for a, b in zip(plain + [""], profiled + [""]) if a != b)
            fail(f"LAMMPS's thermo output differs with the profiler: {diff}")
        return [f"top site {TOP_OP} in {top['function']} at {top['mpi_pct']:.1f} % of MPI time",
                f"the same {len(plain) - 1} thermo lines with and without the profiler"]
    return check


if __name__ == "__main__":
    sys.exit(sites_check.main(sys.argv, extra(sys.argv[1])))
