#!/usr/bin/env python3
"""Check a --callsites-csv against the "site: OP CALLS" markers of sources.

usage: callsites_check.py CSV NRANKS SOURCE[=OBJECT] ...

Every marked line of a SOURCE is a call site: each of the NRANKS ranks made
CALLS calls of an OP region there. For a plain SOURCE, the rows of OP must
be exactly those lines (file name and line) with those calls per rank. With
SOURCE=OBJECT the program was stripped: its rows must name OBJECT and an
offset ("OBJECT+0x...", line 0) and sum to the marked calls per rank.
Operations no source marks are not checked. Exit 0 when all hold, else 1
with what differs.
"""
import collections
import csv
import os
import re
import sys

MARK = re.compile(r"site: (\w+) (\d+)")


def markers(path):
    with open(path) as f:
        for lineno, text in enumerate(f, 1):
            m = MARK.search(text)
            if m:
                yield m.group(1), lineno, int(m.group(2))


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    csv_path, nranks = argv[1], int(argv[2])
    # op -> {(file, line) or (object, None): calls per rank}
    want = collections.defaultdict(collections.Counter)
    stripped = {}
    for spec in argv[3:]:
        src, _, obj = spec.partition("=")
        for op, line, calls in markers(src):
            key = (obj, None) if obj else (os.path.basename(src), line)
            want[op][key] += calls
            if obj:
                stripped[op] = obj
    got = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        op = r["region"].split()[0].removeprefix("mpi:")
        if op not in want:
            continue
        obj = stripped.get(op)
        if obj and r["file"].startswith(obj + "+0x") and r["line"] == "0":
            key = (obj, None)
        else:
            key = (os.path.basename(r["file"]), int(r["line"]))
        got[op][int(r["rank"])][key] += int(r["calls"])
    bad = []
    for op, sites in sorted(want.items()):
        for rank in range(nranks):
            have = dict(got[op][rank])
            if have != dict(sites):
                bad.append(f"{op} rank {rank}: call sites {sorted(have.items(), key=str)}, "
                           f"expected {sorted(sites.items(), key=str)}")
    for b in bad:
        print(f"callsites_check: {b}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
