"""The report of MPI time by call site (DESIGN §6, --sites-csv), checked
against what the other reports of the same merge say.

The expected rows are computed here, independently of the merge's own
code for them: calls and times from --callsites-csv (one row per region,
rank and call site), each site's object from --json's callsites, each
region's bytes from --csv, the run's MPI and application time from --json.
They are compared with --sites-csv, with --json's "sites", and with the
text report's first table ("MPI time by call site"); --html must be there
and non-empty.

    sites_check.py DIR     (DIR holds sites.csv, callsites.csv, regions.csv,
                            report.json, report.txt, report.html)

The application checkers (lammps_check.py, ...) import it and add what
they know of their program."""
import csv
import json
import math
import os
import re
import sys
from collections import defaultdict

HEADER = ["operation", "function", "file", "line", "object", "calls", "ranks", "total_s",
          "mpi_pct", "app_pct", "bytes", "imbalance_pct", "wait_pct"]
# Start-up and shutdown are shown apart, never as sites.
NOT_SITES = {"init", "init_thread", "finalize"}
UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}


class Failure(Exception):
    pass


def fail(msg):
    raise Failure(msg)


def read_csv(path, header=None):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        fail(f"{path}: empty")
    if header is not None and rows[0] != header:
        fail(f"{path}: header {','.join(rows[0])!r}, expected {','.join(header)!r}")
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def op_of(region):
    """The op of an MPI region name 'mpi:<op> kind=...', else None."""
    m = re.match(r"mpi:(\S+) kind=", region)
    return m.group(1) if m else None


def site_key(op, function, file, line, obj):
    return (op, function, file, int(line) if line not in ("", None) else None, obj)


def expected_sites(d):
    """The rows --sites-csv must have, by site key, from the other reports."""
    report = json.load(open(os.path.join(d, "report.json")))
    run = report["run"]
    objects = {}
    for c in report["callsites"]:
        objects[(c["region"], c["rank"], c["function"], c["file"], c["line"])] = c["object"]
    region_bytes = {r["name"]: int(r["bytes"]) for r in read_csv(os.path.join(d, "regions.csv"))
                    if r["bytes"] != ""}
    sites = defaultdict(lambda: {"calls": 0, "total_s": 0.0, "per_rank": defaultdict(float),
                                 "rank_calls": defaultdict(int), "bytes": 0, "has_bytes": False})
    for r in read_csv(os.path.join(d, "callsites.csv"),
                      ["region", "rank", "function", "file", "line", "calls", "total_s"]):
        op = op_of(r["region"])
        if op is None or op in NOT_SITES:
            continue
        rank, line = int(r["rank"]), int(r["line"])
        obj = objects.get((r["region"], rank, r["function"], r["file"], line))
        if obj is None:
            fail(f"callsites.csv row {r} is not among --json's callsites")
        s = sites[site_key(op, r["function"], r["file"], line, obj)]
        calls = int(r["calls"])
        s["calls"] += calls
        s["total_s"] += float(r["total_s"])
        s["per_rank"][rank] += float(r["total_s"])
        s["rank_calls"][rank] += calls
        if calls > 0 and region_bytes.get(r["region"], -1) >= 0:
            s["bytes"] += region_bytes[r["region"]] * calls
            s["has_bytes"] = True
    for s in sites.values():
        s["ranks"] = sum(1 for n in s["rank_calls"].values() if n > 0)
        s["mpi_pct"] = 100.0 * s["total_s"] / run["mpi_s"] if run["mpi_s"] > 0 else 0.0
        s["app_pct"] = 100.0 * s["total_s"] / run["app_s"] if run["app_s"] > 0 else 0.0
        if not s["has_bytes"]:
            s["bytes"] = -1
        busy = [t for t in s["per_rank"].values() if t > 0]
        s["imbalance_pct"] = (max(busy) / (sum(busy) / len(busy)) - 1.0) * 100.0 if len(busy) >= 2 else 0.0
    # The sites cover every MPI call but start-up and shutdown: their time
    # is the run's MPI time.
    total = sum(s["total_s"] for s in sites.values())
    if not math.isclose(total, run["mpi_s"], rel_tol=1e-6, abs_tol=1e-8):
        fail(f"the call sites of --callsites-csv sum to {total:.9g} s, the run's MPI time is {run['mpi_s']:.9g} s")
    return report, sites


def close(got, want, what, rel=1e-5, abs_=1e-8):
    if not math.isclose(got, want, rel_tol=rel, abs_tol=abs_):
        fail(f"{what}: {got!r}, expected {want!r}")


def check_row(key, got, want, where):
    """One row of --sites-csv (or --json, as strings or numbers) against the expectation."""
    what = f"{where} {key[0]} at {key[1]!r} ({key[2]}:{key[3]}, {key[4]})"
    for f in ("calls", "ranks", "bytes"):
        if int(got[f]) != want[f]:
            fail(f"{what}: {f} {got[f]}, expected {want[f]}")
    for f in ("total_s", "mpi_pct", "app_pct", "imbalance_pct"):
        close(float(got[f]), want[f], f"{what}: {f}", rel=1e-5, abs_=1e-6 if f == "total_s" else 1e-4)


