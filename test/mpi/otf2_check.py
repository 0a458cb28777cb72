"""Check an OTF2 archive written by mpiscope-merge --otf2 against the same
run's --ranks-csv, from the archive as otf2-print prints it:

  python3 otf2_check.py RANKS.CSV OTF2_PRINT.TXT OTF2_PRINT_G.TXT [--min-messages N] [--min-collectives N]

- the regions are Score-P's: one per MPI function ("MPI_Send", paradigm
  MPI), defined once each, one per other region name, and nothing else;
- every region's Enter and Leave counts on each rank equal the calls of
  the CSV's names of that function on that rank; Enter and Leave nest per
  location and timestamps never go back;
- every message event lies inside a call of a function of its kind; on
  each rank the MpiSend, MpiIsend and MpiRecv events, as (peer, tag,
  communicator, length), are exactly the calls the CSV's names give
  (peer, tag, comm, bytes), MpiIrecvRequest as many as the irecv calls,
  MpiIrecv the (source, tag, communicator) the irecv names posted (when
  none used a wildcard), and MpiCollectiveEnd, as (operation, root,
  communicator, bytes sent), the collective calls;
- every sent message (MpiSend, MpiIsend) has exactly one received message
  (MpiRecv, MpiIrecv) with the same sender and receiver locations,
  communicator, tag and length, and the other way round;
- every MpiIsend request completes once (MpiIsendComplete), every
  MpiIrecvRequest once (MpiIrecv), on its own location.
Exit 0 when all hold; else each failure on stdout and exit 1.
"""

import argparse
import collections
import csv
import re
import sys

LINE = re.compile(r"^([A-Z_]+)\s+(\d+)\s+(\d+)\s+(.*)$")
REGION = re.compile(r'Region: "(.*)" <\d+>$')
REGION_DEF = re.compile(r'^REGION\s+\d+\s+Name: "(.*)" <\d+> \(Aka\..*Role: (\S+), Paradigm: (\S+)')
PEER = re.compile(r'(Receiver|Sender): (\d+) \("[^"]*" <(\d+)>\), Communicator: "([^"]*)" <\d+>, '
                  r"Tag: (\S+), Length: (\d+)(?:, Request: (\d+))?")
REQUEST = re.compile(r"Request: (\d+)")
COLL = re.compile(r'Operation: (\S+), Communicator: "([^"]*)" <\d+>, Root: (NONE|\d+).*Sent: (\d+)')

OPS = {
    "barrier": "BARRIER", "bcast": "BCAST", "gather": "GATHER", "gatherv": "GATHERV",
    "scatter": "SCATTER", "scatterv": "SCATTERV", "allgather": "ALLGATHER",
    "allgatherv": "ALLGATHERV", "alltoall": "ALLTOALL", "alltoallv": "ALLTOALLV",
    "alltoallw": "ALLTOALLW", "allreduce": "ALLREDUCE", "reduce": "REDUCE",
    "reduce_scatter": "REDUCE_SCATTER", "reduce_scatter_block": "REDUCE_SCATTER_BLOCK",
    "scan": "SCAN", "exscan": "EXSCAN", "comm_dup": "CREATE_HANDLE",
    "comm_dup_with_info": "CREATE_HANDLE", "comm_split": "CREATE_HANDLE",
    "comm_split_type": "CREATE_HANDLE", "comm_create": "CREATE_HANDLE",
    "comm_create_group": "CREATE_HANDLE", "cart_create": "CREATE_HANDLE", "cart_sub": "CREATE_HANDLE",
    "graph_create": "CREATE_HANDLE", "dist_graph_create": "CREATE_HANDLE",
    "dist_graph_create_adjacent": "CREATE_HANDLE", "intercomm_create": "CREATE_HANDLE",
    "intercomm_merge": "CREATE_HANDLE", "comm_free": "DESTROY_HANDLE",
    "win_create": "CREATE_HANDLE", "win_create_dynamic": "CREATE_HANDLE",
    "win_allocate": "CREATE_HANDLE_AND_ALLOCATE", "win_allocate_shared": "CREATE_HANDLE_AND_ALLOCATE",
    "win_free": "DESTROY_HANDLE_AND_DEALLOCATE",
}
# Message events and the functions whose calls give them.
SENDS = {"MPI_SEND": ("send", "bsend", "ssend", "rsend"), "MPI_ISEND": ("isend", "ibsend", "issend", "irsend"),
         "MPI_RECV": ("recv", "mrecv")}
