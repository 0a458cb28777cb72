"""Expectations of test/mpi/summary.sh: summary_check.py N ITERATIONS CASE_DIR.

Per rank of summary/loop.c run at N ranks for ITERATIONS: exactly these
regions, with exact calls and bytes; statistics that hold together."""
import csv
import json
import math
import sys

n, iters, d = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
problems = []


def fields(name):
    op = name.split()[0]
    kv = dict(f.split("=", 1) for f in name.split()[1:] if "=" in f)
    return op, kv


def expected(rank):
    right, left = (rank + 1) % n, (rank + n - 1) % n
    want = {
        ("mpi:init", "-1", "-1"): 1,
        ("mpi:finalize", "-1", "-1"): 1,
        ("mpi:allreduce", "8", "-1"): iters,
        ("mpi:bcast", "64", "-1"): iters,
        ("mpi:barrier", "-1", "-1"): (iters + 9) // 10,
    }
    if n > 1:
        want[("mpi:sendrecv", "1024", str(right))] = iters
    return want


def sane(where, row, calls):
    f = {k: float(row[k]) for k in ("total_s", "mean_s", "std_s", "min_s", "max_s", "p50_s", "p95_s", "p99_s")}
    if not (f["min_s"] <= f["p50_s"] <= f["p95_s"] <= f["p99_s"] <= f["max_s"]):
        problems.append(f"{where}: min {f['min_s']} p50 {f['p50_s']} p95 {f['p95_s']} p99 {f['p99_s']} max {f['max_s']}")
    if not math.isclose(f["mean_s"] * calls, f["total_s"], rel_tol=1e-6, abs_tol=1e-8):
        problems.append(f"{where}: mean {f['mean_s']} x {calls} calls is not the total {f['total_s']}")
    if f["std_s"] < 0 or (calls == 1 and f["std_s"] != 0):
        problems.append(f"{where}: std {f['std_s']}")


with open(f"{d}/ranks.csv", newline="") as fp:
    rows = list(csv.DictReader(fp))
got = {}
for row in rows:
    op, kv = fields(row["name"])
    key = (int(row["rank"]), op, kv.get("bytes", "?"), kv.get("peer", "?") if op == "mpi:sendrecv" else "-1")
    got[key] = got.get(key, 0) + int(row["calls"])
    sane(f"rank {row['rank']} {row['name']}", row, int(row["calls"]))
want = {}
for r in range(n):
    for (op, b, peer), c in expected(r).items():
        want[(r, op, b, peer)] = c
for k in sorted(set(got) | set(want)):
    if got.get(k) != want.get(k):
        problems.append(f"rank {k[0]} {k[1]} bytes={k[2]} peer={k[3]}: {got.get(k, 0)} calls, expected {want.get(k, 0)}")

with open(f"{d}/regions.csv", newline="") as fp:
    for row in csv.DictReader(fp):
        sane(row["name"], row, int(row["calls"]))
        on = 1 if row["name"].startswith("mpi:sendrecv ") else n   # one peer each
        if int(row["ranks"]) != on:
            problems.append(f"{row['name']}: on {row['ranks']} ranks, expected {on}")

with open(f"{d}/report.json") as fp:
    report = json.load(fp)
modes = [r.get("mode") for r in report["ranks"]]
if modes != ["summary"] * n:
    problems.append(f"rank modes {modes}")

for p in problems:
    print(p)
if problems:
    sys.exit(1)
print(f"{len(rows)} region-rank rows exact, statistics consistent")