def check_csv(d, report, sites):
    rows = read_csv(os.path.join(d, "sites.csv"), HEADER)
    seen = set()
    for r in rows:
        key = site_key(r["operation"], r["function"], r["file"], r["line"], r["object"])
        if key in seen:
            fail(f"sites.csv: two rows for {key}")
        seen.add(key)
        if key not in sites:
            fail(f"sites.csv: row {key} is no call site of --callsites-csv")
        check_row(key, r, sites[key], "sites.csv")
    missing = set(sites) - seen
    if missing:
        fail(f"sites.csv lacks {len(missing)} call sites, among them {sorted(missing)[0]}")
    totals = [float(r["total_s"]) for r in rows]
    if any(a < b for a, b in zip(totals, totals[1:])):
        fail("sites.csv: rows not by total_s descending")
    summary = any(r.get("mode") == "summary" for r in report["ranks"])
    for r in rows:
        if summary:
            if r["wait_pct"] != "":
                fail(f"sites.csv: wait_pct {r['wait_pct']!r} in summary mode (must be empty)")
        elif r["wait_pct"] == "" or not 0.0 <= float(r["wait_pct"]) <= 100.0 + 1e-9:
            fail(f"sites.csv: wait_pct {r['wait_pct']!r} of {r['operation']} at {r['function']!r}")
    if not summary:
        check_waits(report, rows)
    return rows


def check_waits(report, rows):
    """Per op, the waiting that the sites give is the waiting of the wait states."""
    by_op = defaultdict(float)
    for w in report.get("wait_states") or []:
        op = op_of(w["region"])
        if op is not None and op not in NOT_SITES:
            by_op[op] += w["wait_s"]
    site_op = defaultdict(float)
    for r in rows:
        site_op[r["operation"]] += float(r["wait_pct"]) * float(r["total_s"]) / 100.0
    for op in set(by_op) | set(site_op):
        close(site_op[op], by_op[op], f"sites.csv: the waiting time of {op} over its sites "
              f"(wait_pct x total_s) against --json's wait_states", rel=1e-3, abs_=1e-6)


def check_json(report, rows):
    js = report.get("sites")
    if not isinstance(js, list):
        fail("report.json has no list \"sites\"")
    if len(js) != len(rows):
        fail(f"report.json: {len(js)} sites, sites.csv {len(rows)}")
    for i, (j, r) in enumerate(zip(js, rows)):
        key = site_key(r["operation"], r["function"], r["file"], r["line"], r["object"])
        jkey = site_key(j["operation"], j["function"], j["file"], j["line"], j["object"])
        if jkey != key:
            fail(f"report.json sites[{i}] is {jkey}, sites.csv row {i + 1} is {key}")
        for f in ("calls", "ranks", "bytes"):
            if j[f] != int(r[f]):
                fail(f"report.json sites[{i}].{f} {j[f]}, sites.csv {r[f]}")
        for f in ("total_s", "mpi_pct", "app_pct", "imbalance_pct"):
            close(float(j[f]), float(r[f]), f"report.json sites[{i}].{f} against sites.csv", rel=1e-5, abs_=1e-9)
        if (j["wait_pct"] is None) != (r["wait_pct"] == ""):
            fail(f"report.json sites[{i}].wait_pct {j['wait_pct']!r}, sites.csv {r['wait_pct']!r}")
        if j["wait_pct"] is not None:
            close(float(j["wait_pct"]), float(r["wait_pct"]), f"report.json sites[{i}].wait_pct", abs_=1e-4)
    return js


def printed(text, want, what, scale=1.0):
    """A number as the text report printed it against the exact value: equal
    up to the rounding of its printed digits."""
    m = re.fullmatch(r"([0-9]+(?:\.([0-9]+))?)", text)
    if not m:
        fail(f"{what}: {text!r} is not a number")
    step = 10.0 ** -len(m.group(2) or "")
    if abs(float(text) - want / scale) > step / 2 + 1e-9 + 1e-6 * abs(want / scale):
        fail(f"{what}: printed {text}, the value is {want / scale!r}")


def printed_time(text, want, what):
    m = re.fullmatch(r"([0-9.]+)\s*(s|ms|us|µs|ns)", text)
    if not m:
        fail(f"{what}: {text!r} is not a time")
    printed(m.group(1), want, what, UNITS[m.group(2)])


ROW = re.compile(r"\s*(?P<mpi_pct>\S+)\s+(?P<app_pct>\S+)\s+(?P<total>\S+ \S+)\s+(?P<calls>[0-9,]+)\s+"
                 r"(?P<ranks>[0-9]+)\s+(?P<imbal>\S+)\s+(?P<wait>\S+)\s+(?P<call>MPI_\S+) at (?P<site>.+)")


