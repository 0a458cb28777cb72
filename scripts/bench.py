#!/usr/bin/env python3
"""mpiscope overhead, log size and merge speed, beside mpiP, measured in one run.

usage: bench.py [--build DIR] [--reps N] [--out FILE] [--quick] [--check]

Every figure printed is measured in the same run; nothing is quoted. Each
workload runs the same program in several variants, interleaved (each rep
runs every variant in turn), --reps times (default 5), and the medians are
compared: timings on a shared machine are noisy, ratios within one run are
not. Under MPICH (mpiexec.mpich, overridable with MPIEXEC_MPICH,
MPICC_MPICH), 2 ranks unless said.

  - Five variants of ping-pong (8-byte half round trip), halo (4 Irecv +
    4 Isend + Waitall a step), allreduce (8 bytes) and testpoll (Irecv, Send,
    MPI_Test until the receive completes): without; mpiscope (trace, the
    default); mpiscope summary (MPISCOPE_MODE=summary); mpiP -k 0
    (MPIP="-k 0", no stack walk); mpiP default. The Send to MPI_PROC_NULL of
    bench/callcost.c runs in the same five. mpiP is the libmpiP.so under
    BUILD/mpip-mpich (`make peers` builds it from ../shared/peers, and is run
    here when it is missing); it writes its report into the current
    directory, so each mpiP run has a temporary one. Without mpiP its
    columns show "-".
  - Per-call added time (bench/percall.c, 1 rank): Send, Recv, Isend, Irecv,
    Wait, Test, Allreduce, Sendrecv and Waitall (8 completed requests), to
    and from MPI_PROC_NULL (Allreduce on MPI_COMM_SELF), a Test that
    polls a receive not there yet and a Waitany over 64 receives of which
    one arrived, each call timed
    alone between two clock reads; with minus without, for mpiscope and
    mpiP -k 0; beside it, what two back-to-back time-stamp reads cost
    (bench/clockread.c), the floor under each call's added time.
  - The writer thread's CPU per event: the trace runs of ping-pong and halo
    run with MPISCOPE_VERBOSE=1, whose processes each report the writer's
    CPU time and events at MPI_Finalize; summed over the processes of a run,
    median over the reps.
  - LAMMPS in.melt under Open MPI (2 ranks), without and with mpiscope: the
    loop time's ratio, and the thermo output, which must be identical (the
    bench fails otherwise). Needs `lmp` and its examples
    (scripts/deps.sh --bench).
  - Without and with only: call-site depths 0 and 4, the Fortran call cost,
    the ping-pong with the writer idle during the loop, NetPIPE, merge speed
    and memory, log bytes per event, application RSS.

The ping-pong's phases: this machine's latency moves between a fast phase
(an 8-byte half round trip of about 170-230 ns) and a slow one (600 ns and
more) for minutes at a time, which medians of interleaved runs can mix. Each
rep is put in a phase by its run without: when the slowest run without is
over 1.6 times the fastest, the runs below the midpoint of the two are fast
and the others slow (else all are one phase); within each phase that has
runs, the ratio of the medians of each variant to the median without is
given beside the overall median ratio. A phase can change within a rep
(between its run without and the others), which such a ratio cannot tell.

  --out FILE  also write the results as markdown (docs/PERFORMANCE.md); the
              sections from "## Measured apart from make bench" on are kept
  --quick     small sizes (seconds, not minutes)
  --check     exit 1 unless the generous sanity bounds hold (make check):
              ratios below 2 (halo, testpoll: 8), under 1000 ns added per
              call (callcost, whose baseline is a no-op, is bounded by the
              latter; 10 µs with a stack walk: call-site depth 4, Fortran);
              a workload over its bound is measured twice more before it
              fails. mpiP and LAMMPS are left out under --check.
"""
import argparse
import datetime
import glob
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPICC = os.environ.get("MPICC_MPICH", "mpicc.mpich")
MPIEXEC = os.environ.get("MPIEXEC_MPICH", "mpiexec.mpich")
MPIF90 = os.environ.get("MPIF90_MPICH", "mpif90.mpich")
MPIRUN_OPENMPI = os.environ.get("MPIRUN_OPENMPI", "mpirun.openmpi")
# A ring that holds a whole ping-pong run, and the longest flush interval:
# the writer thread stays idle during the timed loop, which separates the
# cost on the application's path from the writer's share of the CPUs.
WRITER_IDLE = {"MPISCOPE_BUFFER_KB": "65536", "MPISCOPE_FLUSH_MS": "1000"}

BUDGET = {"ns_per_call": 25.0, "ns_per_request": 5.0, "pingpong_ratio": 1.10, "bytes_per_event": 4.0,
          "merge_eps": 20e6, "merge_waits_eps": 10e6, "writer_ns_per_event": 10.0, "lammps_ratio": 1.02}

# The variants of the side-by-side workloads: key, column label, which
# library is preloaded ("mpiscope", "mpip" or None), its environment.
VARIANTS = [
    ("without", "without", None, {}),
    ("trace", "mpiscope", "mpiscope", {}),
    ("summary", "mpiscope summary", "mpiscope", {"MPISCOPE_MODE": "summary"}),
    ("mpip_k0", "mpiP -k 0", "mpip", {"MPIP": "-k 0"}),
    ("mpip", "mpiP default", "mpip", {}),
]
LABEL = {k: label for k, label, _, _ in VARIANTS}

# bench/percall.c's calls, in its order.
PERCALL = ["send", "recv", "isend", "irecv", "wait", "test", "test_pending", "waitany", "allreduce", "sendrecv",
           "waitall", "waitall_self"]
