#!/usr/bin/env python3
"""Compares the merged profile of one test run with its expectation script.

    check.py EXPECT_PY RANKS CSV [--ranks-csv FILE] [--json FILE]
    check.py --config EXPECT_PY [FLAVOUR]

EXPECT_PY defines expect(rank, size) (see mpiexpect.py). CSV is the merge's
--csv output: its header must be the one of DESIGN.md section 6, and its
(name, ranks, calls) must equal the expectation exactly, MPI_Init and
MPI_Finalize rows left out. The columns operation..request must agree with
the name, and the statistics must be consistent. --ranks-csv compares the
calls of each (region, rank); --json only has to parse, unless the
expectation sets MATRIX (mpiexpect.py), which its "matrix" must equal.

Communicators named by a symbol in the expectation are first matched with
the ids of the profile: one bijection for the whole run (see mpiexpect.py),
the one under which most expected calls are found. A symbol that no id
fits, or that could only take an id another symbol has, is a difference.

Prints one line per difference and exits 1 when there is any.

--config prints the flavours (first line) and the rank counts for FLAVOUR
(second line, empty for the runner's default) that EXPECT_PY asks for.
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
    r" root=(?P<root>-?\d+) tag=(?P<tag>-?\d+) comm=(?P<comm>-?\d+)(?: request=(?P<request>[a-z0-9_]+))?"
    r"(?: file=\d+)?$"
)

# Rows the tests do not assert on: their exact form may change. Also the
# tool's own waits (docs/RELIABILITY.md, "The tool's own waits"), whose
# number depends on the machine's speed; test/mpi/disk_full.sh checks them.
LIFECYCLE_RE = re.compile(r"^(mpi:(init|init_thread|finalize)( |$)|mpiscope:(ring_wait|final_flush|signal_flush)$)")

FLAVOURS = ("mpich", "openmpi")

COMM_RE = re.compile(r" comm=(?P<comm>[^ ]+)")
INT_RE = re.compile(r"^-?\d+$")


def load_module(path):
    spec = importlib.util.spec_from_file_location("expect_" + os.path.basename(path).split(".")[0], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_expect(path):
    return load_module(path).expect


def print_config(path, flavour=None):
    module = load_module(path)
    flavours = tuple(getattr(module, "FLAVOURS", FLAVOURS))
    unknown = [f for f in flavours if f not in FLAVOURS]
    if unknown:
        sys.exit(f"{path}: unknown flavour {', '.join(unknown)} in FLAVOURS")
    ranks = getattr(module, "RANKS", ())
    if isinstance(ranks, dict):
        unknown = [f for f in ranks if f not in FLAVOURS]
        if unknown:
            sys.exit(f"{path}: unknown flavour {', '.join(unknown)} in RANKS")
        ranks = ranks.get(flavour, ()) if flavour else ()
    ranks = tuple(ranks)
    if any(not isinstance(n, int) or n < 1 for n in ranks):
        sys.exit(f"{path}: RANKS must be positive integers")
    print(" ".join(flavours))
    print(" ".join(str(n) for n in ranks))


def comm_of(name):
    """(name with the comm field cut out, comm field) of a region name."""
    m = COMM_RE.search(name)
    if not m:
        return name, None
    return name[:m.start("comm")] + "\0" + name[m.end("comm"):], m.group("comm")


def with_comm(name, comm):
    shape, _ = comm_of(name)
    return shape.replace("\0", comm, 1)


def hungarian(cost):
    """Column of each row in a minimum-cost assignment of the n x m matrix
    `cost` (n <= m, every row gets a different column)."""
    n, m = len(cost), len(cost[0]) if cost else 0
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (m + 1)
    match = [0] * (m + 1)  # match[j]: row (1-based) given column j, 0 if none
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        match[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = match[j0], inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if match[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
    result = [0] * n
    for j in range(1, m + 1):
        if match[j]:
            result[match[j] - 1] = j - 1
    return result


def resolve_comms(want_per_rank, got_per_rank, problems):
    """Finds the bijection symbol -> id (DESIGN section 4 ids as text) that
    explains the most expected calls; returns it, None for unmatched symbols.

    want_per_rank and got_per_rank: {rank: Counter(name -> calls)}."""
    literal, symbols = set(), set()
    for counts in want_per_rank.values():
        for name in counts:
            c = comm_of(name)[1]
            if c is None:
                continue
            (literal if INT_RE.match(c) else symbols).add(c)
    if not symbols:
        return {}
    # weight[symbol][id]: expected calls (per rank) that the id would explain.
    got_shapes = collections.defaultdict(collections.Counter)  # (rank, shape) -> {id: calls}
    for rank, counts in got_per_rank.items():
        for name, calls in counts.items():
            shape, c = comm_of(name)
            if c is not None and INT_RE.match(c) and c not in literal and c != "-1":
                got_shapes[(rank, shape)][c] += calls
    weight = {s: collections.Counter() for s in symbols}
    for rank, counts in want_per_rank.items():
        for name, calls in counts.items():
            shape, c = comm_of(name)
            if c in symbols:
                for cid, have in got_shapes.get((rank, shape), {}).items():
                    weight[c][cid] += min(calls, have)

    # Maximum-weight matching (Hungarian method): symbols are rows, the
    # candidate ids and one "no id" column per symbol are columns; an id that
    # explains none of a symbol's calls costs more than no id.
    rows = sorted(symbols)
    ids = sorted({cid for s in rows for cid in weight[s] if weight[s][cid] > 0}, key=int)
    cols = ids + [None] * len(rows)
    cost = [[0 if cid is None else -weight[s][cid] if weight[s].get(cid, 0) > 0 else 1 for cid in cols]
            for s in rows]
    assigned = hungarian(cost)
    mapping = {s: cols[j] for s, j in zip(rows, assigned)}
    for s in sorted(symbols):
        if mapping.get(s) is None:
            why = "no region of the profile has its calls with an id of its own"
            if weight[s]:
                taken = ", ".join(f"{cid} (taken by {o})" for cid in sorted(weight[s], key=int)
                                  for o in sorted(mapping) if mapping[o] == cid)
                why = f"its candidate ids are taken: {taken}" if taken else why
            problems.append(f"communicator {s}: no id found for it ({why})")
    return mapping


def translate(per_rank, mapping):
    """The expectation with symbols replaced by their ids (or <symbol?>)."""
    out = {}
    for rank, counts in per_rank.items():
        c2 = collections.Counter()
        for name, calls in counts.items():
            c = comm_of(name)[1]
            if c in mapping:
                name = with_comm(name, mapping[c] if mapping[c] is not None else f"<{c}?>")
            c2[name] += calls
        out[rank] = c2
    return out


def table_of(per_rank):
    table = {}
    for counts in per_rank.values():
        for name, calls in counts.items():
            ranks, total = table.get(name, (0, 0))
            table[name] = (ranks + 1, total + calls)
    return table


def read_ranks(path, problems):
    """{rank: Counter(name -> calls)} of a --ranks-csv file, or None."""
    header, rows = read_csv(path, problems)
    if header is None:
        return None
    missing = [c for c in ("name", "rank", "calls") if c not in header]
    if missing:
        problems.append(f"{path}: no column {', '.join(missing)} in header {','.join(header)}")
        return None
    got = collections.defaultdict(collections.Counter)
    for i, cells in enumerate(rows, 2):
        if len(cells) != len(header):
            problems.append(f"{path}:{i}: {len(cells)} fields, expected {len(header)}")
            continue
        row = dict(zip(header, cells))
        if LIFECYCLE_RE.match(row["name"]):
            continue
        got[as_int(row["rank"])][row["name"]] += as_int(row["calls"]) or 0
    return got


def read_table_as_ranks(path):
    """A stand-in for per-rank data from the region table alone: every
    region's calls spread over a pseudo rank (for matching symbols only)."""
    got = collections.defaultdict(collections.Counter)
    try:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if "name" in row and not LIFECYCLE_RE.match(row["name"] or ""):
                    got[None][row["name"]] += as_int(row.get("calls") or "") or 0
    except (OSError, csv.Error):
        pass
    return got


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
    if not name.startswith("mpi:"):
        # A user region (DESIGN section 4): no MPI fields.
        for field in NAME_RE.groupindex:
            if row[field] != "":
                problems.append(f"column {field} is {row[field]!r} for a region that is not an MPI call: {name}")
        return
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