IRECVS = ("irecv", "imrecv")
COMPLETIONS = ("wait", "waitall", "waitany", "waitsome", "test", "testall", "testany", "testsome")
INSIDE = {"MPI_IRECV_REQUEST": IRECVS, "MPI_IRECV": COMPLETIONS, "MPI_ISEND_COMPLETE": COMPLETIONS}
INSIDE.update(SENDS)


def fields(name):
    """The key=value fields of a region name, and its op."""
    head, *rest = name.split(" ")
    f = dict(item.split("=", 1) for item in rest if "=" in item)
    f["op"] = head[4:] if head.startswith("mpi:") else ""
    return f


def function(name):
    """The OTF2 region of a region name: MPI_<Op> for an MPI call."""
    if not name.startswith("mpi:"):
        return name
    op = fields(name)["op"]
    return "MPI_" + op[:1].upper() + op[1:]


def op_of(function_name):
    return function_name[4:].lower() if function_name.startswith("MPI_") else ""


def comm_name(f):
    c = int(f.get("comm", "-1"))
    return {0: "MPI_COMM_WORLD", 1: "MPI_COMM_SELF"}.get(c, f"comm {c}")


def expected(rows):
    """From the CSV's (name, rank, calls): what each rank's events must be."""
    enters = collections.Counter()
    msgs = collections.Counter()
    irecv_reqs = collections.Counter()
    irecvs = collections.Counter()
    wild = set()
    colls = collections.Counter()
    for name, rank, n in rows:
        enters[(rank, function(name))] += n
        f = fields(name)
        op = f["op"]
        for ev, ops in SENDS.items():
            if op in ops:
                msgs[(rank, ev, int(f["peer"]), f["tag"], comm_name(f), int(f["bytes"]))] += n
        if op in IRECVS:
            irecv_reqs[rank] += n
            if int(f["peer"]) < 0 or int(f["tag"]) < 0:
                wild.add(rank)
            irecvs[(rank, int(f["peer"]), f["tag"], comm_name(f))] += n
        if op in OPS:
            root = int(f["root"])
            colls[(rank, OPS[op], "NONE" if root < 0 else str(root), comm_name(f), max(int(f["bytes"]), 0))] += n
    return enters, msgs, irecv_reqs, irecvs, wild, colls


