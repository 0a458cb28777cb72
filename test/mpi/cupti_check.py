#!/usr/bin/env python3
"""Expected results of the CUPTI tests (cupti.sh).

    cupti_check.py CASE PREFIX

PREFIX is the log directory of the case; the merge's outputs are
PREFIX.csv, PREFIX.json, PREFIX.txt, PREFIX.trace.json, PREFIX.events.csv,
PREFIX.html, and the run's stderr PREFIX.err (and PREFIX.merge.err).
Durations come from the fake GPU clock through the tool clock: they must
match to 1e-4 relative plus 100 ns per event.
"""
import csv
import json
import os
import sys

US = 1e-6


def fail(msg):
    print("cupti_check: " + msg)
    sys.exit(1)


def expect(cond, msg):
    if not cond:
        fail(msg)


def close(got, want, n=1):
    return abs(got - want) <= 1e-4 * want + 100e-9 * n


def load(prefix):
    with open(prefix + ".json") as f:
        doc = json.load(f)
    with open(prefix + ".csv") as f:
        rows = {r["name"]: r for r in csv.DictReader(f)}
    return doc, rows


def diagnostics(prefix):
    with open(prefix + ".err", errors="replace") as f:
        return [l for l in f.read().splitlines() if l.startswith("mpiscope:")]


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def check_region(rows, name, calls, each_s, ranks):
    expect(name in rows, "no region %r (have %s)" % (name, sorted(k for k in rows if k.startswith("cuda:"))))
    r = rows[name]
    expect(int(r["calls"]) == calls, "%s: %s calls, expected %d" % (name, r["calls"], calls))
    expect(int(r["ranks"]) == ranks, "%s: %s ranks, expected %d" % (name, r["ranks"], ranks))
    expect(close(float(r["total_s"]), calls * each_s, calls), "%s: total %s s, expected %g" % (name, r["total_s"], calls * each_s))
    for col in ("mean_s", "min_s", "max_s", "p50_s"):
        expect(close(float(r[col]), each_s), "%s: %s %s, expected %g" % (name, col, r[col], each_s))


def no_gpu(doc, rows):
    expect(doc["gpu"] is None, "GPU data without GPU activity: %r" % (doc["gpu"],))
    expect(not any(k.startswith("cuda:") for k in rows), "cuda: regions without GPU activity")