def check_ranks(got, want_per_rank, problems):
    for rank in sorted(set(want_per_rank) | set(got), key=lambda r: (r is None, r)):
        want, have = want_per_rank.get(rank, {}), got.get(rank, {})
        for name in sorted(set(want) | set(have)):
            if want.get(name, 0) != have.get(name, 0):
                problems.append(f"rank {rank}: calls expected {want.get(name, 0)}, got {have.get(name, 0)}: {name}")


def main():
    if len(sys.argv) in (3, 4) and sys.argv[1] == "--config":
        print_config(*sys.argv[2:])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("expect")
    ap.add_argument("ranks", type=int)
    ap.add_argument("csv")
    ap.add_argument("--ranks-csv")
    ap.add_argument("--json")
    args = ap.parse_args()

    expect = load_expect(args.expect)
    problems = []
    want_per_rank = mpiexpect.per_rank(expect, args.ranks)
    got_per_rank = read_ranks(args.ranks_csv, problems) if args.ranks_csv else None
    if got_per_rank is not None:
        mapping = resolve_comms(want_per_rank, got_per_rank, problems)
    else:
        pooled = {None: sum(want_per_rank.values(), collections.Counter())}
        mapping = resolve_comms(pooled, read_table_as_ranks(args.csv), problems)
    want_per_rank = translate(want_per_rank, mapping)
    check_regions(args.csv, table_of(want_per_rank), problems)
    if got_per_rank is not None:
        check_ranks(got_per_rank, want_per_rank, problems)
    if problems and mapping:
        problems.append("communicators: " + ", ".join(f"{s}={mapping[s] if mapping[s] is not None else '?'}"
                                                       for s in sorted(mapping)))
    if args.json:
        try:
            with open(args.json) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            problems.append(f"{args.json}: not readable JSON: {e}")
            report = None
        want_matrix = getattr(load_module(args.expect), "MATRIX", None)
        if report is not None and want_matrix is not None:
            got = {(m["src"], m["dst"]): (m["messages"], m["bytes"]) for m in report.get("matrix", [])}
            want = want_matrix(args.ranks)
            if got != want:
                problems.append(f"matrix: {sorted(got.items())}, expected {sorted(want.items())}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
