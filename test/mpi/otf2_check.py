"""Check an OTF2 archive written by mpiscope-merge --otf2 against the same
run's --csv, from the archive as otf2-print prints it:

  python3 otf2_check.py REGIONS.CSV OTF2_PRINT.TXT [--min-messages N] [--min-collectives N]

- every region's Enter and Leave counts equal its calls in the CSV, Enter
  and Leave nest per location and timestamps never go back;
- every message event lies inside a call of its kind whose name carries its
  peer (receiver or sender as a rank of the communicator), tag and
  communicator; every sent message (MpiSend, MpiIsend) has exactly one
  received message (MpiRecv, MpiIrecv) with the same sender and receiver
  locations, communicator, tag and length, and the other way round;
- every MpiIsend request completes once (MpiIsendComplete), every
  MpiIrecvRequest once (MpiIrecv), on its own location;
- every blocking collective call has one MpiCollectiveBegin/End pair whose
  operation, root and communicator are those of its region name.
Exit 0 when all hold; else each failure on stdout and exit 1.
"""

import argparse
import collections
import csv
import re
import sys

LINE = re.compile(r"^([A-Z_]+)\s+(\d+)\s+(\d+)\s+(.*)$")
REGION = re.compile(r'Region: "(.*)" <\d+>$')
PEER = re.compile(r'(Receiver|Sender): (\d+) \("[^"]*" <(\d+)>\), Communicator: "([^"]*)" <\d+>, '
                  r"Tag: (\S+), Length: (\d+)(?:, Request: (\d+))?")
REQUEST = re.compile(r"Request: (\d+)")
COLL = re.compile(r'Operation: (\S+), Communicator: "([^"]*)" <\d+>, Root: (NONE|\d+)')

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
SENDS = {"MPI_SEND": ("send", "bsend", "ssend", "rsend"), "MPI_ISEND": ("isend", "ibsend", "issend", "irsend")}
RECVS = {"MPI_RECV": ("recv", "mrecv")}


def fields(name):
    """The key=value fields of a region name, and its op."""
    head, *rest = name.split(" ")
    f = dict(item.split("=", 1) for item in rest if "=" in item)
    f["op"] = head[4:] if head.startswith("mpi:") else ""
    return f


