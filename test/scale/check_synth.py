"""Checks a merge of synth-logs output against what synth-logs writes (the
rules in the header of test/scale/synth_logs.c, computed here on their own):
exact calls per region over ranks, per (region, rank), and the matrix.

    check_synth.py RANKS EVENTS REGIONS regions.csv ranks.csv matrix.csv
"""

import csv
import sys
from collections import Counter

MPI = [
    ("mpi:isend kind=point-to-point bytes=65536 peer={right} root=-1 tag=1 comm=0", "right"),
    ("mpi:irecv kind=point-to-point bytes=-1 peer={left} root=-1 tag=1 comm=0", None),
    ("mpi:isend kind=point-to-point bytes=65536 peer={left} root=-1 tag=2 comm=0", "left"),
    ("mpi:irecv kind=point-to-point bytes=-1 peer={right} root=-1 tag=2 comm=0", None),
    ("mpi:waitall kind=wait bytes=262144 peer=-1 root=-1 tag=-1 comm=0 request=mixed", None),
    ("mpi:allreduce kind=collective bytes=8 peer=-1 root=-1 tag=-1 comm=0", None),
]
INIT = "mpi:init kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=-1"
FIN = "mpi:finalize kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=-1"


def rank_calls(rank, ranks, events, regions):
    share = events // ranks + (1 if rank < events % ranks else 0)
    calls, sends = Counter(), Counter()
    if share == 0:
        return calls, sends
    calls[INIT] += 1
    left_events = share - 1
    if left_events > 0:
        calls[FIN] += 1
        left_events -= 1
    left, right = (rank - 1) % ranks, (rank + 1) % ranks
    step = 0
    while left_events > 0:
        calls[f"phase {step % regions}"] += 1
        left_events -= 1
        for fmt, to in MPI:
            if left_events == 0:
                break
            calls[fmt.format(left=left, right=right)] += 1
            if to:
                sends[right if to == "right" else left] += 1
            left_events -= 1
        step += 1
    return calls, sends


def main():
    ranks, events, regions = (int(a) for a in sys.argv[1:4])
    want_total, want_rank, want_matrix = Counter(), {}, Counter()
    for r in range(ranks):
        calls, sends = rank_calls(r, ranks, events, regions)
        want_total.update(calls)
        for name, n in calls.items():
            want_rank[(name, r)] = n
        for dst, n in sends.items():
            want_matrix[(r, dst)] += n
    with open(sys.argv[4], newline="") as f:
        got_total = {row["name"]: int(row["calls"]) for row in csv.DictReader(f)}
    with open(sys.argv[5], newline="") as f:
        got_rank = {(row["name"], int(row["rank"])): int(row["calls"]) for row in csv.DictReader(f)}
    with open(sys.argv[6], newline="") as f:
        got_matrix = {(int(row["src"]), int(row["dst"])): (int(row["messages"]), int(row["bytes"]))
                      for row in csv.DictReader(f)}
    bad = 0
    if got_total != dict(want_total):
        print(f"regions differ: {len(got_total)} got, {len(want_total)} expected", file=sys.stderr)
        for k in sorted(set(got_total) | set(want_total)):
            if got_total.get(k) != want_total.get(k):
                print(f"  {k}: got {got_total.get(k)} want {want_total.get(k)}", file=sys.stderr)
                bad += 1
                if bad > 10:
                    break
        bad += 1
    if got_rank != want_rank:
        print("per-rank calls differ", file=sys.stderr)
        bad += 1
    want_m = {k: (n, n * 65536) for k, n in want_matrix.items()}
    if got_matrix != want_m:
        print(f"matrix differs: {len(got_matrix)} cells, {len(want_m)} expected", file=sys.stderr)
        bad += 1
    if sum(got_total.values()) != events:
        print(f"calls {sum(got_total.values())} != events {events}", file=sys.stderr)
        bad += 1
    if bad:
        sys.exit(1)
    print(f"ok: {ranks} ranks, {events} events, {len(got_total)} regions, {len(got_matrix)} matrix cells")


if __name__ == "__main__":
    main()
