"""ring.py (mpi4py) profiled: the call-site report agrees with the other
reports (sites_check.py) and with what the program does: its Sendrecv,
a new region at every step (a new tag), is one site of STEPS x RANKS calls
on every rank, 2048 bytes each; its Allreduce one site of STEPS x RANKS
calls, 8 bytes each. With --like TRACE_DIR (a run in summary mode): the
same sites, calls, ranks and bytes as that run recorded as a trace.

    ring_check.py DIR STEPS [--like TRACE_DIR]   (DIR: the reports and
                                                  profiled.txt, the program's output)"""
import os
import sys

import sites_check
from sites_check import fail

SENDRECV_BYTES = 256 * 8
ALLREDUCE_BYTES = 8


def identity(s):
    return (s["operation"], s["function"], s["file"], s["line"], s["object"], s["calls"], s["ranks"], s["bytes"])


def extra(d, steps, like):
    def check(report, sites):
        ranks = len(report["ranks"])
        line = f"ring: {steps} steps on {ranks} ranks"
        if line not in open(os.path.join(d, "profiled.txt"), errors="replace").read():
            fail(f"the program did not print {line!r}")
        for op, nbytes in (("sendrecv", SENDRECV_BYTES), ("allreduce", ALLREDUCE_BYTES)):
            rows = [s for s in sites if s["operation"] == op]
            want = (steps * ranks, ranks, steps * ranks * nbytes)
            if len(rows) != 1 or (rows[0]["calls"], rows[0]["ranks"], rows[0]["bytes"]) != want:
                fail(f"{op}: sites {[(s['calls'], s['ranks'], s['bytes']) for s in rows]}, "
                     f"expected one with (calls, ranks, bytes) {want}")
        notes = [f"sendrecv and allreduce: one site each, {steps * ranks} calls"]
        if like:
            trace = sites_check.read_csv(os.path.join(like, "sites.csv"), sites_check.HEADER)
            want = sorted(identity({**r, "line": int(r["line"]), "calls": int(r["calls"]),
                                    "ranks": int(r["ranks"]), "bytes": int(r["bytes"])}) for r in trace)
            got = sorted(identity(s) for s in sites)
            if got != want:
                diff = sorted(set(got) ^ set(want))[:2]
                fail(f"summary mode's sites differ from the trace's: {diff}")
            notes.append(f"the same {len(got)} sites in summary mode as in the trace")
        return notes
    return check


if __name__ == "__main__":
    args = sys.argv[1:]
    like = None
    if "--like" in args:
        i = args.index("--like")
        like = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(sites_check.main([sys.argv[0]] + args[:1], extra(args[0], int(args[1]), like)))