PERCALL_NAME = {"sendrecv": "Sendrecv", "test_pending": "Test (a receive not there yet: a poll)",
                "waitany": "Waitany (64 receives, one arrived)",
                "waitall": "Waitall (8 sends to MPI_PROC_NULL, one shared handle)",
                "waitall_self": "Waitall (4 receives, 4 sends to itself)"}
WAITALL_REQUESTS = 8

# The heading from which docs/PERFORMANCE.md holds figures measured apart
# from this script; --out keeps them.
KEPT_SECTIONS = "## Measured apart from make bench"

WRITER_LINE = re.compile(r"writer thread: ([0-9.]+) ms CPU for (\d+) events")


def die(msg, rc=2):
    print(f"bench: {msg}", file=sys.stderr)
    sys.exit(rc)


def build(bdir):
    os.makedirs(bdir, exist_ok=True)
    for prog in ("callcost", "pingpong", "halo", "allreduce", "testpoll", "percall", "callloop", "clockread"):
        src = os.path.join(ROOT, "bench", prog + ".c")
        exe = os.path.join(bdir, prog)
        if os.path.exists(exe) and os.path.getmtime(exe) >= max(
                os.path.getmtime(src), os.path.getmtime(os.path.join(ROOT, "bench", "bench_util.h"))):
            continue
        subprocess.run([MPICC, "-O2", "-g", "-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Werror",
                        "-Wno-stringop-overflow", src, "-o", exe], check=True)
    # The Fortran call cost goes through MPICH's Fortran library, which the
    # call-site capture steps out of; left out without a Fortran compiler.
    src = os.path.join(ROOT, "bench", "callcost_f.f90")
    exe = os.path.join(bdir, "callcost_f")
    if shutil.which(MPIF90) and not (os.path.exists(exe) and os.path.getmtime(exe) >= os.path.getmtime(src)):
        subprocess.run([MPIF90, "-O2", "-g", src, "-o", exe], check=True)


def find_mpip(build_dir, check):
    """(path of MPICH's libmpiP.so, None) or (None, why not)."""
    if check:
        return None, "--check"

    def found():
        libs = sorted(glob.glob(os.path.join(build_dir, "mpip-mpich", "**", "libmpiP.so"), recursive=True))
        return libs[0] if libs else None
    lib = found()
    peers = os.path.join(os.path.dirname(ROOT), "shared", "peers", "build-mpip.sh")
    if not lib and os.path.exists(peers):
        print("bench: building mpiP (make peers)", file=sys.stderr)
        subprocess.run(["make", "-C", ROOT, "peers", f"BUILD={build_dir}"], stdout=subprocess.DEVNULL)
        lib = found()
    if lib:
        return lib, None
    if not os.path.exists(peers):
        return None, f"no {peers} and no libmpiP.so under {build_dir}/mpip-mpich"
    return None, f"make peers built no libmpiP.so under {build_dir}/mpip-mpich"


def mpip_note(why):
    if why == "--check":
        return "mpiP left out under --check (make bench measures it): its columns are left out"
    return f"mpiP not found ({why}): its columns are left out"