def text_section(path, title):
    """The lines of the text report, the index of the section TITLE's
    title line, and its rows (to the first blank or parenthesized line)."""
    lines = open(path, encoding="utf-8").read().splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(title)]
    if not starts:
        fail(f"{path}: no section {title!r}")
    rows = []
    for line in lines[starts[0] + 2:]:
        if not line.strip() or line.lstrip().startswith("("):
            break
        rows.append(line)
    return lines, starts[0], rows


def mpi_name(op):
    return "MPI_" + op[:1].upper() + op[1:]


def shows_site(shown, j):
    """SHOWN (the text report's call site, C++ names shortened) names the
    site J: every word of it is in the site's function, file or object, its
    offset or line is the site's, and a site without a line names its object."""
    full = f"{j['function']} {j['file']} {j['object']} {j['line']}"
    if not all(w in full for w in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*|0x[0-9a-f]+|[0-9]+", shown)):
        return False
    offset = re.search(r"\+0x[0-9a-f]+$", j["function"] or j["file"])
    if offset and offset.group(0) not in shown:
        return False
    if j["line"] > 0:
        return f":{j['line']}" in shown
    return j["object"] in shown


def check_text(d, report, js):
    path = os.path.join(d, "report.txt")
    title = "MPI time by call site"
    lines, at, rows = text_section(path, title)
    # A table: a title at the margin, its indented column header below.
    tables = [lines[i] for i in range(1, at) if re.match(r"[A-Z]", lines[i]) and lines[i + 1].startswith("  ")]
    if tables:
        fail(f"{path}: the table {tables[0]!r} comes before {title!r}, the first table")
    following = [line for line in lines[at + 1:] if re.match(r"[A-Z]", line)]
    if not following or not following[0].startswith("MPI time by function"):
        fail(f"{path}: {title!r} is not followed by \"MPI time by function\"")
    m = re.fullmatch(re.escape(title) + r" \(([0-9,]+) of ([0-9,]+)\)", lines[at])
    if not m or int(m.group(1).replace(",", "")) != len(rows) or int(m.group(2).replace(",", "")) != len(js):
        fail(f"{path}: {lines[at]!r}: expected {len(rows)} of {len(js)} (the rows shown of report.json's sites)")
    if not rows:
        fail(f"{path}: {title!r} has no rows")
    summary = all(j["wait_pct"] is None for j in js)
    for i, (line, j) in enumerate(zip(rows, js)):
        what = f"{path}: row {i + 1} of {title!r} ({line.strip()})"
        r = ROW.fullmatch(line)
        if not r:
            fail(f"{what}: not % MPI, % app, total, calls, ranks, imbal %, wait %, call and site")
        if r["call"] != mpi_name(j["operation"]):
            fail(f"{what}: {r['call']}, report.json's sites[{i}] is {j['operation']}")
        if not shows_site(r["site"], j):
            fail(f"{what}: {r['site']!r} does not name report.json's sites[{i}] "
                 f"({j['function']!r}, {j['file']}:{j['line']}, {j['object']})")
        if int(r["calls"].replace(",", "")) != j["calls"] or int(r["ranks"]) != j["ranks"]:
            fail(f"{what}: calls, ranks: report.json has {j['calls']}, {j['ranks']}")
        printed_time(r["total"], j["total_s"], what + " total")
        printed(r["mpi_pct"], j["mpi_pct"], what + " % MPI")
        printed(r["app_pct"], j["app_pct"], what + " % app")
        printed(r["imbal"], j["imbalance_pct"], what + " imbal %")
        if summary:
            if r["wait"] != "-":
                fail(f"{what}: wait % {r['wait']!r} in summary mode (expected -)")
        else:
            printed(r["wait"], j["wait_pct"], what + " wait %")
    note = next((line for line in lines[at + 2 + len(rows):at + 6 + len(rows)] if "% MPI: of the MPI time" in line), "")
    m = re.search(r"of the MPI time, (\S+ \S+); % app: of the application time, (\S+ \S+);", note)
    if not m:
        fail(f"{path}: no note under {title!r} with the MPI and application times")
    printed_time(m.group(1), report["run"]["mpi_s"], f"{path}: the MPI time under {title!r}")
    printed_time(m.group(2), report["run"]["app_s"], f"{path}: the application time under {title!r}")
    return rows


def check_html(d):
    path = os.path.join(d, "report.html")
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        fail(f"{path}: not written, or empty")


def check(d):
    """Every check above; returns the --json report and its sites."""
    report, sites = expected_sites(d)
    rows = check_csv(d, report, sites)
    js = check_json(report, rows)
    shown = check_text(d, report, js)
    check_html(d)
    return report, js, len(shown)


def main(argv, extra=None):
    """Runs check(DIR), then extra(report, sites) where given; prints one
    line per outcome, exits 1 on a failure."""
    d = argv[1]
    try:
        report, js, shown = check(d)
        notes = extra(report, js) if extra else []
    except Failure as e:
        print(f"FAIL: {d}: {e}")
        return 1
    print(f"ok: {d}: {len(js)} call sites agree with --callsites-csv, --json and --csv "
          f"({shown} in the text report){''.join('; ' + n for n in notes or [])}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv))
