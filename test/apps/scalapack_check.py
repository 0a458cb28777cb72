"""ScaLAPACK's LU tester (Debian's xdlu, MPICH) profiled: the call-site
report agrees with the other reports (sites_check.py); the tester passed
every test; every MPI call was made from ScaLAPACK's own library (its
BLACS layer) or the tester, and the library's sites name their function.

    scalapack_check.py DIR  (DIR: the reports and profiled.txt, the tester's output)"""
import os
import re
import sys

import sites_check
from sites_check import fail


def extra(d):
    def check(report, sites):
        out = open(os.path.join(d, "profiled.txt"), errors="replace").read()
        m = re.search(r"Finished\s+(\d+) tests.*?\n\s*(\d+) tests completed and passed", out, re.S)
        if not m or m.group(1) != m.group(2) or int(m.group(1)) == 0:
            fail("the ScaLAPACK tester did not pass all its tests under the profiler")
        objects = {s["object"] for s in sites}
        if not any(o.startswith("libscalapack") for o in objects) or \
                not all(o.startswith("libscalapack") or o == "xdlu" for o in objects):
            fail(f"call sites in {sorted(objects)}: expected ScaLAPACK's library and xdlu")
        # The library has its symbols (the tester is stripped).
        unnamed = [s for s in sites if s["object"].startswith("libscalapack") and not s["function"]]
        if unnamed:
            fail(f"{len(unnamed)} sites in ScaLAPACK without a function, e.g. {unnamed[0]}")
        ranks = len(report["ranks"])
        if max(s["ranks"] for s in sites) != ranks:
            fail(f"no call site is used by all {ranks} ranks")
        return [f"{m.group(1)} tests passed", f"{len(objects)} objects"]
    return check


if __name__ == "__main__":
    sys.exit(sites_check.main(sys.argv, extra(sys.argv[1])))