def check_defs(defs, rows, errors):
    names = collections.Counter()
    for line in open(defs):
        m = REGION_DEF.match(line)
        if not m:
            continue
        name, paradigm = m.group(1), m.group(3)
        names[name] += 1
        if name.startswith("MPI_") and paradigm != '"MPI"':
            errors.append(f"region {name}: paradigm {paradigm}, not MPI")
        if name.startswith("MPI_") and not re.match(r"^MPI_[A-Z][a-z0-9_]*$", name):
            errors.append(f"region {name}: not an MPI function's name")
    want = {function(name) for name, _, _ in rows}
    for name, n in sorted(names.items()):
        if n != 1:
            errors.append(f"region {name}: defined {n} times")
    if set(names) != want:
        errors.append(f"regions {sorted(set(names) - want)} not in the CSV, {sorted(want - set(names))} missing")
    return len(names)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("printed")
    ap.add_argument("defs")
    ap.add_argument("--min-messages", type=int, default=0)
    ap.add_argument("--min-collectives", type=int, default=0)
    a = ap.parse_args()
    errors = []

    rows = [(r["name"], int(r["rank"]), int(r["calls"])) for r in csv.DictReader(open(a.csv, newline=""))]
    nregions = check_defs(a.defs, rows, errors)
    want_enters, want_msgs, want_irecv_reqs, want_irecvs, wild, want_colls = expected(rows)
    enters, leaves = collections.Counter(), collections.Counter()
    msgs, irecv_reqs, irecvs, colls = collections.Counter(), collections.Counter(), collections.Counter(), collections.Counter()
    stacks = collections.defaultdict(list)
    last_ts = {}
    sent, received = collections.Counter(), collections.Counter()
    isends, irecv_open = collections.Counter(), collections.Counter()
    coll_open = {}

    for n, line in enumerate(open(a.printed), 1):
        m = LINE.match(line.rstrip("\n"))
        if not m:
            continue
        ev, loc, ts, rest = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        rank = loc >> 16
        if ts < last_ts.get(loc, 0):
            errors.append(f"line {n}: location {loc} goes back in time")
        last_ts[loc] = ts
        stack = stacks[loc]
        inside = op_of(stack[-1]) if stack else ""
        where = f"line {n} ({ev} in {stack[-1] if stack else 'no region'})"
        if ev in ("ENTER", "LEAVE"):
            name = REGION.search(rest).group(1)
            if ev == "ENTER":
                enters[(rank, name)] += 1
                stack.append(name)
            else:
                leaves[(rank, name)] += 1
                if not stack or stack.pop() != name:
                    errors.append(f"line {n}: Leave of {name} does not close the innermost Enter")
            continue
        if ev in INSIDE and inside not in INSIDE[ev]:
            errors.append(f"{where}: not inside a call of {INSIDE[ev]}")
        p = PEER.search(rest)
        if ev in SENDS or ev == "MPI_IRECV":
            if not p:
                errors.append(f"{where}: cannot parse {rest}")
                continue
            peer, other, comm, tag, length = int(p.group(2)), int(p.group(3)), p.group(4), p.group(5), int(p.group(6))
            if ev in SENDS:
                msgs[(rank, ev, peer, tag, comm, length)] += 1
            else:
                irecvs[(rank, peer, tag, comm)] += 1
            if ev in ("MPI_SEND", "MPI_ISEND"):
                sent[(loc, other, comm, tag, length)] += 1
            else:
                received[(other, loc, comm, tag, length)] += 1
        if ev == "MPI_ISEND":
            isends[(loc, int(p.group(7)))] += 1
        elif ev == "MPI_ISEND_COMPLETE":
            isends[(loc, int(REQUEST.search(rest).group(1)))] -= 1
        elif ev == "MPI_IRECV_REQUEST":
            irecv_reqs[rank] += 1
            irecv_open[(loc, int(REQUEST.search(rest).group(1)))] += 1
        elif ev == "MPI_IRECV":
            irecv_open[(loc, int(p.group(7)))] -= 1
        elif ev == "MPI_COLLECTIVE_BEGIN":
            coll_open[loc] = len(stack)
        elif ev == "MPI_COLLECTIVE_END":
            c = COLL.search(rest)
            if not stack or coll_open.pop(loc, None) != len(stack):
                errors.append(f"{where}: no MpiCollectiveBegin in the same call")
                continue
            if OPS.get(inside) != c.group(1):
                errors.append(f"{where}: operation {c.group(1)} in {stack[-1]}")
            colls[(rank, c.group(1), c.group(3), c.group(2), int(c.group(4)))] += 1

    def compare(what, got, want):
        for key in sorted(set(got) | set(want), key=str):
            if got[key] != want[key]:
                errors.append(f"{what} {key}: {got[key]} in the archive, {want[key]} from the CSV")

    compare("Enter (rank, region)", enters, want_enters)
    compare("Leave (rank, region)", leaves, want_enters)
    compare("message (rank, event, peer, tag, comm, length)", msgs, want_msgs)
    compare("MpiIrecvRequest on rank", irecv_reqs, want_irecv_reqs)
    compare("MpiIrecv (rank, source, tag, comm)",
            collections.Counter({k: v for k, v in irecvs.items() if k[0] not in wild}),
            collections.Counter({k: v for k, v in want_irecvs.items() if k[0] not in wild}))
    compare("MpiCollectiveEnd (rank, op, root, comm, sent)", colls, want_colls)
    for key in sorted(set(sent) | set(received)):
        if sent[key] != received[key]:
            errors.append(f"message (sender location, receiver location, comm, tag, length) {key}: "
                          f"sent {sent[key]}, received {received[key]}")
    for what, table in (("MpiIsend", isends), ("MpiIrecvRequest", irecv_open)):
        for key, n in sorted(table.items()):
            if n != 0:
                errors.append(f"{what} request {key}: {'not completed' if n > 0 else 'completed without a request'}")
    if sum(sent.values()) < a.min_messages:
        errors.append(f"{sum(sent.values())} messages, expected at least {a.min_messages}")
    if sum(colls.values()) < a.min_collectives:
        errors.append(f"{sum(colls.values())} collectives, expected at least {a.min_collectives}")
    for e in errors[:50]:
        print(e)
    if not errors:
        print(f"ok: {nregions} regions, {sum(enters.values())} calls, {sum(sent.values())} messages, "
              f"{sum(colls.values())} collectives")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
