"""Check the timeline outputs of a window (--from, --to, --ranks) against the
same run's outputs without one:

  python3 window_check.py [--no-otf2] FROM TO RANKS DIR

DIR holds full.csv, full.json (--events-csv, --trace of the whole run) and
win.csv, win.json, win.print (otf2-print of --otf2), win.defs (otf2-print
-G), win.html (--html) of the window. RANKS as --ranks takes it ("0-1,3").

- the window's --events-csv rows are exactly the full rows of the listed
  ranks whose call lies inside [FROM, TO] (start >= FROM, end <= TO), with
  the same call_index;
- the window's --trace has exactly those calls as complete events, and
  exactly the full trace's flows whose two ends lie in kept calls, each
  with its start and its finish;
- the OTF2 archive has events on the listed ranks only, all inside the
  window (timestamps less the clock's offset), as many Enter per rank as
  the window's CSV rows, and every request event paired;
- the HTML timeline's lanes are the listed ranks, its calls inside the window.
Exit 0 when all hold; else each failure on stdout and exit 1.
"""

import collections
import csv
import json
import re
import sys


def ranks_of(spec):
    out = set()
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def ns(s):
    whole, _, frac = s.partition(".")
    sign = -1 if whole.startswith("-") else 1
    return sign * (abs(int(whole)) * 10**9 + int((frac + "000000000")[:9]))


def check_otf2(d, frm, to, ranks, full, rows, errors, enters):
    """The archive of the window as otf2-print prints it."""
    offset = int(re.search(r"Global Offset: (\d+)", open(f"{d}/win.defs").read()).group(1))
    reqs = collections.Counter()
    isend_at = {}
    # A send that no call completes keeps its MpiIsend: after the rank's
    # last completion call.
    last_wait = collections.defaultdict(int)
    for r in full[1:]:
        if r[0].startswith(("mpi:wait", "mpi:test")):
            last_wait[int(r[1])] = max(last_wait[int(r[1])], ns(r[4]))
    for line in open(f"{d}/win.print"):
        m = re.match(r"^([A-Z_]+)\s+(\d+)\s+(\d+)\s+(.*)$", line)
        if not m:
            continue
        ev, loc, ts = m.group(1), int(m.group(2)), int(m.group(3)) - offset
        rank = loc >> 16
        if rank not in ranks or ts < frm or ts > to:
            errors.append(f"--otf2: {line.strip()} outside the window")
        if ev == "ENTER":
            enters[rank] += 1
        r = re.search(r"Request: (\d+)", m.group(4))
        if ev in ("MPI_ISEND", "MPI_IRECV_REQUEST"):
            reqs[(loc, r.group(1))] += 1
            if ev == "MPI_ISEND":
                isend_at[(loc, r.group(1))] = (rank, ts)
        elif ev in ("MPI_ISEND_COMPLETE", "MPI_IRECV"):
            reqs[(loc, r.group(1))] -= 1
    if enters != rows:
        errors.append(f"--otf2: Enter per rank {dict(enters)}, the CSV's rows {dict(rows)}")
    unpaired = [k for k, n in reqs.items() if n and not (k in isend_at and isend_at[k][1] > last_wait[isend_at[k][0]])]
    if unpaired:
        errors.append(f"--otf2: {len(unpaired)} requests without their other half, e.g. {unpaired[:3]}")


def main():
    args = sys.argv[1:]
    with_otf2 = args[0] != "--no-otf2"
    if not with_otf2:
        args = args[1:]
    frm, to, ranks, d = ns(args[0]), ns(args[1]), ranks_of(args[2]), args[3]
    errors = []

    def inside(rank, start, end):
        return rank in ranks and start >= frm and end <= to

    # --events-csv
    full = list(csv.reader(open(f"{d}/full.csv")))
    win = list(csv.reader(open(f"{d}/win.csv")))
    want = [full[0]] + [r for r in full[1:] if inside(int(r[1]), ns(r[4]), ns(r[5]))]
    if win != want:
        errors.append(f"--events-csv: {len(win) - 1} rows, {len(want) - 1} expected")
    if len(want) < 10 or len(want) >= len(full) - 10:
        errors.append(f"the window keeps {len(want) - 1} of {len(full) - 1} calls: not a test of it")

    # --trace (ts and dur in microseconds with nanosecond digits)
    def us(v):
        return round(v * 1000)

    def calls_and_flows(path):
        ev = json.load(open(path))["traceEvents"]
        calls = collections.Counter()
        at = {}
        flows = collections.defaultdict(dict)
        for e in ev:
            if e["ph"] == "X" and e.get("cat") in ("mpi", "region"):
                key = (e["name"], e["pid"], e["tid"], us(e["ts"]), us(e["dur"]))
                calls[key] += 1
                at.setdefault((e["pid"], e["tid"], us(e["ts"])), key)
            elif e["ph"] in ("s", "f"):
                flows[e["id"]][e["ph"]] = (e["pid"], e["tid"], us(e["ts"]))
        return calls, at, flows

    fcalls, fat, fflows = calls_and_flows(f"{d}/full.json")
    wcalls, _, wflows = calls_and_flows(f"{d}/win.json")
    want_calls = collections.Counter({k: n for k, n in fcalls.items() if inside(k[1], k[3], k[3] + k[4])})
    if wcalls != want_calls:
        errors.append(f"--trace: {sum(wcalls.values())} calls, {sum(want_calls.values())} expected; "
                      f"e.g. {sorted((wcalls - want_calls) + (want_calls - wcalls))[:3]}")

    def kept_end(end):
        k = fat.get(end)
        return k is not None and inside(k[1], k[3], k[3] + k[4])

    want_flows = {i: f for i, f in fflows.items() if kept_end(f["s"]) and kept_end(f["f"])}
    if wflows != want_flows:
        errors.append(f"--trace: {len(wflows)} flows, {len(want_flows)} expected (both ends kept)")
    if not want_flows or len(want_flows) == len(fflows):
        errors.append(f"the window keeps {len(want_flows)} of {len(fflows)} flows: not a test of it")

    enters = collections.Counter()
    rows = collections.Counter(int(r[1]) for r in win[1:])
    if with_otf2:
        check_otf2(d, frm, to, ranks, full, rows, errors, enters)

    # --html: the timeline's data
    html = open(f"{d}/win.html").read()
    m = re.search(r'"timeline":(\{"cap".*?\}\]),\s*"names"', html, re.S)
    lanes = json.loads(m.group(1) + "}")["lanes"] if m else None
    if lanes is None:
        errors.append("--html: no timeline")
    else:
        if [lane["rank"] for lane in lanes] != sorted(ranks & {int(r[1]) for r in full[1:]}):
            errors.append(f"--html: lanes of ranks {[lane['rank'] for lane in lanes]}")
        for lane in lanes:
            e = lane["ev"]
            for i in range(0, len(e), 3):
                if e[i] < frm or e[i] + e[i + 1] > to:
                    errors.append(f"--html: rank {lane['rank']} call at {e[i]} ns outside the window")
                    break
    for e in errors[:30]:
        print(e)
    if not errors:
        print(f"ok: {len(win) - 1} of {len(full) - 1} calls, {len(wflows)} of {len(fflows)} flows, "
              f"{sum(enters.values())} OTF2 calls")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
