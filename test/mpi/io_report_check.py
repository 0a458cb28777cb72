"""The files of MPI-IO in the reports of one run (io_report.sh):

    io_report_check.py PROGRAM N DIR PATH

PROGRAM io_calls: DIR/files.csv, DIR/report.txt and DIR/report.json must
say, for the file PATH, what io_calls.expect.py says each of the N ranks
did; any other PROGRAM made no file calls: no section, no key, the CSV's
header alone."""

import collections
import csv
import importlib.util
import json
import os
import re
import sys

HEADER = ["file", "rank", "op", "calls", "bytes", "total_s"]
FIELDS = re.compile(r"^mpi:(?P<op>[a-z0-9_]+) kind=io bytes=(?P<bytes>-?\d+) .* file=(?P<file>\d+)$")


def expected_rows(n):
    """{(rank, op): (calls, bytes)} from io_calls.expect.py."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    spec = importlib.util.spec_from_file_location("io_calls_expect", os.path.join(here, "io_calls.expect.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rows = collections.defaultdict(lambda: [0, 0])
    for rank in range(n):
        for name in mod.expect(rank, n):
            m = FIELDS.match(name)
            if not m:
                continue
            r = rows[(rank, m["op"])]
            r[0] += 1
            r[1] += max(int(m["bytes"]), 0)
    return {k: tuple(v) for k, v in rows.items()}


def io_class(op):
    if op.endswith("_begin"):
        return "other"
    if op.startswith(("file_read", "file_iread")):
        return "read"
    if op.startswith(("file_write", "file_iwrite")):
        return "write"
    return "other"


def main():
    program, n, d, path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    problems = []
    with open(os.path.join(d, "files.csv"), newline="") as f:
        table = list(csv.reader(f))
    text = open(os.path.join(d, "report.txt")).read()
    report = json.load(open(os.path.join(d, "report.json")))
    if table[0] != HEADER:
        problems.append(f"--files-csv header {table[0]}, expected {HEADER}")
    if program != "io_calls":
        if len(table) != 1:
            problems.append(f"--files-csv has {len(table) - 1} rows for a run without file calls")
        if "Files (MPI-IO)" in text:
            problems.append("the text report has a Files section for a run without file calls")
        if "files" in report:
            problems.append("--json has the key files for a run without file calls")
    else:
        want = expected_rows(n)
        got = {}
        for row in table[1:]:
            if row[0] != path:
                problems.append(f"--files-csv: file {row[0]!r}, expected {path!r}")
            got[(int(row[1]), row[2])] = (int(row[3]), int(row[4]))
            if float(row[5]) < 0:
                problems.append(f"--files-csv: negative time in {row}")
        keys = [(int(r[1]), r[2]) for r in table[1:]]
        if keys != sorted(keys):
            problems.append("--files-csv rows are not by rank, then op")
        if got != want:
            for k in sorted(set(got) | set(want)):
                if got.get(k) != want.get(k):
                    problems.append(f"--files-csv rank {k[0]} {k[1]}: {got.get(k)}, expected {want.get(k)}")
        per = collections.Counter()
        for (rank, op), (calls, nbytes) in want.items():
            c = io_class(op)
            per[c] += calls
            per[c + "_bytes"] += nbytes
        line = [x for x in text.splitlines() if x.strip().startswith(path + " ")]
        cells = line[0].split() if len(line) == 1 else []
        expect = [path, str(n), str(per["read"]), str(per["read_bytes"]), str(per["write"]),
                  str(per["write_bytes"]), str(per["other"])]
        if "\nFiles (MPI-IO)\n" not in text or cells[:7] != expect:
            problems.append(f"text report: file line {cells}, expected {expect} and a time")
        files = report.get("files", [])
        if len(files) != 1:
            problems.append(f"--json files: {len(files)} files, expected 1")
        else:
            f = files[0]
            jwant = {"path": path, "ranks": n, "reads": per["read"], "read_bytes": per["read_bytes"],
                     "writes": per["write"], "write_bytes": per["write_bytes"], "other_calls": per["other"]}
            for k, v in jwant.items():
                if f.get(k) != v:
                    problems.append(f"--json files[0].{k} is {f.get(k)!r}, expected {v!r}")
            jrows = {(r["rank"], r["op"]): (r["calls"], r["bytes"]) for r in f.get("by_rank", [])}
            if jrows != want:
                problems.append("--json files[0].by_rank differs from the expectation")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
