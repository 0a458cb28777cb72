#!/usr/bin/env python3
"""Compares the merged profile of one test run with its expectation script.

    check.py EXPECT_PY RANKS CSV [--ranks-csv FILE] [--json FILE]

EXPECT_PY defines expect(rank, size) (see mpiexpect.py). CSV is the merge's
--csv output: its header must be the one of DESIGN.md section 6, and its
(name, ranks, calls) must equal the expectation exactly, MPI_Init and
MPI_Finalize rows left out. The columns operation..request must agree with
the name, and the statistics must be consistent. --ranks-csv compares the
calls of each (region, rank); --json only has to parse.

Prints one line per difference and exits 1 when there is any.
"""

import argparse
import collections
import csv
import importlib.util
import json
import math
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpiexpect  # noqa: E402

CSV_HEADER = (
    "name,operation,kind,bytes,peer,root,tag,comm,request,ranks,calls,total_s,mean_s,std_s,"
    "min_s,max_s,p50_s,p95_s,p99_s,first_s,last_s,imbalance_pct"
).split(",")

NAME_RE = re.compile(
    r"^mpi:(?P<operation>[a-z0-9_]+) kind=(?P<kind>[a-z-]+) bytes=(?P<bytes>-?\d+) peer=(?P<peer>-?\d+)"
    r" root=(?P<root>-?\d+) tag=(?P<tag>-?\d+) comm=(?P<comm>-?\d+)(?: request=(?P<request>[a-z0-9_]+))?$"
)

# Rows the tests do not assert on: their exact form may change.
LIFECYCLE_RE = re.compile(r"^mpi:(init|init_thread|finalize)( |$)")

