#!/usr/bin/env python3
"""Expected results of test/mpi/likwid.sh: likwid_check.py CASE PREFIX.

PREFIX is the run's directory; PREFIX.err is the program's stderr and
PREFIX.{ranks.csv,json,roofline.csv,txt,html} the merge's outputs. The
fake library's values are documented in likwid/fake_likwid.c."""
import csv
import json
import math
import sys

CALLS = {"likwid:triad": 5, "likwid:outer": 1, "likwid:inner": 3, "likwid:threaded": 8}
METRICS = ["Runtime (RDTSC) [s]", "DP [MFLOP/s]", "Memory bandwidth [MBytes/s]", "CPI"]
EVENTS = ["FP_ARITH_INST_RETIRED_SCALAR_DOUBLE:PMC0", "CAS_COUNT_RD:MBOX0C0"]
BW = "Memory bandwidth [MBytes/s]"


def fail(msg):
    print("likwid_check: " + msg)
    sys.exit(1)


def expect(cond, msg):
    if not cond:
        fail(msg)


def close(a, b):
    return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def diagnostics(prefix):
    with open(prefix + ".err") as f:
        return [l for l in f.read().splitlines() if l.startswith("mpiscope:")]


def check_calls(prefix):
    got = {}
    with open(prefix + ".ranks.csv") as f:
        for row in csv.DictReader(f):
            if row["name"].startswith("likwid:"):
                got[(row["name"], int(row["rank"]))] = int(row["calls"])
    want = {(n, r): c for n, c in CALLS.items() for r in (0, 1)}
    expect(got == want, "likwid: calls per rank %s, expected %s" % (sorted(got.items()), sorted(want.items())))


def load(prefix):
    with open(prefix + ".json") as f:
        doc = json.load(f)
    with open(prefix + ".roofline.csv") as f:
        rows = list(csv.reader(f))
    expect(rows[0] == ["region", "rank", "gflops", "gbs", "ai", "runtime_s", "flops_metric", "bandwidth_metric"],
           "roofline CSV header %s" % rows[0])
    with open(prefix + ".txt") as f:
        text = f.read()
    return doc, rows[1:], text


def check_points(rows, want, runtime_known=lambda region: True):
    """want: region -> (gflops, gbs, ai, runtime_s), the same for ranks 0 and 1."""
    expect(len(rows) == 2 * len(want), "%d roofline points, expected %d" % (len(rows), 2 * len(want)))
    expected_order = [(reg, r) for reg in sorted(want) for r in (0, 1)]
    expect([(row[0], int(row[1])) for row in rows] == expected_order, "roofline point order %s" % rows)
    for row in rows:
        g, b, ai, rt = want[row[0]]
        vals = [float(x) for x in row[2:6]]
        expect(close(vals[0], g) and close(vals[1], b) and close(vals[2], ai), "roofline point %s" % row)
        expect(not runtime_known(row[0]) or close(vals[3], rt), "roofline runtime %s, expected %s" % (row, rt))
        expect(row[6] == "DP [MFLOP/s]" and row[7] == BW, "roofline metrics %s" % row)


def rows_of(doc, region, rank):
    c = doc["counters"]
    return sorted((r for r in c["rows"] if r["region"] == region and r["rank"] == rank), key=lambda r: r["thread"])


def same_values(got, want):
    return len(got) == len(want) and all((w is None and g is None) or close(g, w) for g, w in zip(got, want))


def case_real(prefix):
    expect(diagnostics(prefix) == [], "diagnostics: %s" % diagnostics(prefix))
    check_calls(prefix)
    doc, points, _ = load(prefix)
    expect(doc["counters"]["rows"] == [] and points == [], "counters without MPISCOPE_LIKWID")


def case_real_group(prefix):
    check_calls(prefix)
    diags = diagnostics(prefix)
    doc, _, _ = load(prefix)
    ranks = {r["rank"] for r in doc["counters"]["rows"]}
    if diags:
        expect(len(diags) == 2 and all("LIKWID" in d for d in diags),
               "no counter access: expected one warning naming LIKWID per rank, got %s" % diags)
        expect(not ranks, "counters although LIKWID warned")
    else:
        expect(ranks == {0, 1}, "LIKWID measured without warning, but counters of ranks %s" % sorted(ranks))