def comm_name(f):
    c = int(f.get("comm", "-1"))
    return {0: "MPI_COMM_WORLD", 1: "MPI_COMM_SELF"}.get(c, f"comm {c}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("printed")
    ap.add_argument("--min-messages", type=int, default=0)
    ap.add_argument("--min-collectives", type=int, default=0)
    a = ap.parse_args()
    errors = []

    calls = {row["name"]: int(row["calls"]) for row in csv.DictReader(open(a.csv, newline=""))}
    enters, leaves = collections.Counter(), collections.Counter()
    stacks = collections.defaultdict(list)
    last_ts = {}
    sent, received = collections.Counter(), collections.Counter()
    isends, irecvs = collections.Counter(), collections.Counter()
    coll_ends = collections.Counter()
    coll_open = {}

    for n, line in enumerate(open(a.printed), 1):
        m = LINE.match(line.rstrip("\n"))
        if not m:
            continue
        ev, loc, ts, rest = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        if ts < last_ts.get(loc, 0):
            errors.append(f"line {n}: location {loc} goes back in time")
        last_ts[loc] = ts
        stack = stacks[loc]
        inside = fields(stack[-1]) if stack else {"op": ""}
        where = f"line {n} ({ev} in {stack[-1] if stack else 'no region'})"
        if ev in ("ENTER", "LEAVE"):
            name = REGION.search(rest).group(1)
            if ev == "ENTER":
                enters[name] += 1
                stack.append(name)
            else:
                leaves[name] += 1
                if not stack or stack.pop() != name:
                    errors.append(f"line {n}: Leave of {name} does not close the innermost Enter")
            continue
        p = PEER.search(rest)
        if ev in SENDS or ev in ("MPI_RECV", "MPI_IRECV"):
            if not p:
                errors.append(f"{where}: cannot parse {rest}")
                continue
            rank, other, comm, tag, length = int(p.group(2)), int(p.group(3)), p.group(4), p.group(5), int(p.group(6))
            if ev in SENDS and inside["op"] not in SENDS[ev]:
                errors.append(f"{where}: not inside a call of {SENDS[ev]}")
            if ev == "MPI_RECV" and inside["op"] not in RECVS[ev]:
                errors.append(f"{where}: not inside a receive")
            if ev == "MPI_IRECV" and inside.get("request") not in ("irecv", "imrecv", "mixed"):
                errors.append(f"{where}: not inside a completion of receives")
            peer = int(inside.get("peer", "-1"))
            if peer >= 0 and peer != rank:
                errors.append(f"{where}: peer {rank}, its region says {peer}")
            itag = int(inside.get("tag", "-1"))
            if itag >= 0 and str(itag) != tag:
                errors.append(f"{where}: tag {tag}, its region says {itag}")
            if inside.get("comm", "-1") != "-1" and comm_name(inside) != comm:
                errors.append(f"{where}: communicator {comm}, its region says {comm_name(inside)}")
            if ev in SENDS:
                sent[(loc, other, comm, tag, length)] += 1
            else:
                received[(other, loc, comm, tag, length)] += 1
        if ev == "MPI_ISEND":
            isends[(loc, int(p.group(7)))] += 1
        elif ev == "MPI_ISEND_COMPLETE":
            isends[(loc, int(REQUEST.search(rest).group(1)))] -= 1
        elif ev == "MPI_IRECV_REQUEST":
            irecvs[(loc, int(REQUEST.search(rest).group(1)))] += 1
        elif ev == "MPI_IRECV":
            irecvs[(loc, int(p.group(7)))] -= 1
        elif ev == "MPI_COLLECTIVE_BEGIN":
            coll_open[loc] = stack[-1] if stack else None
        elif ev == "MPI_COLLECTIVE_END":
            c = COLL.search(rest)
            if not stack or coll_open.pop(loc, None) != stack[-1]:
                errors.append(f"{where}: no MpiCollectiveBegin in the same call")
                continue
            want_op = OPS.get(inside["op"])
            if c.group(1) != want_op:
                errors.append(f"{where}: operation {c.group(1)}, expected {want_op}")
            root = int(inside.get("root", "-1"))
            if (c.group(3) != "NONE" if root < 0 else c.group(3) != str(root)):
                errors.append(f"{where}: root {c.group(3)}, its region says {root}")
            if c.group(2) != comm_name(inside):
                errors.append(f"{where}: communicator {c.group(2)}, its region says {comm_name(inside)}")
            coll_ends[stack[-1]] += 1

    for name, n in sorted(calls.items()):
        if enters[name] != n or leaves[name] != n:
            errors.append(f"{name}: {n} calls in the CSV, {enters[name]} Enter and {leaves[name]} Leave")
        f = fields(name)
        if f["op"] in OPS and n != coll_ends[name]:
            errors.append(f"{name}: {n} calls, {coll_ends[name]} MpiCollectiveEnd")
    for name in sorted(set(enters) - set(calls)):
        errors.append(f"{name}: in the archive, not in the CSV")
    for key in sorted(set(sent) | set(received)):
        if sent[key] != received[key]:
            errors.append(f"message (sender location, receiver location, comm, tag, length) {key}: "
                          f"sent {sent[key]}, received {received[key]}")
    for what, table in (("MpiIsend", isends), ("MpiIrecvRequest", irecvs)):
        for key, n in sorted(table.items()):
            if n != 0:
                errors.append(f"{what} request {key}: {'not completed' if n > 0 else 'completed without a request'}")
    if sum(sent.values()) < a.min_messages:
        errors.append(f"{sum(sent.values())} messages, expected at least {a.min_messages}")
    if sum(coll_ends.values()) < a.min_collectives:
        errors.append(f"{sum(coll_ends.values())} collectives, expected at least {a.min_collectives}")
    for e in errors[:50]:
        print(e)
    if not errors:
        print(f"ok: {sum(enters.values())} calls, {sum(sent.values())} messages, "
              f"{sum(coll_ends.values())} collectives")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
