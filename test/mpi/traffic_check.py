"""Checks mpiscope-merge's --matrix-csv, --events-csv and --trace outputs of
one profiled run (test/mpi/traffic.sh).

    traffic_check.py PROGRAM N DIR

DIR holds regions.csv, ranks.csv, matrix.csv, events.csv and trace.json of
PROGRAM (traffic, halo or p2p_nonblocking) run at N ranks. Checked:
  - the matrix equals what the program sends (computed here from the
    program's text, DESIGN section 6);
  - events.csv has exactly the calls of regions.csv per region and of
    ranks.csv per (region, rank); rows are ordered by rank, thread,
    call_index, with call_index 0, 1, ... per (rank, thread) and
    end_s - start_s = duration_s;
  - trace.json is JSON; its complete events (other than the wait-state
    slices, which must lie inside MPI calls) per (rank, name) equal the
    calls of ranks.csv; each rank is a named process "rank N (host)";
    every flow start has exactly one finish with its id and vice versa;
    each flow goes from a send call to a receive call with the same tag
    and communicator, between the world ranks the names say (comm 0);
    and for PROGRAM traffic, the flows are exactly the expected messages.
"""
import collections
import csv
import json
import re
import sys

NAME_RE = re.compile(r"^mpi:(\S+)((?: \S+=\S+)*)$")


def fields(name):
    m = NAME_RE.match(name)
    if not m:
        return None
    f = dict(kv.split("=", 1) for kv in m.group(2).split())
    f["op"] = m.group(1)
    return f


def add(matrix, src, dst, messages, nbytes):
    cell = matrix[(src, dst)]
    cell[0] += messages
    cell[1] += nbytes


def expected_matrix(program, n):
    """(src, dst) -> [messages, bytes], from the program's text."""
    m = collections.defaultdict(lambda: [0, 0])
    for r in range(n):
        right, left = (r + 1) % n, (r - 1) % n
        if program == "traffic":
            add(m, r, right, 3, 3 * 400)   # A: 3 x 100 ints
            add(m, r, right, 1, 8)         # A: ssend of 1 double
            add(m, r, left, 2, 2 * 7)      # B: 2 x 7 chars
            if r != 0:
                add(m, r, 0, 1, 4)         # C: 1 int to rank 0
            if r >= 1:
                add(m, r, r - 1, 1, 40)    # D: 5 int64, reversed communicator
            add(m, r, r, 1, 24)            # D: sendrecv on MPI_COMM_SELF
            add(m, r, right, 3, 3 * 8)     # E: persistent send, started 3 times
            add(m, r, right, 1, 16)        # F: isend on a duplicate of WORLD
            add(m, r, left, 2, 2 * 12)     # H: persistent send, started 2 times by startall
        elif program == "halo":
            add(m, r, right, 30, 30 * 24)  # 30 steps x 3 doubles each way
            add(m, r, left, 30, 30 * 24)
        elif program == "p2p_nonblocking":
            add(m, r, right, 1, 128)       # 1. 16 doubles
            add(m, r, right, 1, 16)        # 2. 4 ints, tag 2
            add(m, r, left, 1, 16)         # 2. 4 ints, tag 3
            add(m, r, right, 3, 100 + 400000 + 100)  # 3. three sizes
            add(m, r, right, 2, 8)         # 4. 2 x 1 int
        else:
            raise SystemExit("no expectation for program %s" % program)
    return {k: tuple(v) for k, v in m.items()}


def expected_flows(program, n):
    """Sorted (src, dst, tag, comm-kind) of every message with a flow, or
    None when the program's flows are not checked one by one."""
    if program != "traffic":
        return None
    out = []
    for r in range(n):
        right, left = (r + 1) % n, (r - 1) % n
        out += [(r, right, 10)] * 3 + [(r, right, 11)] + [(r, left, 12)] * 2 + [(r, right, 40)] * 3
        out += [(r, right, 50)] + [(r, left, 70)] * 2
        if r != 0:
            out.append((r, 0, 20 + r))
        if r >= 1:
            out.append((r, r - 1, 31))
    # D's self messages (sendrecv) are not attributable: its receive half
    # is not in its name. F's receive (waitall) and H's sends (startall)
    # and receives (waitall) are, from their message records.
    return sorted(out)


