"""sites_check.py must fail on reports that are wrong in one place: copies
of a run's good reports (DIR), each changed once, are checked, and every
one must be refused.

    sites_mutants.py DIR    (DIR: reports that sites_check.py accepts)"""
import csv
import io
import json
import os
import re
import shutil
import sys
import tempfile

import sites_check


def edit_csv(path, change):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    change(rows)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    open(path, "w").write(out.getvalue())


def edit_json(path, change):
    with open(path) as f:
        j = json.load(f)
    change(j)
    json.dump(j, open(path, "w"))


def edit_text(path, change):
    with open(path, encoding="utf-8") as f:
        text = change(f.read())
    open(path, "w", encoding="utf-8").write(text)


def col(name):
    return sites_check.HEADER.index(name)


def bump_first_pct(text):
    """The first row of the table by call site with its % MPI 0.2 higher."""
    lines = text.splitlines(keepends=True)
    i = next(k for k, line in enumerate(lines) if line.startswith("MPI time by call site")) + 2
    m = re.match(r"(\s*)([0-9.]+)", lines[i])
    lines[i] = m.group(1) + "%.1f" % (float(m.group(2)) + 0.2) + lines[i][m.end():]
    return "".join(lines)


def set_cell(r, c, f):
    r[c] = f(r[c])


MUTANTS = {
    "calls of a row": ("sites.csv", lambda rows: set_cell(rows[1], col("calls"), lambda v: str(int(v) + 1))),
    "ranks of a row": ("sites.csv", lambda rows: set_cell(rows[-1], col("ranks"), lambda v: str(int(v) + 1))),
    "bytes of a row": ("sites.csv", lambda rows: set_cell(rows[1], col("bytes"), lambda v: str(int(v) + 8))),
    "mpi_pct 1 % off": ("sites.csv", lambda rows: set_cell(rows[1], col("mpi_pct"), lambda v: "%.6f" % (float(v) * 1.01))),
    "imbalance_pct off": ("sites.csv", lambda rows: set_cell(rows[1], col("imbalance_pct"),
                                                             lambda v: "%.6f" % (float(v) + 1))),
    "wait_pct off": ("sites.csv", lambda rows: set_cell(rows[1], col("wait_pct"),
                                                        lambda v: "%.6f" % (float(v or 0) + 5))),
    "two rows swapped": ("sites.csv", lambda rows: rows.__setitem__(slice(1, 3), [rows[2], rows[1]])),
    "a row missing": ("sites.csv", lambda rows: rows.pop()),
    "a wrong header": ("sites.csv", lambda rows: rows[0].__setitem__(col("wait_pct"), "waiting_pct")),
    "JSON app_pct": ("report.json", lambda j: j["sites"][0].__setitem__("app_pct", j["sites"][0]["app_pct"] + 1)),
    "JSON without sites": ("report.json", lambda j: j.pop("sites")),
    "text % MPI": ("report.txt", bump_first_pct),
    "text without the table": ("report.txt", lambda t: t.replace("MPI time by call site", "MPI time by site")),
    "HTML empty": ("report.html", lambda t: ""),
}


def main(d):
    failed = 0
    for name, (f, change) in MUTANTS.items():
        t = tempfile.mkdtemp()
        try:
            for g in ("sites.csv", "callsites.csv", "regions.csv", "report.json", "report.txt", "report.html"):
                shutil.copy(os.path.join(d, g), t)
            path = os.path.join(t, f)
            {"csv": edit_csv, "json": edit_json}.get(f.rsplit(".", 1)[1], edit_text)(path, change)
            try:
                sites_check.check(t)
                print(f"FAIL: sites_check.py accepts reports with {name} changed")
                failed = 1
            except sites_check.Failure:
                pass
        finally:
            shutil.rmtree(t, ignore_errors=True)
    if not failed:
        print(f"ok: sites_check.py refuses each of {len(MUTANTS)} reports changed in one place")
    return failed


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