def load_expect(path):
    spec = importlib.util.spec_from_file_location("expect_" + os.path.basename(path).split(".")[0], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.expect


def read_csv(path, problems):
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        problems.append(f"{path}: cannot read: {e.strerror}")
        return None, []
    if not rows:
        problems.append(f"{path}: empty")
        return None, []
    return rows[0], rows[1:]


def as_int(text):
    try:
        return int(text)
    except ValueError:
        return None


def check_fields(row, problems):
    """The columns operation..request must be the fields of the name."""
    name = row["name"]
    m = NAME_RE.match(name)
    if not m:
        problems.append(f"malformed region name: {name!r}")
        return
    for field, value in m.groupdict().items():
        value = value or ""
        if row[field] != value:
            problems.append(f"column {field} is {row[field]!r}, the name says {value!r}: {name}")


def half_ulp(text):
    """Half the last printed digit of a number: the rounding it may carry."""
    m = re.match(r"^[-+]?\d*(?:\.(\d*))?(?:[eE]([-+]?\d+))?$", text.strip())
    if not m:
        return 0.0
    decimals = len(m.group(1) or "")
    exponent = int(m.group(2) or 0)
    return 0.5 * 10.0 ** (exponent - decimals)


def check_stats(row, problems):
    """Consistency of the timing columns of one region row, allowing for the
    rounding of the printed values and, for percentiles, for the sketch's
    relative error (DESIGN section 6: at most 1 %)."""
    name = row["name"]
    values = {}
    for col in CSV_HEADER[11:]:
        try:
            values[col] = float(row[col])
        except ValueError:
            problems.append(f"column {col} is not a number ({row[col]!r}): {name}")
            return
        if not math.isfinite(values[col]) or (col != "imbalance_pct" and values[col] < 0):
            problems.append(f"column {col} is {row[col]}: {name}")

    def le(a, b, rel=0.0):
        slack = half_ulp(row[a]) + half_ulp(row[b]) + rel * abs(values[b]) + 1e-12
        if values[a] > values[b] + slack:
            problems.append(f"{a}={row[a]} > {b}={row[b]}: {name}")

    for a, b in [("min_s", "mean_s"), ("mean_s", "max_s"), ("min_s", "first_s"), ("first_s", "max_s"),
                 ("min_s", "last_s"), ("last_s", "max_s"), ("max_s", "total_s")]:
        le(a, b)
    for a, b in [("min_s", "p50_s"), ("p50_s", "p95_s"), ("p95_s", "p99_s"), ("p99_s", "max_s")]:
        le(a, b, 0.011)
    if as_int(row["ranks"]) == 1 and values["imbalance_pct"] != 0:
        problems.append(f"imbalance_pct={row['imbalance_pct']} with one rank: {name}")
    calls = as_int(row["calls"])
    if calls:
        slack = calls * half_ulp(row["mean_s"]) + half_ulp(row["total_s"]) + 1e-6 * values["total_s"] + 1e-12
        if abs(values["mean_s"] * calls - values["total_s"]) > slack:
            problems.append(f"mean_s x calls = {values['mean_s'] * calls:g}, total_s = {row['total_s']}: {name}")


def check_regions(path, want, problems):
    header, rows = read_csv(path, problems)
    if header is None:
        return
    if header != CSV_HEADER:
        problems.append(f"{path}: header is\n    {','.join(header)}\n  expected\n    {','.join(CSV_HEADER)}")
        return
    got = {}
    consistency = []  # reported after the differences in the table
    for i, cells in enumerate(rows, 2):
        if len(cells) != len(header):
            problems.append(f"{path}:{i}: {len(cells)} fields, expected {len(header)}")
            continue
        row = dict(zip(header, cells))
        name = row["name"]
        if LIFECYCLE_RE.match(name):
            continue
        if name in got:
            problems.append(f"{path}:{i}: region listed twice: {name}")
        check_fields(row, consistency)
        check_stats(row, consistency)
        got[name] = (as_int(row["ranks"]), as_int(row["calls"]))

    for name in sorted(set(want) | set(got)):
        if name not in got:
            problems.append(f"missing region (expected ranks={want[name][0]} calls={want[name][1]}): {name}")
        elif name not in want:
            problems.append(f"unexpected region (got ranks={got[name][0]} calls={got[name][1]}): {name}")
        elif got[name] != want[name]:
            problems.append(f"ranks,calls: expected {want[name][0]},{want[name][1]},"
                            f" got {got[name][0]},{got[name][1]}: {name}")
    problems.extend(consistency)


def check_ranks(path, want_per_rank, problems):
    header, rows = read_csv(path, problems)
    if header is None:
        return
    missing = [c for c in ("name", "rank", "calls") if c not in header]
    if missing:
        problems.append(f"{path}: no column {', '.join(missing)} in header {','.join(header)}")
        return
    got = collections.defaultdict(collections.Counter)
    for i, cells in enumerate(rows, 2):
        if len(cells) != len(header):
            problems.append(f"{path}:{i}: {len(cells)} fields, expected {len(header)}")
            continue
        row = dict(zip(header, cells))
        if LIFECYCLE_RE.match(row["name"]):
            continue
        got[as_int(row["rank"])][row["name"]] += as_int(row["calls"]) or 0
    for rank in sorted(set(want_per_rank) | set(got), key=lambda r: (r is None, r)):
        want, have = want_per_rank.get(rank, {}), got.get(rank, {})
        for name in sorted(set(want) | set(have)):
            if want.get(name, 0) != have.get(name, 0):
                problems.append(f"rank {rank}: calls expected {want.get(name, 0)}, got {have.get(name, 0)}: {name}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("expect")
    ap.add_argument("ranks", type=int)
    ap.add_argument("csv")
    ap.add_argument("--ranks-csv")
    ap.add_argument("--json")
    args = ap.parse_args()

    expect = load_expect(args.expect)
    problems = []
    check_regions(args.csv, mpiexpect.region_table(expect, args.ranks), problems)
    if args.ranks_csv:
        check_ranks(args.ranks_csv, mpiexpect.per_rank(expect, args.ranks), problems)
    if args.json:
        try:
            with open(args.json) as f:
                json.load(f)
        except (OSError, ValueError) as e:
            problems.append(f"{args.json}: not readable JSON: {e}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
