#!/usr/bin/env python3
"""Merge scaling: time and peak memory of the merge against ranks and events.

usage: scaling.py [--build DIR] [--tmp DIR] [--ranks 64,256,1024]
                  [--events 1e6,1e7,1e8] [--fixed-events 1e7] [--fixed-ranks 64]
                  [--jobs 1,2] [--procs 1,2,4] [--out docs/PERFORMANCE.md]

Runs are synthesized by the test-only writer (build/test/scale/synth-logs:
real writer code, a halo exchange on a ring, 7 events per step, region
names carrying peers, so the regions grow with the ranks as in real runs).
Each case is merged with `mpiscope-merge -j J --csv` (the reduction: every
event decoded, every statistic computed) and, when built, with
`mpiexec.mpich -n P mpiscope-merge-mpich --csv`; the script reports wall time,
events per second and the peak RSS of the largest merge process, then fits
the growth laws. --out replaces the "## Scaling" section of that file.
"""

import argparse
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time


def die(msg):
    print(f"scaling: {msg}", file=sys.stderr)
    sys.exit(1)


def num_list(s):
    return [int(float(x)) for x in s.split(",") if x]


def run_rss(cmd, env=None):
    """Run cmd; return (seconds, peak RSS KiB of the process itself)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        die(f"{' '.join(cmd)} exited {p.returncode}: {err.strip()}")
    return dt, ru.ru_maxrss, err


def run_parallel(mpiexec, procs, cmd):
    """mpiexec -n procs /usr/bin/time -f %M cmd: (seconds, largest RSS KiB)."""
    with tempfile.NamedTemporaryFile(prefix="mpiscope-rss-") as f:
        # Each process appends one line (O_APPEND: lines stay whole).
        full = [mpiexec, "-n", str(procs), "/usr/bin/time", "-a", "-o", f.name, "-f", "maxrss %M"] + cmd
        dt, _, _ = run_rss(full)
        text = open(f.name).read()
    rss = [int(m) for m in re.findall(r"^maxrss (\d+)$", text, re.M)]
    if len(rss) != procs:
        die(f"expected {procs} RSS lines from {' '.join(full)}:\n{text}")
    return dt, max(rss)


def synth(exe, d, ranks, events):
    out = subprocess.run([exe, "--ranks", str(ranks), "--events", str(events), "--jobs", "2", d],
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    return int(re.search(r"bytes=(\d+)", out).group(1))


def measure(a, merge, pmerge, exe, ranks, events, reps=3):
    d = os.path.join(a.tmp, f"r{ranks}-e{events}")
    shutil.rmtree(d, ignore_errors=True)
    nbytes = synth(exe, d, ranks, events)
    row = {"ranks": ranks, "events": events, "bytes": nbytes, "serial": {}, "parallel": {}}
    for j in a.jobs:
        best = None
        for _ in range(reps):
            dt, rss, _ = run_rss([merge, "-j", str(j), "--csv", os.devnull, d])
            best = (dt, rss) if best is None or dt < best[0] else best
        row["serial"][j] = best
    if pmerge:
        for p in a.procs:
            best = None
            for _ in range(reps):
                dt, rss = run_parallel(a.mpiexec, p, [pmerge, "--csv", os.devnull, d])
                best = (dt, rss) if best is None or dt < best[0] else best
            row["parallel"][p] = best
    shutil.rmtree(d, ignore_errors=True)
    print(f"  {ranks} ranks, {events} events: " +
          ", ".join(f"-j {j} {t:.2f} s {r / 1024:.1f} MiB" for j, (t, r) in row["serial"].items()) +
          "".join(f", P={p} {t:.2f} s {r / 1024:.1f} MiB" for p, (t, r) in row["parallel"].items()),
          file=sys.stderr, flush=True)
    return row


def fit(xs, ys):
    """Least squares y = a + b x."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    return my - b * mx, b


def loglog_slope(xs, ys):
    return fit([math.log(x) for x in xs], [math.log(y) for y in ys])[1]


