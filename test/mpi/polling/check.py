"""Polling counts as waiting (test/mpi/polling.sh): the late-sender seconds
of rank 0 for each polling mode of polling.c (or polling_f.f90) must equal
those of the blocking receive, and the critical path must go through the
late sender's compute, not through rank 0's polls.

    check.py D_MS ITER WAITS_CSV JSON TRACE MODE=TAG...

Each mode receives on its own tag (testany and testall also on TAG + 100):
a rank-0 late_sender row belongs to the mode whose tag its region names
(tag % 100; testall's completion names no tag: its op decides). The mode
`recv` is the blocking baseline. The trace's wait_state slices of rank 0
give each waiting call's wait: a slice starts at the call that began the
wait, whose op is the mode's name (recv, wait, test, testany, testall,
iprobe, improbe). Expectations, with E = ITER x D:
  - every mode waited from LOW x E to E + HIGH x E in all (sleeps end late on
    a busy machine, never early; the rank may come late to its receive);
  - every other mode's median wait per message (of its ITER longest: a
    testany's second message waits little) is at least the smaller of the
    blocking receive's and D, less TOL_REL of it or TOL_ABS, whichever is
    larger (a poll not counted loses D), and at most the larger of them
    times 1 + HIGH (the sleeper may wake late in any mode). The median
    leaves out the message the scheduler delayed; D stands beside the
    blocking receive because a rank that spins in a blocking receive
    (MPICH's) takes the core the sleeper needs to wake up, and on a loaded
    machine the sleeper then sends late, so that the blocking receive truly
    waits longer than the polls that nap;
  - every mode waited in at least LOW x ITER calls (a poll run cut by a
    gap longer than the bound, the scheduler's on a loaded machine, loses
    the wait before the cut);
  - on the critical path, rank 1's compute is at least LOW x E per mode, and
    the polls (the test family, iprobe, improbe) carry at most PATH_POLLS x
    E per polling mode: the time from the send to the completing poll's
    return, as the blocking receive carries from the send to its return
    (the polls themselves carried most of E when they were not waiting),
    and rank 0 (its polls and the work between them) at most PATH_POLLS x E
    per mode.
"""
import csv
import json
import re
import sys

LOW, HIGH = 0.7, 1.0
TOL_REL = 0.10        # of the smaller of the blocking receive's wait and D
TOL_ABS = 0.005       # s per message
PATH_POLLS = 0.25     # in E, per polling mode
POLL_OPS = ("test", "testany", "testsome", "testall", "iprobe", "improbe")


def field(region, key):
    m = re.search(r"\b%s=(-?\d+)" % key, region)
    return int(m.group(1)) if m else None


def op_of(region):
    m = re.match(r"mpi:(\w+)", region)
    return m.group(1) if m else ""


def waits_per_mode(path_trace, modes):
    """{mode: [wait_s of each waiting call of rank 0]} from the trace."""
    tev = json.load(open(path_trace))["traceEvents"]
    calls = {(e["tid"], e["ts"]): e["name"] for e in tev
             if e["ph"] == "X" and e.get("cat") != "wait_state" and e["pid"] == 0}
    got = {m: [] for m in modes}
    for w in tev:
        if w["ph"] != "X" or w.get("cat") != "wait_state" or w["pid"] != 0 or w["name"] != "late_sender":
            continue
        op = op_of(calls.get((w["tid"], w["ts"]), ""))
        if op in got:
            got[op].append(w["dur"] / 1e6)
    return got


def median_of_longest(v, n):
    v = sorted(v, reverse=True)[:n]
    return v[len(v) // 2] if v else 0.0


def main():
    d, it, path_csv, path_json, path_trace = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], \
        sys.argv[5]
    modes = dict(a.split("=") for a in sys.argv[6:])
    by_tag = {int(t) % 100: m for m, t in modes.items()}
    e = it * d / 1000.0
    waited = {m: 0.0 for m in modes}
    count = {m: 0 for m in modes}
    for r in csv.DictReader(open(path_csv, newline="")):
        if r["pattern"] != "late_sender" or r["rank"] != "0":
            continue
        region = r["region"]
        tag = field(region, "tag")
        mode = "testall" if op_of(region) == "testall" and "testall" in modes else by_tag.get((tag or -1) % 100)
        if mode is None:
            sys.exit(f"a late_sender row of no mode: {region}")
        if r["cause_rank"] != "1":
            sys.exit(f"{mode}: caused by rank {r['cause_rank']}, planted 1")
        waited[mode] += float(r["wait_s"])
        count[mode] += int(r["instances"])
    bad = []
    per = waits_per_mode(path_trace, modes)
    med = {m: median_of_longest(per[m], it) for m in modes}
    base = med["recv"]
    lo, hi = min(base, d / 1000.0), max(base, d / 1000.0)
    tol = max(TOL_REL * lo, TOL_ABS)
    for m in modes:
        if not lo - tol <= med[m] <= hi * (1 + HIGH):
            bad.append(f"{m}: waited {med[m]:.4f} s per message, the blocking receive {base:.4f} s, planted "
                       f"{d / 1000.0:.4f} s (from {lo - tol:.4f} to {hi * (1 + HIGH):.4f})")
        if not LOW * e <= waited[m] <= e + HIGH * e:
            bad.append(f"{m}: waited {waited[m]:.4f} s, planted {e:.4f} s")
        if count[m] < LOW * it:
            bad.append(f"{m}: {count[m]} waiting calls, planted {it}")
    cp = json.load(open(path_json))["critical_path"]
    ranks = {r["rank"]: r for r in cp["ranks"]}
    if ranks[1]["compute_s"] < LOW * e * len(modes):
        bad.append(f"critical path: rank 1 computes {ranks[1]['compute_s']:.4f} s on it, "
                   f"planted {e * len(modes):.4f} s")
    rank0 = ranks[0]["compute_s"] + ranks[0]["mpi_s"]
    if rank0 > PATH_POLLS * e * len(modes):
        bad.append(f"critical path: rank 0 carries {rank0:.4f} s of it (at most {PATH_POLLS * e * len(modes):.4f} s)")
    polls = sum(r["on_path_s"] for r in cp["regions"] if op_of(r["region"]) in POLL_OPS)
    npoll = sum(1 for m in modes if m in POLL_OPS)
    if polls > PATH_POLLS * e * npoll:
        bad.append(f"critical path: {polls:.4f} s in polls (at most {PATH_POLLS * e * npoll:.4f} s)")
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print(" ".join(f"{m}={waited[m]:.3f}s/{med[m] * 1e3:.1f}ms" for m in modes))


if __name__ == "__main__":
    main()