def same(x, y):
    """Fields of the two ends of a flow agree: equal, or one of them -1 (a
    call of several requests whose own differ)."""
    return x == y or x == "-1" or y == "-1"


def read_csv(path):
    with open(path, newline="") as fp:
        return list(csv.DictReader(fp))


def main():
    program, n, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    errors = []

    # ---- matrix ----
    rows = read_csv(d + "/matrix.csv")
    with open(d + "/matrix.csv") as fp:
        header = fp.readline().strip()
    if header != "src,dst,messages,bytes":
        errors.append("matrix header is %r" % header)
    got = {(int(r["src"]), int(r["dst"])): (int(r["messages"]), int(r["bytes"])) for r in rows}
    keys = [(int(r["src"]), int(r["dst"])) for r in rows]
    if keys != sorted(keys) or len(keys) != len(set(keys)):
        errors.append("matrix rows are not sorted by src, dst without repeats")
    want = expected_matrix(program, n)
    for k in sorted(set(got) | set(want)):
        if got.get(k) != want.get(k):
            errors.append("matrix %d -> %d: (messages, bytes) %s, expected %s" % (k[0], k[1], got.get(k), want.get(k)))

    # ---- events ----
    regions = {r["name"]: int(r["calls"]) for r in read_csv(d + "/regions.csv")}
    per_rank = {(r["name"], int(r["rank"])): int(r["calls"]) for r in read_csv(d + "/ranks.csv")}
    with open(d + "/events.csv") as fp:
        header = fp.readline().strip()
    if header != "name,rank,thread,call_index,start_s,end_s,duration_s":
        errors.append("events header is %r" % header)
    events = read_csv(d + "/events.csv")
    by_name = collections.Counter(e["name"] for e in events)
    by_name_rank = collections.Counter((e["name"], int(e["rank"])) for e in events)
    if dict(by_name) != regions:
        errors.append("events per region differ from regions.csv: %s" %
                      {k: (by_name.get(k), regions.get(k)) for k in set(by_name) | set(regions)
                       if by_name.get(k) != regions.get(k)})
    if dict(by_name_rank) != per_rank:
        errors.append("events per (region, rank) differ from ranks.csv")
    order = [(int(e["rank"]), int(e["thread"]), int(e["call_index"])) for e in events]
    if order != sorted(order):
        errors.append("events are not ordered by rank, thread, call_index")
    next_index = collections.defaultdict(int)
    for e, (rank, thread, index) in zip(events, order):
        if index != next_index[(rank, thread)]:
            errors.append("rank %d thread %d: call_index %d, expected %d" % (rank, thread, index,
                                                                            next_index[(rank, thread)]))
            break
        next_index[(rank, thread)] += 1
        start, end, dur = float(e["start_s"]), float(e["end_s"]), float(e["duration_s"])
        if start < 0 or end < start or abs(end - start - dur) > 2e-9:
            errors.append("bad times in %s" % e)
            break
    if events and min(float(e["start_s"]) for e in events) != 0.0:
        errors.append("the earliest event does not start at 0")

    # ---- trace ----
    with open(d + "/trace.json") as fp:
        trace = json.load(fp)
    tev = trace["traceEvents"]
    xs = [e for e in tev if e["ph"] == "X" and e.get("cat") != "wait_state"]
    wait_slices = [e for e in tev if e["ph"] == "X" and e.get("cat") == "wait_state"]
    x_count = collections.Counter((e["name"], e["pid"]) for e in xs)
    if dict(x_count) != per_rank:
        errors.append("trace X events per (name, rank) differ from ranks.csv")
    names = {e["pid"]: e["args"]["name"] for e in tev if e["ph"] == "M" and e["name"] == "process_name"}
    for r in range(n):
        if not re.match(r"^rank %d \(.+\)$" % r, names.get(r, "")):
            errors.append("rank %d has process name %r" % (r, names.get(r)))
    for e in xs:
        if e["ts"] < 0 or e["dur"] < 0:
            errors.append("X event with negative time: %s" % e)
            break
        if e["name"].startswith("mpi:"):
            f = fields(e["name"])
            a = e.get("args", {})
            if f is None or any(str(a.get(k)) != f[k] for k in ("bytes", "peer", "tag", "comm")) or \
                    a.get("request") != f.get("request"):
                errors.append("X event args do not match its name: %s" % e)
                break
    starts = collections.defaultdict(list)
    finishes = collections.defaultdict(list)
    for e in tev:
        if e["ph"] == "s":
            starts[e["id"]].append(e)
        elif e["ph"] == "f":
            finishes[e["id"]].append(e)
    if set(starts) != set(finishes) or any(len(v) != 1 for v in starts.values()) or \
            any(len(v) != 1 for v in finishes.values()):
        errors.append("flow starts and finishes do not pair up one to one (%d ids start, %d finish)" %
                      (len(starts), len(finishes)))
    # The slice each flow end lies on: same pid, tid, starting at its ts.
    at = {(e["pid"], e["tid"], e["ts"]): e for e in xs}
    # A wait-state slice lies inside the MPI call that waited, from its entry,
    # and names the rank it waited for.
    for w in wait_slices:
        call = at.get((w["pid"], w["tid"], w["ts"]))
        if call is None or not call["name"].startswith("mpi:") or w["dur"] > call["dur"] or \
                not isinstance(w.get("args", {}).get("waited_for_rank"), int):
            errors.append("wait-state slice not inside a waiting MPI call: %s" % w)
            break
    flows = []
    for fid, (s,) in ((k, v) for k, v in starts.items() if len(v) == 1):
        fin = finishes.get(fid)
        if not fin or len(fin) != 1:
            continue
        f = fin[0]
        xs_s, xs_f = at.get((s["pid"], s["tid"], s["ts"])), at.get((f["pid"], f["tid"], f["ts"]))
        if xs_s is None or xs_f is None:
            errors.append("flow %s does not start or end at a call" % fid)
            continue
        a, b = fields(xs_s["name"]), fields(xs_f["name"])
        # A call of several requests (startall, waitall) names what they
        # share: -1 where they differ.
        if not (same(a["tag"], b["tag"]) and same(a["comm"], b["comm"])):
            errors.append("flow %s links %s to %s" % (fid, xs_s["name"], xs_f["name"]))
            continue
        if a["comm"] == "0" and not (same(a["peer"], str(f["pid"])) and same(b["peer"], str(s["pid"]))):
            errors.append("flow %s from rank %d to %d links %s to %s" % (fid, s["pid"], f["pid"], xs_s["name"],
                                                                         xs_f["name"]))
            continue
        flows.append((s["pid"], f["pid"], int(a["tag"] if a["tag"] != "-1" else b["tag"])))
    want_flows = expected_flows(program, n)
    if want_flows is not None and sorted(flows) != want_flows:
        errors.append("flows %s, expected %s" % (sorted(flows), want_flows))
    if trace.get("otherData", {}).get("messages_with_flows") != len(starts):
        errors.append("otherData.messages_with_flows is %s, %d flows written" %
                      (trace.get("otherData", {}).get("messages_with_flows"), len(starts)))

    for e in errors[:20]:
        print("FAIL:", e)
    if errors:
        return 1
    print("ok: %s -n %d: %d matrix cells, %d events, %d flows" % (program, n, len(got), len(events), len(flows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
