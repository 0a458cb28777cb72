#!/usr/bin/env python3
"""Exact exclusive times of regions.c in the merge's --json output.

    nesting_check.py EXPECT_PY REPORT_JSON RANKS

For every rank, and for the sums over ranks: a region's exclusive time
plus the inclusive times of its direct children (CHILDREN of EXPECT_PY) is
its inclusive time, to the nanosecond; a region without children, and
every MPI call, has exclusive time equal to inclusive time. Prints one line
per difference and exits 1 when there is any.
"""
import importlib.util
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def main():
    expect_py, report, nranks = sys.argv[1], sys.argv[2], int(sys.argv[3])
    spec = importlib.util.spec_from_file_location("expect_regions", expect_py)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with open(report) as f:
        regions = {r["name"]: r for r in json.load(f)["regions"]}
    problems = []

    def times(name):
        """{rank or 'all': (inclusive ns, exclusive ns)}"""
        r = regions.get(name)
        if r is None:
            problems.append(f"no region {name!r}")
            return {}
        out = {p["rank"]: (p["total_ns"], p["excl_total_ns"]) for p in r["per_rank"]}
        out["all"] = (r["total_ns"], r["excl_total_ns"])
        return out

    keys = list(range(nranks)) + ["all"]
    for parent, children in mod.CHILDREN.items():
        p = times(parent)
        kids = [times(c) for c in children]
        for k in keys:
            if k not in p or any(k not in c for c in kids):
                problems.append(f"{parent}: rank {k} missing")
                continue
            incl, excl = p[k]
            got = excl + sum(c[k][0] for c in kids)
            if got != incl:
                problems.append(f"{parent} (rank {k}): exclusive {excl} + children {got - excl} != inclusive {incl}")
    for name, r in regions.items():
        if name.startswith("mpi:") and r["total_ns"] != r["excl_total_ns"]:
            problems.append(f"{name}: an MPI call with exclusive {r['excl_total_ns']} != inclusive {r['total_ns']}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