def run_measured(cmd, env=None, cwd=None):
    """Run cmd; return (stdout, stderr, peak RSS in KiB of its largest process)."""
    helper = ("import resource, subprocess, sys\n"
              "r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)\n"
              "sys.stdout.write(r.stdout)\n"
              "sys.stderr.write(r.stderr)\n"
              "print('RSS_KIB', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
              "sys.exit(r.returncode)\n")
    r = subprocess.run([sys.executable, "-c", helper] + cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=600)
    m = re.search(r"RSS_KIB (\d+)", r.stderr)
    if r.returncode != 0:
        die(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return r.stdout, r.stderr, int(m.group(1)) if m else 0


def metric(out, name):
    m = re.search(rf"^{name} ([0-9.eE+-]+)$", out, re.M)
    if not m:
        die(f"no '{name}' in output:\n{out}")
    return float(m.group(1))


def launch(nranks, exe, args, preload=None, env=None):
    """mpiexec with preload (a library) and env passed to the ranks only."""
    cmd = [MPIEXEC, "-n", str(nranks)]
    if preload:
        cmd += ["-genv", "LD_PRELOAD", preload]
    for k, v in (env or {}).items():
        cmd += ["-genv", k, v]
    return cmd + [exe] + [str(a) for a in args]


def mpirun(nranks, exe, args, lib=None, logdir=None, env=None):
    if not lib:
        return launch(nranks, exe, args)
    return launch(nranks, exe, args, lib, dict({"MPISCOPE_DIR": logdir}, **(env or {})))


def log_stats(merge, logdir):
    """(events, compressed bytes, decompressed bytes) of one run's logs."""
    r = subprocess.run([merge, "--json", "-", logdir], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, check=True)
    events = json.loads(r.stdout)["run"]["events"]
    files = [os.path.join(logdir, f) for f in os.listdir(logdir) if f.endswith(".zst")]
    packed = sum(os.path.getsize(f) for f in files)
    raw = 0
    for f in files:
        d = subprocess.run(["zstd", "-dc", f], stdout=subprocess.PIPE, check=True)
        raw += len(d.stdout)
    return events, packed, raw


def workload(name, nranks, exe, args, key, lib, merge, reps, tmp, env=None):
    """Interleave runs without and with the preload (and the MPISCOPE_
    settings of env); medians and log sizes."""
    off, on, logs = [], [], None
    for rep in range(reps):
        out, _, _ = run_measured(mpirun(nranks, exe, args))
        off.append(metric(out, key))
        logdir = os.path.join(tmp, f"{name}-{rep}")
        out, _, _ = run_measured(mpirun(nranks, exe, args, lib, logdir, env))
        on.append(metric(out, key))
        if logs is None:
            logs = log_stats(merge, logdir)
        shutil.rmtree(logdir, ignore_errors=True)
    m_off, m_on = statistics.median(off), statistics.median(on)
    events, packed, raw = logs
    return {"name": name, "ranks": nranks, "unit": key, "off": m_off, "on": m_on, "ratio": m_on / m_off,
            "ratio_best": min(on) / min(off),
            "events": events, "bytes_per_event": packed / events, "raw_per_event": raw / events,
            "runs_off": off, "runs_on": on}


def variants(libs, only=None):
    """The VARIANTS whose library is there (libs: kind -> path or None),
    those named in only if given."""
    return [v for v in VARIANTS if (v[2] is None or libs.get(v[2])) and (only is None or v[0] in only)]


def side_by_side(name, nranks, exe, args, keys, libs, merge, reps, tmp, writer=False, only=None, logs=True):
    """Each rep runs every variant in turn; medians per variant of each
    metric in keys (the first is the workload's figure), the trace's log
    sizes (unless not logs), and with writer the writer thread's CPU per
    event (trace and summary runs with MPISCOPE_VERBOSE=1)."""
    vs = variants(libs, only)
    want_logs = logs
    runs = {k: {v[0]: [] for v in vs} for k in keys}
    logs, wr = None, {"trace": [], "summary": []}
    for rep in range(reps):
        for vkey, _, kind, venv in vs:
            env, cwd, logdir = dict(venv), None, None
            if kind == "mpiscope":
                logdir = os.path.join(tmp, f"{name}-{vkey}-{rep}")
                env["MPISCOPE_DIR"] = logdir
                if writer and vkey in wr:
                    env["MPISCOPE_VERBOSE"] = "1"
            elif kind == "mpip":
                cwd = tempfile.mkdtemp(prefix=f"mpip-{name}-", dir=tmp)
            out, err, _ = run_measured(launch(nranks, exe, args, libs.get(kind), env), cwd=cwd)
            for k in keys:
                runs[k][vkey].append(metric(out, k))
            if writer and vkey in wr:
                found = WRITER_LINE.findall(err)
                if len(found) != nranks:
                    die(f"{name}: {len(found)} of {nranks} processes reported the writer thread's CPU:\n"
                        f"{err[-2000:]}")
                ms = sum(float(m) for m, _ in found)
                events = sum(int(e) for _, e in found)
                wr[vkey].append({"ms": ms, "events": events, "ns_per_event": ms * 1e6 / events if events else 0.0})
            if vkey == "trace" and want_logs and logs is None:
                logs = log_stats(merge, logdir)
            for d in (logdir, cwd):
                if d:
                    shutil.rmtree(d, ignore_errors=True)
    med = {k: {v: statistics.median(x) for v, x in runs[k].items()} for k in keys}
    key = keys[0]
    off, on = runs[key]["without"], runs[key]["trace"]
    r = {"name": name, "ranks": nranks, "unit": key, "off": med[key]["without"], "on": med[key]["trace"],
         "ratio": med[key]["trace"] / med[key]["without"], "ratio_best": min(on) / min(off),
         "runs_off": off, "runs_on": on, "med": med[key], "runs": runs[key], "all_med": med}
    if logs:
        events, packed, raw = logs
        r.update(events=events, bytes_per_event=packed / events, raw_per_event=raw / events)
    for vkey, field in (("trace", "writer"), ("summary", "writer_summary")):
        w = wr[vkey]
        if w:
            r[field] = {"ns_per_event": statistics.median(x["ns_per_event"] for x in w),
                        "ms": statistics.median(x["ms"] for x in w),
                        "events": statistics.median(x["events"] for x in w), "runs": w}
    return r


def phases(r):
    """The ping-pong's reps by phase of their run without (see the
    docstring): [(label, [rep indices])], only phases that have runs."""
    off = r["runs"]["without"]
    lo, hi = min(off), max(off)
    if hi <= 1.6 * lo:
        return [("one phase", list(range(len(off))))]
    mid = (lo + hi) / 2
    out = [("fast", [i for i, x in enumerate(off) if x < mid]), ("slow", [i for i, x in enumerate(off) if x >= mid])]
    return [(label, idx) for label, idx in out if idx]


def lammps(lib, reps, tmp, quick):
    """LAMMPS in.melt under Open MPI, 2 ranks, without and with mpiscope,
    interleaved: medians of the loop time, or a dict with a note."""
    lmp = shutil.which("lmp")
    how = "scripts/deps.sh --bench installs it (Debian packages lammps, lammps-examples)"
    if not lmp:
        return {"note": f"LAMMPS (lmp) not found: the in.melt row is left out; {how}"}
    if not shutil.which(MPIRUN_OPENMPI):
        return {"note": f"{MPIRUN_OPENMPI} not found: the LAMMPS in.melt row is left out"}
    if not os.path.exists(lib):
        return {"note": f"{lib} not found: the LAMMPS in.melt row is left out (make all)"}
    cands = glob.glob("/usr/share/lammps/examples/melt/in.melt") + \
        sorted(glob.glob("/usr/share/doc/lammps*/examples/melt/in.melt*")) + \
        sorted(glob.glob("/usr/share/lammps/examples/**/in.melt", recursive=True))
    if not cands:
        return {"note": f"LAMMPS's in.melt example not found: the in.melt row is left out; {how}"}
    src = cands[0]
    if src.endswith(".gz"):
        import gzip
        text = gzip.open(src, "rt").read()
    else:
        text = open(src).read()
    # The example's 250 steps take a quarter of a second: longer, so that
    # the loop takes seconds.
    steps = 1000 if quick else 5000
    text, n = re.subn(r"^run\s+\d+", f"run\t\t{steps}", text, flags=re.M)
    if n != 1:
        die(f"{src}: no single 'run' line to lengthen")
    base = [MPIRUN_OPENMPI, "--allow-run-as-root", "--oversubscribe", "-np", "2"]
    times = {"without": [], "with": []}
    thermo = {}
    for rep in range(reps):
        for v in ("without", "with"):
            d = tempfile.mkdtemp(prefix=f"lammps-{v}-", dir=tmp)
            with open(os.path.join(d, "in.melt"), "w") as f:
                f.write(text)
            cmd = list(base)
            if v == "with":
                cmd += ["-x", f"LD_PRELOAD={lib}", "-x", f"MPISCOPE_DIR={os.path.join(d, 'log')}"]
            out, _, _ = run_measured(cmd + [lmp, "-in", "in.melt"], cwd=d)
            m = re.search(r"^Loop time of ([0-9.eE+-]+) on 2 procs", out, re.M)
            if not m:
                die(f"LAMMPS printed no loop time:\n{out[-2000:]}")
            times[v].append(float(m.group(1)))
            lines = out.splitlines()
            starts = [i for i, line in enumerate(lines) if line.split()[:1] == ["Step"]]
            ends = [i for i, line in enumerate(lines) if line.startswith("Loop time")]
            if not starts or not ends:
                die(f"LAMMPS printed no thermo table:\n{out[-2000:]}")
            table = [line.rstrip() for line in lines[starts[-1]:ends[-1]]]
            if v not in thermo:
                thermo[v] = table
            elif table != thermo[v]:
                die(f"LAMMPS in.melt: the thermo output of two runs {v} mpiscope differ", rc=1)
            if "without" in thermo and "with" in thermo and thermo["without"] != thermo["with"]:
                diff = next(f"  without: {a}\n  with:    {b}" for a, b in
                            zip(thermo["without"] + [""], thermo["with"] + [""]) if a != b)
                die("LAMMPS in.melt: the thermo output with mpiscope differs from the one without:\n" + diff,
                    rc=1)
            shutil.rmtree(d, ignore_errors=True)
    off, on = statistics.median(times["without"]), statistics.median(times["with"])
    return {"off": off, "on": on, "ratio": on / off, "steps": steps, "thermo_lines": len(thermo["with"]) - 1,
            "runs_off": times["without"], "runs_on": times["with"]}


def netpipe(lib, reps, tmp, quick):
    """NPmpich2 at 1..64 bytes: mean latency over sizes, without and with."""
    np_exe = shutil.which("NPmpich2")
    if not np_exe:
        return None
    nrep = 500 if quick else 5000

    def once(with_lib, rep):
        outf = os.path.join(tmp, f"np-{with_lib}-{rep}.out")
        cmd = mpirun(2, np_exe, ["-l", "1", "-u", "64", "-p", "0", "-n", nrep, "-o", outf],
                     lib if with_lib else None, os.path.join(tmp, f"np-log-{rep}"))
        run_measured(cmd)
        lat = [float(line.split()[2]) for line in open(outf) if line.strip()]
        shutil.rmtree(os.path.join(tmp, f"np-log-{rep}"), ignore_errors=True)
        return statistics.mean(lat) * 1e6

    off, on = [], []
    for rep in range(reps):
        off.append(once(False, rep))
        on.append(once(True, rep))
    m_off, m_on = statistics.median(off), statistics.median(on)
    return {"name": "netpipe", "ranks": 2, "unit": "us_latency", "off": m_off, "on": m_on,
            "ratio": m_on / m_off, "ratio_best": min(on) / min(off), "runs_off": off, "runs_on": on}


def merge_speed(merge, lib, bdir, tmp, quick):
    """A long single-rank trace: merge events/s on one thread, merge RSS,
    and the application's RSS at two run lengths."""
    exe = os.path.join(bdir, "callcost")
    res = {}
    lengths = (200000, 2000000) if quick else (1000000, 10000000)
    for n in lengths:
        logdir = os.path.join(tmp, f"long-{n}")
        _, _, rss_off = run_measured(mpirun(1, exe, [n]))
        _, _, rss_on = run_measured(mpirun(1, exe, [n], lib, logdir))
        res[n] = {"rss_off_kib": rss_off, "rss_on_kib": rss_on}
    n = lengths[-1]
    logdir = os.path.join(tmp, f"long-{n}")
    # The merge without the wait-state analysis, and with it (the default),
    # interleaved.
    times = {"plain": [], "waits": []}
    rss = {}
    for _ in range(3):
        for kind, extra in (("plain", ["--no-waits"]), ("waits", [])):
            t0 = time.monotonic()
            _, _, rss[kind] = run_measured([merge, "-j", "1", "--csv", os.devnull] + extra + [logdir])
            times[kind].append(time.monotonic() - t0)
    events, packed, raw = log_stats(merge, logdir)
    t = statistics.median(times["plain"])
    tw = statistics.median(times["waits"])
    # A trace whose calls are mostly non-blocking: the halo's 8 requests a
    # step, each created and completed, are matched as the log is read.
    hexe = os.path.join(bdir, "halo")
    hlog = os.path.join(tmp, "long-halo")
    run_measured(mpirun(2, hexe, [20000 if quick else 200000], lib, hlog))
    htimes = []
    for _ in range(3):
        t0 = time.monotonic()
        run_measured([merge, "-j", "1", "--csv", os.devnull, "--no-waits", hlog])
        htimes.append(time.monotonic() - t0)
    hevents, _, _ = log_stats(merge, hlog)
    return {"events": events, "seconds": t, "eps": events / t, "merge_rss_kib": rss["plain"],
            "waits_eps": events / tw, "waits_rss_kib": rss["waits"],
            "req_events": hevents, "req_eps": hevents / statistics.median(htimes),
            "bytes_per_event": packed / events, "app": res, "lengths": lengths}


def machine():
    model = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mpich = subprocess.run(["mpichversion"], stdout=subprocess.PIPE, text=True).stdout.split("\n")[0] \
        if shutil.which("mpichversion") else "MPICH"
    return f"{model or platform.processor()}, {os.cpu_count()} cores, Linux {platform.release()}, " \
           f"{' '.join(mpich.split())}"


def ping_note(results):
    """Where the ping-pong's added time goes: on the application's path, or
    in the writer thread sharing the cores."""
    ping = next(r for r in results if r["name"] == "pingpong" and "variant" not in r)
    idle = next((r for r in results if r["name"] == "pingpong" and "variant" in r), None)
    added = ping["on"] - ping["off"]
    if not idle:
        return f"Ping-pong: {added:.0f} ns added per half round trip."
    path = idle["on"] - idle["off"]
    return (f"Ping-pong: {added:.0f} ns added per half round trip; {path:.0f} ns of it remain when the writer "
            "thread stays idle during the timed loop (its ring holds the whole run). The rest is the writer "
            "compressing the log on the same two cores as the two busy-polling ranks; what is left on the "
            "application's path is mostly the two time-stamp reads of each call's entry and exit (rdtsc).")


def cell(med, v, base):
    """A side-by-side cell: "value (ratio×)", or "-" without that variant."""
    if v not in med:
        return "-"
    return f"{med[v]:.1f} ({med[v] / base:.2f}×)"


def added_ratio(med, a, b):
    """(a - without) / (b - without), or "-"."""
    if a not in med or b not in med or med[b] - med["without"] <= 0:
        return "-"
    return f"{(med[a] - med['without']) / (med[b] - med['without']):.2f}"


def clock_reads(bdir, quick):
    """What a time-stamp read costs (bench/clockread.c): {"rdtsc" (where there is one), "clock_gettime",
    "two_reads"}, in ns."""
    exe = os.path.join(bdir, "clockread")
    r = subprocess.run([exe, "2000000" if quick else "10000000"], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        die(f"{exe} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    names = ("rdtsc", "clock_gettime", "two_reads") if re.search(r"^rdtsc_ns ", r.stdout, re.M) else \
        ("clock_gettime", "two_reads")
    return {n: metric(r.stdout, n + "_ns") for n in names}


def report(results, side, percall, callcost, ms, lmp, mpip_why, reps, clock):
    ping = next(r for r in side if r["name"] == "pingpong")
    added = callcost["on"] - callcost["off"]
    worst_bpe = max(r["bytes_per_event"] for r in side if r["name"] in ("pingpong", "halo"))
    lines = [f"Measured {datetime.date.today().isoformat()} on {machine()}; medians of {reps} "
             "interleaved runs of each variant.", ""]
    if mpip_why:
        lines += [mpip_note(mpip_why) + ".", ""]

    # The side-by-side table.
    lines += ["## mpiscope and mpiP side by side",
              "",
              "MPICH, 2 ranks (callcost: 1), ns; each cell the median and its ratio to the median without. "
              "The last two columns compare the time each adds (variant minus without).",
              "",
              "| workload | without | mpiscope | mpiscope summary | mpiP -k 0 | mpiP default | "
              "mpiscope added / mpiP -k 0 added | summary added / trace added |",
              "|---|---|---|---|---|---|---|---|"]
    for r in [callcost] + side:
        med, base = r["med"], r["med"]["without"]
        lines.append(f"| {r['label']} | {base:.1f} | " + " | ".join(cell(med, v, base) for v in
                                                                   ("trace", "summary", "mpip_k0", "mpip"))
                     + f" | {added_ratio(med, 'trace', 'mpip_k0')} | {added_ratio(med, 'summary', 'trace')} |")
    # The ping-pong by phase.
    lines += ["",
              "Ping-pong by phase (the reps put in a phase by their run without; ratio of the medians "
              "within the phase):",
              "",
              "| ping-pong | reps | without ns | mpiscope | mpiscope summary | mpiP -k 0 | mpiP default |",
              "|---|---|---|---|---|---|---|"]
    vs = [v for v in ("trace", "summary", "mpip_k0", "mpip")]

    def phase_row(label, idx):
        sub = {v: statistics.median([ping["runs"][v][i] for i in idx]) for v in ping["runs"]}
        return (f"| {label} | {len(idx)} | {sub['without']:.1f} | "
                + " | ".join(f"{sub[v] / sub['without']:.3f}" if v in sub else "-" for v in vs) + " |")
    lines.append(f"| all (median ratio) | {reps} | {ping['med']['without']:.1f} | "
                 + " | ".join(f"{ping['med'][v] / ping['med']['without']:.3f}" if v in ping["med"] else "-"
                              for v in vs) + " |")
    ph = phases(ping)
    for label, idx in ph:
        lines.append(phase_row(label, idx))
    if len(ph) == 1:
        lines += ["", "All runs without were within 1.6× of each other: one phase."]
    else:
        lines += ["", "A phase can change within a rep, between its runs without and with: a phase's ratios "
                  "hold only as far as its runs stayed in it."]

    # Per call.
    pm = percall["all_med"]
    lines += ["",
              "## Added time per call",
              "",
              "1 rank, to and from MPI_PROC_NULL (Allreduce on MPI_COMM_SELF, Waitall on "
              f"{WAITALL_REQUESTS} completed requests, and on {WAITALL_REQUESTS} messages to itself), "
              "each call timed alone between two clock reads "
              "(bench/percall.c); added = with minus without, medians.",
              "",
              "| call | without ns | mpiscope added ns | mpiP -k 0 added ns | budget |",
              "|---|---|---|---|---|"]
    for c in PERCALL:
        k = f"ns_{c}"
        base = pm[k]["without"]
        mp = f"{pm[k]['mpip_k0'] - base:.1f}" if "mpip_k0" in pm[k] else "-"
        done = WAITALL_REQUESTS if c.startswith("waitall") else 1 if c == "waitany" else 0
        budget = BUDGET["ns_per_call"] + done * BUDGET["ns_per_request"]
        how = f" (25 + 5 × {done})" if done else ""
        lines.append(f"| {PERCALL_NAME.get(c, c.capitalize())} | {base:.1f} | "
                     f"{pm[k]['trace'] - base:.1f} | {mp} | <= {budget:.0f} ns{how} |")
    reads = ", ".join(f"`{k}` {v:.1f} ns" for k, v in clock.items() if k != "two_reads")
    lines += ["",
              f"Every call reads the clock at its entry and at its exit: two time-stamp reads back to back "
              f"took {clock['two_reads']:.1f} ns in this run (bench/clockread.c, one read: {reads}), "
              "the floor under each call's added time (they overlap with the wrapper's other work)."]

    # The writer thread.
    lines += ["",
              "## The writer thread",
              "",
              "CPU time of the writer thread per event (MPISCOPE_VERBOSE=1's report at "
              "MPI_Finalize, before the last flush), summed over both processes; median over the reps. "
              "The budget is trace mode's; summary mode's writer folds the events instead of compressing them.",
              "",
              "| workload | events per run | writer CPU ms per run | ns per event | budget | summary mode ns per event |",
              "|---|---|---|---|---|---|"]
    for r in side:
        if "writer" in r:
            w = r["writer"]
            ws = r.get("writer_summary")
            lines.append(f"| {r['name']} | {w['events']:.0f} | {w['ms']:.2f} | {w['ns_per_event']:.1f} | "
                         f"<= {BUDGET['writer_ns_per_event']:.0f} ns | "
                         + (f"{ws['ns_per_event']:.1f} |" if ws else "- |"))

    # LAMMPS.
    lines += ["", "## LAMMPS in.melt", ""]
    if "note" in lmp:
        lines.append(lmp["note"] + ".")
    else:
        lines += [f"Open MPI, 2 ranks, {lmp['steps']} steps; the loop time LAMMPS prints (median), and its "
                  f"thermo output ({lmp['thermo_lines']} lines), identical with and without.",
                  "",
                  "| workload | without s | mpiscope s | ratio | budget |",
                  "|---|---|---|---|---|",
                  f"| LAMMPS in.melt | {lmp['off']:.3f} | {lmp['on']:.3f} | {lmp['ratio']:.3f} | "
                  f"<= {BUDGET['lammps_ratio']:.2f} |"]

    # Without and with mpiscope.
    lines += ["", "## Without and with mpiscope (trace)", "",
              "| workload | ranks | without | with | ratio | best ratio | log B/event | raw B/event |",
              "|---|---|---|---|---|---|---|---|"]
    for r in results:
        unit = r["unit"].split("_", 1)[1] if "_" in r["unit"] else r["unit"]
        bpe = f"{r['bytes_per_event']:.2f}" if "bytes_per_event" in r else "-"
        raw = f"{r['raw_per_event']:.2f}" if "raw_per_event" in r else "-"
        label = f"{r['name']} ({unit})" + (f", {r['variant']}" if "variant" in r else "")
        best = f"{r['ratio_best']:.3f}" if "ratio_best" in r else "-"
        lines.append(f"| {label} | {r['ranks']} | {r['off']:.3f} | {r['on']:.3f} | "
                     f"{r['ratio']:.3f} | {best} | {bpe} | {raw} |")

    # Budgets.
    cm = callcost["med"]

    def mpip_added(med, fmt):
        parts = [fmt(med, v) + f" ({'-k 0' if v == 'mpip_k0' else 'default'})" for v in ("mpip_k0", "mpip")
                 if v in med]
        return ", ".join(parts) or "-"
    app = ms["app"]
    short, long_ = ms["lengths"]
    writers = [r["writer"]["ns_per_event"] for r in side if "writer" in r]
    mpip_call = mpip_added(cm, lambda m, v: f"{m[v] - m['without']:.0f} ns")
    mpip_ping = mpip_added(ping["med"], lambda m, v: f"{m[v] / m['without']:.2f}")

    def phase_ratio(idx, v):
        return statistics.median([ping["runs"][v][i] for i in idx]) / \
            statistics.median([ping["runs"]["without"][i] for i in idx])
    phase_txt = "; ".join(f"{label} {phase_ratio(idx, 'trace'):.3f}" for label, idx in ph if label != "one phase")
    lines += ["",
              "## Budgets (DESIGN §8)",
              "",
              "| budget | measured | budget | mpiP (measured in this run) |",
              "|---|---|---|---|",
              f"| added time per intercepted call (MPI_Send to MPI_PROC_NULL) | {added:.1f} ns | "
              f"<= {BUDGET['ns_per_call']:.0f} ns | "
              f"{mpip_call} |",
              f"| 8-byte ping-pong half round trip, with / without (median; fastest runs"
              f"{'; by phase' if phase_txt else ''}) | "
              f"{ping['ratio']:.3f}; {ping['ratio_best']:.3f}{'; ' + phase_txt if phase_txt else ''} | "
              f"<= {BUDGET['pingpong_ratio']:.2f} | "
              f"{mpip_ping} |",
              f"| writer thread CPU per event, ping-pong and halo traces (worst) | "
              + (f"{max(writers):.1f} ns/event" if writers else "-")
              + f" | <= {BUDGET['writer_ns_per_event']:.0f} ns/event | - |",
              f"| LAMMPS in.melt loop time, with / without (Open MPI, 2 ranks) | "
              + (f"{lmp['ratio']:.3f}" if "ratio" in lmp else "-")
              + f" | <= {BUDGET['lammps_ratio']:.2f} | - |",
              f"| log size, ping-pong and halo traces (worst) | {worst_bpe:.2f} B/event | "
              f"<= {BUDGET['bytes_per_event']:.0f} B/event | - |",
              f"| merge speed, one thread, --no-waits ({ms['events']} events) | {ms['eps'] / 1e6:.1f} M events/s | "
              f">= {BUDGET['merge_eps'] / 1e6:.0f} M events/s | - |",
              f"| merge speed, one thread, --no-waits, halo trace: 8 requests a step matched "
              f"({ms['req_events']} events) | {ms['req_eps'] / 1e6:.1f} M events/s | "
              f">= {BUDGET['merge_eps'] / 1e6:.0f} M events/s | - |",
              f"| merge peak RSS, --no-waits ({ms['events']} events) | {ms['merge_rss_kib'] / 1024:.1f} MiB | "
              "bounded by regions x ranks | - |",
              f"| merge speed with the wait-state analysis, one thread | {ms['waits_eps'] / 1e6:.1f} M events/s | "
              f">= {BUDGET['merge_waits_eps'] / 1e6:.0f} M events/s | - |",
              f"| merge peak RSS with the wait-state analysis | {ms['waits_rss_kib'] / 1024:.1f} MiB | "
              "bounded by messages in flight (not met: the facts of every MPI call are held) | - |",
              f"| application peak RSS, {short} / {long_} calls, with preload | "
              f"{app[short]['rss_on_kib'] / 1024:.1f} / {app[long_]['rss_on_kib'] / 1024:.1f} MiB "
              f"(without: {app[short]['rss_off_kib'] / 1024:.1f} / {app[long_]['rss_off_kib'] / 1024:.1f}) | "
              "fixed per thread | - |",
              "",
              "Log B/event is the compressed log over the events it holds; raw B/event the same "
              "records before compression (varint-encoded), so their ratio is the compression ratio. "
              "An uncompressed fixed-size record (region, start, end) would take 20 bytes. "
              "",
              ping_note(results),
              "",
              "The best ratio compares the fastest run with the preload to the fastest without: this "
              "machine's latency moves between phases (an 8-byte half round trip of about 170-230 ns or "
              "600 ns and more, for minutes at a time), which medians of interleaved runs can mix; the "
              "ping-pong by phase above separates them."]
    return "\n".join(lines) + "\n"


# Sanity bounds of --check (make check): generous, against gross regressions.
# The halo workload's baseline is self and shared-memory messages of about
# 60 ns a call, so request tracking shows as a large ratio there (testpoll's
# likewise, each MPI_Test polled being a call). callcost's baseline is a 5 ns
# no-op: its bound is the time added (ns per call), like the per-call
# figures'; call sites deeper than one frame take a stack walk per call, and
# stepping out of MPICH's Fortran library one per call site.
RATIO_BOUNDS = {"halo": 8.0, "testpoll": 8.0}
ADDED_NS_BOUNDS = {"callcost": 1000, "callcost_f": 10000, "stack_walk": 10000, "percall": 1000}


def over_bound(r):
    if r["name"] == "percall":
        return any(m["trace"] - m["without"] >= ADDED_NS_BOUNDS["percall"] for m in r["all_med"].values())
    if r["name"].startswith("callcost"):
        return r["on"] - r["off"] >= r.get("bound_ns", ADDED_NS_BOUNDS.get(r["name"], 1000))
    return r["ratio"] >= RATIO_BOUNDS.get(r["name"], 2.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    build_dir = os.path.abspath(a.build)
    lib = os.path.join(build_dir, "lib", "libmpiscope-mpich.so")
    lib_ompi = os.path.join(build_dir, "lib", "libmpiscope-openmpi.so")
    merge = os.path.join(build_dir, "bin", "mpiscope-merge")
    for f in (lib, merge):
        if not os.path.exists(f):
            die(f"{f} is missing: run make first")
    bdir = os.path.join(build_dir, "bench")
    build(bdir)
    for v in [v for v in os.environ if v.startswith("MPISCOPE_") or v == "MPIP"]:
        del os.environ[v]
    mpip, mpip_why = find_mpip(build_dir, a.check)
    if mpip_why:
        print(mpip_note(mpip_why), file=sys.stderr)
    libs = {"mpiscope": lib, "mpip": mpip}
    q = a.quick
    tmp = tempfile.mkdtemp(prefix="mpiscope-bench-")
    try:
        results, side = [], []
        again = {}

        def measure(name, fn, label=None, variant=None, bound_ns=None):
            r = fn()
            if label:
                r["label"] = label
            if variant:
                r["variant"] = variant
            if bound_ns is not None:
                r["bound_ns"] = bound_ns
            again[id(r)] = (fn, label, variant, bound_ns)
            return r

        n_call = 200000 if q else 2000000
        callcost = measure("callcost", lambda: side_by_side(
            "callcost", 1, os.path.join(bdir, "callcost"), [n_call], ["ns_per_call"], libs, merge, a.reps, tmp),
            label="callcost: MPI_Send to MPI_PROC_NULL, 1 rank, per call")
        results.append(callcost)
        for depth in ("0", "4"):
            results.append(measure("callcost", lambda depth=depth: workload(
                "callcost", 1, os.path.join(bdir, "callcost"), [n_call], "ns_per_call", lib, merge, a.reps, tmp,
                {"MPISCOPE_CALLSITE_DEPTH": depth}), variant=f"call sites depth {depth}",
                bound_ns=ADDED_NS_BOUNDS["callcost"] if depth == "0" else ADDED_NS_BOUNDS["stack_walk"]))
        fexe = os.path.join(bdir, "callcost_f")
        if os.path.exists(fexe):
            results.append(measure("callcost_f", lambda: workload(
                "callcost_f", 1, fexe, [n_call], "ns_per_call", lib, merge, a.reps, tmp),
                variant="Fortran, through MPICH's Fortran library"))
        results.append(measure("pingpong", lambda: workload(
            "pingpong", 2, os.path.join(bdir, "pingpong"), [20000 if q else 200000], "half_rtt_ns",
            lib, merge, a.reps, tmp, WRITER_IDLE), variant="writer idle during the loop"))
        for name, key, count, label, writer in (
                ("pingpong", "half_rtt_ns", 20000 if q else 200000, "ping-pong, 8-byte half round trip", True),
                ("halo", "ns_per_step", 5000 if q else 50000, "halo, 4 Irecv + 4 Isend + Waitall, per step",
                 True),
                ("allreduce", "ns_per_allreduce", 10000 if q else 100000, "allreduce, 8 bytes, per call", False),
                ("testpoll", "ns_per_iter", 10000 if q else 100000,
                 "testpoll: Irecv, Send, MPI_Test until done, per iteration", False)):
            r = measure(name, lambda name=name, key=key, count=count, writer=writer: side_by_side(
                name, 2, os.path.join(bdir, name), [count], [key], libs, merge, a.reps, tmp, writer=writer),
                label=label)
            side.append(r)
            results.append(r)
        percall = measure("percall", lambda: side_by_side(
            "percall", 1, os.path.join(bdir, "percall"), [n_call], [f"ns_{c}" for c in PERCALL], libs, merge,
            a.reps, tmp, only=("without", "trace", "mpip_k0"), logs=False))
        clock = clock_reads(bdir, q)
        np_res = netpipe(lib, a.reps, tmp, q)
        if np_res:
            results.append(np_res)
        ms = merge_speed(merge, lib, bdir, tmp, q)
        lmp = {"note": "LAMMPS left out under --check; make bench measures it"} if a.check else \
            lammps(lib_ompi, a.reps, tmp, q)
        if "note" in lmp:
            print(lmp["note"], file=sys.stderr)
        if a.check:
            # The machine's latency phases can put every run with the preload
            # in a slow phase and every run without it in a fast one: a
            # workload over its bound is measured twice more, and fails only
            # if it stays over the bound each time.
            checked = results + [percall]
            for i, r in enumerate(checked):
                for _ in range(2):
                    if not over_bound(r) or id(r) not in again:
                        break
                    fn, label, variant, bound_ns = again[id(r)]
                    r = measure(r["name"], fn, label, variant, bound_ns)
                checked[i] = r
            results, percall = checked[:-1], checked[-1]
            side = [r for r in results if "med" in r and r["name"] != "callcost"]
            callcost = results[0]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text = report(results, side, percall, callcost, ms, lmp, mpip_why, a.reps, clock)
    print(text)
    if a.out:
        # Sections measured by hand (from KEPT_SECTIONS on) are kept.
        kept = ""
        if os.path.exists(a.out):
            with open(a.out) as f:
                old = f.read()
            if KEPT_SECTIONS in old:
                kept = "\n" + old[old.index(KEPT_SECTIONS):]
        with open(a.out, "w") as f:
            f.write("# Performance\n\nWritten by `make bench` (scripts/bench.py); figures from one run.\n\n")
            f.write(text)
            f.write(kept)
    if a.check:
        checked = results + [percall]
        bad = [f"{r['name']}{', ' + r['variant'] if 'variant' in r else ''}: "
               + ("added over 1000 ns on a call" if r["name"] == "percall" else
                  f"added {r['on'] - r['off']:.0f} ns per call" if r["name"].startswith("callcost")
                  else f"ratio {r['ratio']:.2f}")
               for r in checked if over_bound(r)]
        if bad:
            print("bench: sanity bounds exceeded: " + "; ".join(bad), file=sys.stderr)
            print(f"bench sanity: {len(checked) - len(bad)} passed, {len(bad)} failed")
            return 1
        print(f"bench sanity: {len(checked)} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