def case_perfmon(prefix, cpus=None):
    expect(diagnostics(prefix) == [], "diagnostics: %s" % diagnostics(prefix))
    check_calls(prefix)
    doc, points, text = load(prefix)
    c = doc["counters"]
    expect(c["sets"] == [{"group": "FAKE_DP", "source": "LIKWID", "events": EVENTS, "metrics": METRICS}], "sets %s" % c["sets"])
    # per CPU position p: flops 20000 + 10000 p MFLOP/s, 8000 MBytes/s; summed over two CPUs
    check_points(points, {"likwid:triad": (50, 16, 3.125, 2.5), "likwid:outer": (50, 16, 3.125, 3.5),
                          "likwid:inner": (50, 16, 3.125, 1.5), "likwid:threaded": (50, 16, 3.125, None)},
                 runtime_known=lambda region: region != "likwid:threaded")
    for rank in (0, 1):
        rows = rows_of(doc, "likwid:triad", rank)
        expect(len(rows) == 2, "triad rows of rank %d: %s" % (rank, rows))
        for p, row in enumerate(rows):
            want = [5 * 1000.0 * (p + 1), 5 * 2000.0 * (p + 1), 0.5, 20000.0 + 10000.0 * p, 8000.0, 0.5 + p]
            expect(row["count"] == 5 and close(row["time_s"], 2.5) and same_values(row["values"], want),
                   "triad row %s, expected values %s" % (row, want))
        whole = rows_of(doc, None, rank)
        expect(len(whole) == 2 and all(r["count"] == 1 and r["values"][4] == 0 for r in whole),
               "whole-run rows of rank %d: %s" % (rank, whole))
    roof = doc["counters"]["roofline"]
    expect(roof["rejected"] == 2, "rejected points %s, expected 2 (the whole run: bandwidth 0)" % roof["rejected"])
    expect(close(roof["peak_gflops"], 50) and roof["peak_gflops_empirical"] and close(roof["peak_gbs"], 16)
           and roof["peak_gbs_empirical"], "ceilings %s" % roof)
    expect("Hardware counters (LIKWID FAKE_DP: 2 events, 4 metrics)" in text, "no counters section in the text")
    expect("Roofline (8 points; ceilings 50 GFLOP/s empirical, 16 GB/s empirical)" in text,
           "no roofline section in the text")
    with open(prefix + ".html") as f:
        html = f.read()
    expect('"roofline":{"peak_gflops":50,' in html, "no roofline data in the HTML report")


def case_perfmon_unknown(prefix):
    check_calls(prefix)
    diags = diagnostics(prefix)
    expect(len(diags) == 2 and all("LIKWID" in d and "NO_SUCH_GROUP" in d for d in diags),
           "an unknown group: expected one warning per rank, got %s" % diags)
    doc, points, _ = load(prefix)
    expect(doc["counters"]["rows"] == [] and points == [], "counters of an unknown group")


def case_marker(prefix):
    expect(diagnostics(prefix) == [], "diagnostics: %s" % diagnostics(prefix))
    check_calls(prefix)
    doc, points, text = load(prefix)
    # per thread and call 0.25 s, 5e9 FLOP, 1.25e8 lines of 64 bytes: 20 GFLOP/s, 32 GB/s
    check_points(points, {"likwid:triad": (20, 32, 0.625, 1.25), "likwid:outer": (20, 32, 0.625, 0.25),
                          "likwid:inner": (20, 32, 0.625, 0.75), "likwid:threaded": (40, 64, 0.625, 1.0)})
    for rank in (0, 1):
        rows = rows_of(doc, "likwid:threaded", rank)
        expect(len(rows) == 2 and {r["thread"] for r in rows} == {1, 2} and {r["cpu"] for r in rows} == {11, 12},
               "threaded rows of rank %d: %s" % (rank, rows))
        for row in rows:
            expect(row["count"] == 4 and close(row["time_s"], 1.0) and
                   same_values(row["values"], [2e10, 5e8, 1.0, 20000.0, 32000.0, 1.0]), "threaded row %s" % row)
    roof = doc["counters"]["roofline"]
    expect(roof["peak_gflops"] == 100 and not roof["peak_gflops_empirical"] and close(roof["peak_gbs"], 64)
           and roof["peak_gbs_empirical"] and roof["rejected"] == 0, "ceilings %s" % roof)
    expect("ceilings 100 GFLOP/s, 64 GB/s empirical)" in text, "the text's ceilings")


def case_marker_noclose(prefix):
    expect(diagnostics(prefix) == [], "diagnostics: %s" % diagnostics(prefix))
    check_calls(prefix)
    doc, points, text = load(prefix)
    expect(points == [], "roofline points without LIKWID's evaluation: %s" % points)
    expect(doc["counters"]["roofline"]["rejected"] == 8, "rejected %s" % doc["counters"]["roofline"]["rejected"])
    for rank in (0, 1):
        rows = rows_of(doc, "likwid:triad", rank)
        expect(len(rows) == 1 and rows[0]["count"] == 5 and close(rows[0]["time_s"], 1.25) and
               same_values(rows[0]["values"], [2.5e10, 6.25e8, None, None, None, None]), "triad rows %s" % rows)
        rows = rows_of(doc, "likwid:threaded", rank)
        expect(len(rows) == 2 and all(r["count"] == 4 and same_values(r["values"][:2], [2e10, 5e8]) for r in rows),
               "threaded rows %s" % rows)
    expect("8 regions left out" in text, "the text's rejected points")


CASES = {"real": case_real, "real-group": case_real_group, "perfmon": case_perfmon,
         "perfmon-unknown": case_perfmon_unknown, "marker": case_marker, "marker-noclose": case_marker_noclose}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in CASES:
        fail("usage: likwid_check.py {%s} PREFIX" % "|".join(CASES))
    CASES[sys.argv[1]](sys.argv[2])
