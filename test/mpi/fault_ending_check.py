#!/usr/bin/env python3
"""Checks the merge's account of how a run of faults/ending.c ended
(fault_ending.sh): the JSON "ending" member, the text's "Run ended"
section, and the allreduces each surviving rank's log kept.

    fault_ending_check.py MODE N ITERS DIR SOURCE
"""
import json
import re
import sys


def marked_line(source, mark):
    with open(source) as f:
        for no, line in enumerate(f, 1):
            if "/* line:%s */" % mark in line or line.rstrip().endswith("! line:%s" % mark):
                return no
    raise SystemExit("no line marked %s in %s" % (mark, source))


def main():
    mode, n, iters, d, source = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
    with open(d + "/report.json") as f:
        report = json.load(f)
    with open(d + "/report.txt") as f:
        text = f.read()
    problems = []
    end = report.get("ending")
    if end is None:
        raise SystemExit("FAIL: %s: no \"ending\" in the JSON report" % mode)
    ranks = {r["rank"]: r for r in end["ranks"]}
    keys = {"rank", "state", "code", "signal", "call", "call_site", "peer", "since_s"}
    for r in end["ranks"]:
        if set(r) - {"requests"} != keys:
            problems.append("rank %d's ending has the keys %s" % (r["rank"], sorted(r)))
    if set(end) != {"ranks", "cycles", "blocking"}:
        problems.append("\"ending\" has the keys %s" % sorted(end))
    if "\nRun ended\n" not in text:
        problems.append("the text report has no Run ended section")
    with open(d + "/report.html") as f:
        html = f.read()
    section = re.search(r'<section id="sec-ending">(.*?)</section>', html, re.S)
    if not section:
        problems.append("the HTML page has no Run ended section")
    else:
        for r in sorted(ranks):
            if "<tr><td>%d</td><td>%s</td>" % (r, ranks[r]["state"]) not in section.group(1):
                problems.append("the HTML page's Run ended has no row of rank %d, %s" % (r, ranks[r]["state"]))
        if mode in ("deadlock", "waitall") and ": a cycle" not in section.group(1):
            problems.append("the HTML page does not name the cycle")
    calls = {}
    for region in report["regions"]:
        if region["operation"] == "allreduce":
            for row in region["per_rank"]:
                calls[row["rank"]] = calls.get(row["rank"], 0) + row["calls"]
    src = source.rsplit("/", 1)[-1]

    def site_is(rank, mark):
        want = "%s:%d" % (src, marked_line(source, mark))
        got = ranks[rank]["call_site"] or ""
        if not got.endswith(want):
            problems.append("rank %d's call site is %r, not %s" % (rank, got, want))

    def state_is(rank, *states):
        if ranks.get(rank, {}).get("state") not in states:
            problems.append("rank %d's state is %r, not %s" % (rank, ranks.get(rank, {}).get("state"), states))

    survivors = [r for r in range(n) if mode in ("deadlock", "waitall", "spin") or r != 1]
    for r in survivors:
        if (mode == "spin" and r == n - 1) or mode == "kill":
            continue
        if calls.get(r, 0) != iters:
            problems.append("rank %d's log keeps %d allreduces, the program made %d" % (r, calls.get(r, 0), iters))
    print("%s -n %d: allreduces kept per rank: %s; states: %s" % (
        mode, n, ", ".join("%d: %d" % (r, calls.get(r, 0)) for r in range(n)),
        ", ".join("%d: %s" % (r, ranks[r]["state"]) for r in sorted(ranks))))
    if mode in ("abort", "segv", "sigabrt", "fabort"):
        # Rank 0 waited in MPI_Barrier for rank 1.
        if ranks[0]["call"] != "MPI_Barrier":
            problems.append("rank 0 was in %r, not MPI_Barrier" % ranks[0]["call"])
        else:
            site_is(0, "barrier")
        if end["blocking"] != [1]:
            problems.append("the ranks waited on are %s, not [1]" % end["blocking"])
        if not re.search(r"rank 1 never reached it .*its last call was MPI_Allreduce", text):
            problems.append("the text does not say that rank 1 never reached the barrier, after MPI_Allreduce")
    if mode in ("abort", "fabort"):
        state_is(1, "aborted")
        if ranks[1]["code"] != 3:
            problems.append("rank 1's code is %r, not 3" % ranks[1]["code"])
        site_is(1, "abort")
    elif mode == "segv":
        state_is(1, "signal")
        if ranks[1]["signal"] != "SIGSEGV":
            problems.append("rank 1's signal is %r" % ranks[1]["signal"])
        site_is(1, "segv")
    elif mode == "sigabrt":
        state_is(1, "signal")
        if ranks[1]["signal"] != "SIGABRT":
            problems.append("rank 1's signal is %r" % ranks[1]["signal"])
        site_is(1, "sigabrt")
    elif mode == "kill":
        state_is(1, "unknown")
        # An allreduce that blocked 20 ms (a loaded machine) was written as
        # where rank 1 waited; when it completed after the last flush, the
        # log, cut by SIGKILL, cannot tell: then it holds fewer allreduces.
        if ranks[1]["call"] is not None and not (ranks[1]["call"] == "MPI_Allreduce" and calls.get(1, 0) < iters):
            problems.append("rank 1, killed outside MPI, was in %r" % ranks[1]["call"])
    elif mode == "deadlock":
        if end["cycles"] != [[0, 1]]:
            problems.append("the cycles are %s, not [[0, 1]]" % end["cycles"])
        for r in (0, 1):
            state_is(r, "killed", "stuck")
            if ranks[r]["call"] != "MPI_Recv" or ranks[r]["peer"] != 1 - r:
                problems.append("rank %d waits in %r for %r" % (r, ranks[r]["call"], ranks[r]["peer"]))
            else:
                site_is(r, "recv")
        if not re.search(r"rank 0 waits in MPI_Recv\(src=1, tag=5\) at .* for rank 1,\s+which waits in "
                         r"MPI_Recv\(src=0, tag=5\) at .* for rank 0: a cycle", text):
            problems.append("the text does not name the cycle")
        if n == 4:
            # Ranks 2 and 3 wait in MPI_Barrier for ranks 0 and 1, which
            # wait in MPI_Recv instead.
            for r in (2, 3):
                state_is(r, "killed", "stuck")
                if ranks[r]["call"] != "MPI_Barrier":
                    problems.append("rank %d was in %r, not MPI_Barrier" % (r, ranks[r]["call"]))
            if end["blocking"] != []:
                problems.append("the ranks waited on are %s, not none" % end["blocking"])
            if not re.search(r"ranks 2, 3 wait in MPI_Barrier at .*; rank 0 waits in MPI_Recv\(src=1, tag=5\) at "
                             r".* instead; rank 1 waits in MPI_Recv\(src=0, tag=5\)", text):
                problems.append("the text does not say that ranks 2 and 3 wait in the barrier for 0 and 1")
    elif mode == "waitall":
        if end["cycles"] != [[0, 1]]:
            problems.append("the cycles are %s, not [[0, 1]]" % end["cycles"])
        for r in (0, 1):
            state_is(r, "killed", "stuck")
            want = [{"op": "MPI_Irecv", "peer": 1 - r, "tag": 5}, {"op": "MPI_Issend", "peer": 1 - r, "tag": 6}]
            if ranks[r]["call"] != "MPI_Waitall" or ranks[r]["peer"] != 1 - r or ranks[r].get("requests") != want:
                problems.append("rank %d waits in %r for %r on %r" % (r, ranks[r]["call"], ranks[r]["peer"],
                                                                      ranks[r].get("requests")))
            else:
                site_is(r, "waitall")
        if not re.search(r"rank 0 waits in MPI_Waitall at .* on MPI_Irecv\(src=1, tag=5\), "
                         r"MPI_Issend\(dest=1, tag=6\) for rank 1,\s+which waits in MPI_Waitall at .* on "
                         r"MPI_Irecv\(src=0, tag=5\), MPI_Issend\(dest=0, tag=6\) for rank 0: a cycle", text):
            problems.append("the text does not name the cycle")
    elif mode == "spin":
        if end["blocking"] != [n - 1]:
            problems.append("the ranks waited on are %s, not [%d]" % (end["blocking"], n - 1))
        for r in range(n - 1):
            state_is(r, "killed", "stuck", "unknown")
            if ranks[r]["call"] != "MPI_Barrier":
                problems.append("rank %d was in %r, not MPI_Barrier" % (r, ranks[r]["call"]))
        if not re.search(r"ranks 0, 1, 2 wait in MPI_Barrier at .*; rank %d never reached it.*its last call was "
                         r"MPI_Allreduce" % (n - 1), text):
            problems.append("the text does not say that rank %d never reached the barrier" % (n - 1))
    for p in problems:
        print("FAIL: %s -n %d: %s (files in %s)" % (mode, n, p, d))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