def check_ranks(prefix):
    doc, rows = load(prefix)
    diag = diagnostics(prefix)
    expect(diag == [], "the run printed %r" % diag)
    expect("fake libcupti" not in read(prefix + ".err"), "CUPTI_ACTIVITY_KIND_KERNEL was enabled")
    merr = read(prefix + ".merge.err")
    expect("rank 1: 5 GPU activity records were dropped" in merr, "no dropped-records warning: %r" % merr)
    expect(merr.count("dropped") == 1, "dropped warnings other than rank 1's: %r" % merr)
    check_region(rows, "cuda:kernel init(float*, int)", 2, 50 * US, 2)
    check_region(rows, "cuda:kernel stencil(float const*, float*, int)", 24, 100 * US, 2)
    check_region(rows, "cuda:kernel solve()", 4, 200 * US, 2)
    check_region(rows, "cuda:kernel cleanup()", 2, 30 * US, 2)
    check_region(rows, "cuda:memcpy HtoD bytes=4096", 8, 20 * US, 2)
    check_region(rows, "cuda:memcpy DtoH bytes=4096", 8, 20 * US, 2)
    check_region(rows, "cuda:memset bytes=1024", 2, 10 * US, 2)
    check_region(rows, "cuda:overhead buffer-flush", 2, 5 * US, 2)
    kinds = ["HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"]
    for i, k in enumerate(kinds, 1):
        check_region(rows, "cuda:memcpy %s bytes=%d" % (k, 1000 + i), 1, 5 * US, 1)
    cuda = sorted(k for k in rows if k.startswith("cuda:"))
    expect(len(cuda) == 8 + len(kinds), "unexpected cuda: regions: %r" % cuda)
    expect(int(rows["step"]["calls"]) == 8 and int(rows["nvtx:solve"]["calls"]) == 2,
           "user and NVTX regions: step %s, nvtx:solve %s" % (rows["step"]["calls"], rows["nvtx:solve"]["calls"]))

    g = doc["gpu"]
    expect(g is not None, "no gpu section in the JSON")
    expect((g["kernels"], g["copies"], g["memsets"], g["dropped"]) == (32, 26, 2, 5),
           "run totals %r" % ((g["kernels"], g["copies"], g["memsets"], g["dropped"]),))
    ranks = {r["rank"]: r for r in g["ranks"]}
    expect(sorted(ranks) == [0, 1], "GPU ranks %r" % sorted(ranks))
    streams = {0: [1, 2, 3, 4, 5, 7], 1: [1, 2, 3, 4, 7]}
    for rank, r in ranks.items():
        copies = 18 if rank == 0 else 8
        expect((r["streams"], r["kernels"], r["copies"], r["memsets"], r["dropped"]) ==
               (len(streams[rank]), 16, copies, 1, 5 if rank == 1 else 0),
               "rank %d: %r" % (rank, r))
        expect(close(r["kernel_s"], 50 * US + 12 * 100 * US + 4 * 200 * US / 2 + 30 * US, 16),
               "rank %d: kernel time %r" % (rank, r["kernel_s"]))
        want = {
            "step": (20, 12 * 100 * US + 8 * 20 * US),
            "nvtx:solve": (3, 2 * 200 * US + 10 * US),
            "(none)": (11, 50 * US + 10 * 5 * US) if rank == 0 else (1, 50 * US),
        }
        got = {}
        for o in r["by_region"]:
            key = "mpi:comm_free" if o["region"].startswith("mpi:comm_free ") else o["region"]
            got[key] = (o["calls"], o["gpu_s"])
        want["mpi:comm_free"] = (1, 30 * US)
        expect(sorted(got) == sorted(want), "rank %d: enclosing regions %r" % (rank, sorted(got)))
        for k, (calls, s) in want.items():
            expect(got[k][0] == calls and close(got[k][1], s, calls),
                   "rank %d, region %s: %r, expected %r" % (rank, k, got[k], (calls, s)))
        # Busy: the union of the rank's GPU intervals (events CSV).
        spans = []
        with open(prefix + ".events.csv") as f:
            for e in csv.DictReader(f):
                if int(e["rank"]) == rank and e["name"].split(" ")[0] in ("cuda:kernel", "cuda:memcpy", "cuda:memset"):
                    spans.append((float(e["start_s"]), float(e["end_s"])))
        expect(len(spans) == 16 + copies + 1, "rank %d: %d GPU events in the events CSV" % (rank, len(spans)))
        spans.sort()
        union, lo, hi = 0.0, None, None
        for a, b in spans + [(float("inf"), float("inf"))]:
            if hi is not None and a <= hi:
                hi = max(hi, b)
                continue
            if hi is not None:
                union += hi - lo
            lo, hi = a, b
        expect(abs(r["busy_s"] - union) <= 2e-6, "rank %d: busy %r s, union of the events %r s" % (rank, r["busy_s"], union))
        expect(0 < r["busy_pct"] <= 100 and abs(r["busy_pct"] - 100.0 * r["busy_ns"] / r["wall_ns"]) < 1e-3,
               "rank %d: busy %% %r" % (rank, r["busy_pct"]))
    text = read(prefix + ".txt")
    expect("GPU: 32 kernels, 26 copies, 2 memsets" in text, "no GPU section in the text report")
    expect("GPU time by enclosing host region" in text, "no enclosing-region table in the text report")

    # Trace: one named track per GPU stream, GPU events only there.
    with open(prefix + ".trace.json") as f:
        trace = json.load(f)["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in trace if e.get("name") == "thread_name"}
    for rank, ss in streams.items():
        got = sorted(int(n.split()[3]) for (p, t), n in names.items() if p == rank and n.startswith("GPU 0 stream "))
        expect(got == ss, "rank %d: GPU tracks for streams %r, expected %r" % (rank, got, ss))
    for e in trace:
        if e.get("ph") == "X" and e["name"].startswith("cuda:"):
            n = names.get((e["pid"], e["tid"]), "")
            want = "GPU tool overhead" if e["name"].startswith("cuda:overhead") else "GPU 0 stream "
            expect(n.startswith(want), "%s on track %r" % (e["name"], n))
    html = read(prefix + ".html")
    expect('"gpu":[{' in html and "stencil(float const*, float*, int)" in html, "no GPU data in the HTML page")
    gpu_part = html[html.index('"gpu":[{'):]
    gpu_part = gpu_part[: gpu_part.index("],\n")]
    expect("overhead" not in gpu_part and gpu_part.count('"what":"kernel"') == 4 and
           gpu_part.count('"what":"memcpy"') == 12, "HTML GPU data: %s" % gpu_part[:300])


def check_single(prefix):
    doc, rows = load(prefix)
    diag = diagnostics(prefix[: -len(".logs")])
    expect(diag == [], "the run printed %r" % diag)
    expect([(r["rank"], r["size"]) for r in doc["ranks"]] == [(0, 1)], "ranks %r" % doc["ranks"])
    check_region(rows, "cuda:kernel kernel()", 3, 40 * US, 1)
    check_region(rows, "cuda:memcpy HtoD bytes=2048", 1, 10 * US, 1)
    g = doc["gpu"]
    expect(g["kernels"] == 3 and g["copies"] == 1, "GPU totals %r" % g)
    by = {o["region"]: o["calls"] for o in g["by_region"]}
    expect(by == {"(none)": 4}, "single: enclosing regions %r" % by)


def main():
    case, prefix = sys.argv[1], sys.argv[2]
    if case == "ranks":
        check_ranks(prefix)
    elif case == "single":
        check_single(prefix)
    elif case == "early":
        doc, rows = load(prefix)
        expect(diagnostics(prefix) == [], "early: the run printed %r" % diagnostics(prefix))
        check_region(rows, "cuda:kernel early()", 4, 10 * US, 2)
        for r in doc["gpu"]["ranks"]:
            by = {o["region"]: o["calls"] for o in r["by_region"]}
            expect(by.get("(unknown)") == 2, "rank %d: launches before MPI_Init: %r" % (r["rank"], by))
        cpu = [float(l.split()[1]) for l in read(prefix + ".out").splitlines() if l.startswith("early-cpu-ms")]
        expect(len(cpu) == 2 and max(cpu) < 150, "CPU time while waiting for MPI_Init: %r ms" % cpu)
    elif case == "killed":
        doc, rows = load(prefix)
        check_region(rows, "cuda:kernel kernel()", 3, 40 * US, 1)
        check_region(rows, "cuda:memcpy HtoD bytes=2048", 1, 10 * US, 1)
    elif case in ("subscribed", "version"):
        doc, rows = load(prefix)
        diag = diagnostics(prefix)
        what = "another CUPTI subscriber" if case == "subscribed" else "libcupti has API version 120000"
        expect(len(diag) == 2 and all(what in l for l in diag), "expected one warning per rank (%s): %r" % (what, diag))
        no_gpu(doc, rows)
    elif case.startswith("nodev-") or case in ("device-auto", "nodriver-1"):
        doc, rows = load(prefix)
        no_gpu(doc, rows)
        diag = diagnostics(prefix)
        loads = read(prefix + ".loads").split() if os.path.exists(prefix + ".loads") else []
        if case == "nodev-1":
            expect(len(diag) == 2 and all("MPISCOPE_CUPTI=1" in l and "no CUDA device" in l for l in diag),
                   "expected one no-device warning per rank: %r" % diag)
        elif case == "nodriver-1":
            expect(len(diag) == 2 and all("no CUDA driver" in l for l in diag),
                   "expected one no-driver warning per rank: %r" % diag)
        else:
            expect(diag == [], "%s: the run printed %r" % (case, diag))
        if case in ("nodev-auto", "nodev-1"):
            expect(loads == ["libcuda", "libcuda"], "%s: loaded %r (libcupti must not be loaded)" % (case, loads))
        elif case == "nodev-0":
            expect(loads == [], "MPISCOPE_CUPTI=0 loaded %r" % loads)
        elif case == "device-auto":
            expect(sorted(loads) == ["libcuda"] * 2 + ["libcupti"] * 2, "device-auto: loaded %r" % loads)
    else:
        fail("unknown case " + case)


main()
