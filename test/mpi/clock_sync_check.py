#!/usr/bin/env python3
"""Clock alignment of a run of test/mpi/clock/barriers.c (clock_sync.sh):

    clock_sync_check.py EVENTS_CSV JSON NRANKS OFFSET_NS DRIFT_PPM BOUND_US
                        [--no-drift RANK] [--uncorrected] [--per-host N]

EVENTS_CSV and JSON are the merge's --events-csv and --json outputs. The
ranks form simulated hosts of N consecutive ranks (--per-host, 1 when not
given; 0: all on one host): rank r is on host h = r // N, the host's first
rank is its leader, and the skew injected is h x OFFSET_NS, h x DRIFT_PPM.
The other ranks of a host must report clock_sync "host" (its leader's time
base, not measured). Every
rank must have made the same number of MPI_Barrier calls; for each barrier
the last rank to enter it must have entered no later than BOUND_US after
the first rank left it (nobody leaves a barrier before everybody has
entered: on aligned clocks the entries and exits of one barrier can only
disagree by the alignment's error). Rank r's reported clock offset must be
h x OFFSET_NS and its drift h x DRIFT_PPM, within tolerances (OFFSET_TOL_NS
plus the reported measurement error, clock_error_ns; DRIFT_TOL_PPM plus
twice that error over SPAN_S, the shortest time between the measurements
of this program: the measurement's own uncertainty when the host was too
busy for a short round trip); rank 0 and --no-drift ranks (no finalize measurement) must
report no drift (a --no-drift rank aligned through a parent that measured
a drift carries that drift: offset+drift is accepted, its drift within the
tolerance of 0). --uncorrected: the events moved back by each rank's
reported offset must disagree by more than half of OFFSET_NS (the skew did
reach the events, and the correction removed it). Prints the worst disagreement and the estimates, one line
per problem, and exits 1 on any problem."""

import argparse
import collections
import csv
import json
import sys

OFFSET_TOL_NS = 200_000    # 200 us: a few round trips on a loaded host
DRIFT_TOL_PPM = 30.0
SPAN_S = 0.8


def worst_gap(barriers, nranks, count, shift):
    """The largest (last entry - first exit) over the barriers, us, and which."""
    worst, at = -1e18, -1
    for i in range(count):
        last_in = max(barriers[r][i][0] + shift.get(r, 0) for r in range(nranks))
        first_out = min(barriers[r][i][1] + shift.get(r, 0) for r in range(nranks))
        gap_us = (last_in - first_out) * 1e6
        if gap_us > worst:
            worst, at = gap_us, i
    return worst, at


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("events")
    ap.add_argument("json")
    ap.add_argument("nranks", type=int)
    ap.add_argument("offset_ns", type=float)
    ap.add_argument("drift_ppm", type=float)
    ap.add_argument("bound_us", type=float)
    ap.add_argument("--no-drift", type=int, action="append", default=[])
    ap.add_argument("--uncorrected", action="store_true")
    ap.add_argument("--per-host", type=int, default=1)
    a = ap.parse_args()
    problems = []
    with open(a.json) as f:
        ranks = {r["rank"]: r for r in json.load(f)["ranks"]}

    barriers = collections.defaultdict(list)
    with open(a.events, newline="") as f:
        for row in csv.DictReader(f):
            if row["name"].startswith("mpi:barrier "):
                barriers[int(row["rank"])].append((float(row["start_s"]), float(row["end_s"])))
    counts = {r: len(barriers[r]) for r in range(a.nranks)}
    if len(set(counts.values())) != 1 or counts[0] == 0:
        problems.append(f"barrier calls per rank differ or are missing: {counts}")
    else:
        worst, at = worst_gap(barriers, a.nranks, counts[0], {})
        if a.uncorrected:
            shift = {r: ranks[r]["clock_offset_ns"] / 1e9 for r in range(a.nranks) if r in ranks}
            # (the ranks of one host share their leader's offset)
            raw, _ = worst_gap(barriers, a.nranks, counts[0], shift)
            print(f"before the correction: {raw / 1e3:.3f} ms")
            if raw < a.offset_ns / 2e3:
                problems.append(f"the events before the correction disagree by only {raw:.1f} us")
        print(f"worst barrier: the last rank entered {worst:.1f} us after the first left (barrier {at}); "
              f"bound {a.bound_us} us")
        if worst > a.bound_us:
            problems.append(f"barrier {at}: the last rank entered {worst:.1f} us after the first rank left "
                            f"(bound {a.bound_us} us)")

    for r in range(a.nranks):
        info = ranks.get(r)
        if info is None:
            problems.append(f"rank {r}: not in the JSON")
            continue
        host = r // a.per_host if a.per_host > 0 else 0
        leader = r == host * a.per_host if a.per_host > 0 else r == 0
        off, ppm, model = info["clock_offset_ns"], info["clock_drift_ppm"], info["clock_sync"]
        err = info["clock_error_ns"]
        off_tol = OFFSET_TOL_NS + err
        ppm_tol = DRIFT_TOL_PPM + 2 * err / SPAN_S / 1e3
        if r == 0:
            want_models = ("none",)
        elif not leader:
            want_models = ("host",)
        elif r in a.no_drift:
            want_models = ("offset", "offset+drift")
        else:
            want_models = ("offset+drift",)
        want_ppm = 0.0 if host == 0 or r in a.no_drift else host * a.drift_ppm
        print(f"rank {r}: {model}, offset {off / 1e6:.3f} ms (injected {host * a.offset_ns / 1e6:.3f}), "
              f"drift {ppm:.1f} ppm (injected {host * a.drift_ppm:.1f}), measured within {err / 1e3:.1f} us")
        if model not in want_models:
            problems.append(f"rank {r}: clock_sync {model}, expected {' or '.join(want_models)}")
        if abs(off - host * a.offset_ns) > off_tol:
            problems.append(f"rank {r}: clock offset {off} ns, injected {host * a.offset_ns:.0f} "
                            f"(tolerance {off_tol} ns)")
        if abs(ppm - want_ppm) > ppm_tol:
            problems.append(f"rank {r}: clock drift {ppm:.1f} ppm, expected {want_ppm:.1f} "
                            f"(tolerance {ppm_tol:.1f} ppm)")
    for p in problems:
        print("problem:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