def table(rows, a, pmerge):
    head = "| ranks | events | logs MiB | " + " | ".join(f"-j {j} s | -j {j} M events/s | -j {j} RSS MiB" for j in a.jobs)
    if pmerge:
        head += " | " + " | ".join(f"P={p} s | P={p} RSS MiB" for p in a.procs)
    ncol = 3 + 3 * len(a.jobs) + (2 * len(a.procs) if pmerge else 0)
    lines = [head + " |", "|" + "---|" * ncol]
    for r in rows:
        cells = [str(r["ranks"]), f"{r['events']:,}", f"{r['bytes'] / 2**20:.1f}"]
        for j in a.jobs:
            t, rss = r["serial"][j]
            cells += [f"{t:.2f}", f"{r['events'] / t / 1e6:.1f}", f"{rss / 1024:.1f}"]
        if pmerge:
            for p in a.procs:
                t, rss = r["parallel"][p]
                cells += [f"{t:.2f}", f"{rss / 1024:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--tmp", default=None)
    ap.add_argument("--ranks", type=num_list, default=[64, 256, 1024])
    ap.add_argument("--events", type=num_list, default=[10**6, 10**7, 10**8])
    ap.add_argument("--fixed-events", type=lambda s: int(float(s)), default=10**7)
    ap.add_argument("--fixed-ranks", type=int, default=64)
    ap.add_argument("--jobs", type=num_list, default=[1, 2])
    ap.add_argument("--procs", type=num_list, default=[1, 2, 4])
    ap.add_argument("--mpiexec", default=os.environ.get("MPIEXEC_MPICH", "mpiexec.mpich"))
    ap.add_argument("--out")
    a = ap.parse_args()
    merge = os.path.join(a.build, "bin", "mpiscope-merge")
    pmerge = os.path.join(a.build, "bin", "mpiscope-merge-mpich")
    exe = os.path.join(a.build, "test", "scale", "synth-logs")
    for f in (merge, exe):
        if not os.access(f, os.X_OK):
            die(f"{f} is not built (make all {exe})")
    if not (os.access(pmerge, os.X_OK) and shutil.which(a.mpiexec)):
        pmerge = None
    own_tmp = a.tmp is None
    a.tmp = a.tmp or tempfile.mkdtemp(prefix="mpiscope-scaling-")
    try:
        print("ranks sweep", file=sys.stderr)
        by_ranks = [measure(a, merge, pmerge, exe, r, a.fixed_events) for r in a.ranks]
        print("events sweep", file=sys.stderr)
        by_events = [measure(a, merge, pmerge, exe, a.fixed_ranks, e) for e in a.events]
    finally:
        if own_tmp:
            shutil.rmtree(a.tmp, ignore_errors=True)
    j1 = a.jobs[0]
    ev = [r["events"] for r in by_events]
    t_ev = [r["serial"][j1][0] for r in by_events]
    rss_ev = [r["serial"][j1][1] for r in by_events]
    rk = [r["ranks"] for r in by_ranks]
    rss_rk = [r["serial"][j1][1] / 1024 for r in by_ranks]
    t_rk = [r["serial"][j1][0] for r in by_ranks]
    rss_a, rss_b = fit(rk, rss_rk)
    t_a, t_b = fit(ev, t_ev)
    cpu = "unknown CPU"
    try:
        m = re.search(r"^model name\s*:\s*(.*)$", open("/proc/cpuinfo").read(), re.M)
        cpu = m.group(1) if m else cpu
    except OSError:
        pass
    text = [
        "## Scaling",
        "",
        "Written by `scripts/scaling.py` (`make scaling`); figures from one run, best of 3 per case.",
        f"Measured {time.strftime('%Y-%m-%d')} on {cpu}, {os.cpu_count()} cores, Linux {platform.release()}.",
        "Logs are synthesized by the real writer (`build/test/scale/synth-logs`: a halo exchange on a ring, "
        "region names carrying peers, so regions grow with ranks as in real runs); each merge computes the "
        "full region table (`--csv`). RSS is the peak of the largest merge process.",
        "",
        f"### Ranks ({a.fixed_events:,} events in all)",
        "",
        table(by_ranks, a, pmerge),
        "",
        f"### Events ({a.fixed_ranks} ranks)",
        "",
        table(by_events, a, pmerge),
        "",
        "### Growth",
        "",
        f"- Time against events (at {a.fixed_ranks} ranks, -j {j1}): {t_a:.3f} s + {t_b * 1e9:.1f} ns per "
        f"event (least squares), linear; log-log slope {loglog_slope(ev[-2:], t_ev[-2:]):.2f} between the "
        f"two largest cases (1 = linear); {ev[-1] / t_ev[-1] / 1e6:.1f} M events/s at {ev[-1]:,} events.",
        f"- Peak RSS against events: log-log slope {loglog_slope(ev, rss_ev):.2f} "
        f"({rss_ev[0] / 1024:.1f} MiB at {ev[0]:,}, {rss_ev[-1] / 1024:.1f} MiB at {ev[-1]:,}): "
        "independent of the number of events.",
        f"- Peak RSS against ranks (-j {j1}): {rss_a:.1f} MiB + {rss_b * 1024:.0f} KiB per rank "
        f"(least squares over {', '.join(map(str, rk))} ranks), i.e. linear in regions x ranks.",
        f"- Time against ranks at a fixed number of events: {t_rk[0]:.2f} s at {rk[0]} ranks, "
        f"{t_rk[-1]:.2f} s at {rk[-1]}: the per-file cost (open, header, region table) is "
        f"{(t_rk[-1] - t_rk[0]) / (rk[-1] - rk[0]) * 1e3:.2f} ms per rank.",
        "",
    ]
    out = "\n".join(text)
    print(out)
    if a.out:
        old = open(a.out).read() if os.path.exists(a.out) else "# Performance\n"
        at = old.find("\n## Scaling")
        head = old[:at] if at >= 0 else old.rstrip("\n")
        rest = ""
        if at >= 0:
            nxt = old.find("\n## ", at + 1)
            rest = old[nxt:] if nxt >= 0 else ""
        with open(a.out, "w") as f:
            f.write(head + "\n\n" + out + rest)


if __name__ == "__main__":
    main()
