#!/usr/bin/env python3
"""Self-consistency of the merged profile of a program nobody here wrote
(no expectation can list its calls):

    consistency.py RANKS_CSV NRANKS

RANKS_CSV is the merge's --ranks-csv output (one row per region and rank).
It checks that
  - every MPI call has a known communicator: comm=-1 only on MPI_Init,
    MPI_Init_thread, MPI_Finalize and completion calls that completed
    nothing; and no completion names request=unknown;
  - the messages rank a sent to rank b (send modes, their nonblocking forms
    counted where posted, the send side of sendrecv) equal, per tag and
    communicator, in number and bytes, the messages rank b recorded as
    received from rank a (recv, mrecv, and single-request completions of
    irecv/imrecv, counted where they complete);
  - every collective on MPI_COMM_WORLD is called equally often on all ranks.
A profile holding calls whose messages cannot be told apart this way (a
completion of several receives at once, a sendrecv's receive side,
persistent requests) is reported instead of being checked loosely.

Prints one line per problem and a summary; exits 1 when there is any
problem.
"""

import collections
import csv
import re
import sys

NAME_RE = re.compile(
    r"^mpi:(?P<op>[a-z0-9_]+) kind=(?P<kind>[a-z-]+) bytes=(?P<bytes>-?\d+) peer=(?P<peer>-?\d+)"
    r" root=(?P<root>-?\d+) tag=(?P<tag>-?\d+) comm=(?P<comm>-?\d+)(?: request=(?P<request>[a-z0-9_]+))?$"
)
LIFECYCLE = {"init", "init_thread", "finalize"}
SENDS = {"send", "bsend", "ssend", "rsend", "isend", "ibsend", "issend", "irsend"}
RECEIVES = {"recv", "mrecv"}
RECV_REQUESTS = {"irecv", "imrecv"}
SINGLE_COMPLETIONS = {"wait", "test", "waitany", "testany"}
MULTI_COMPLETIONS = {"waitall", "testall", "waitsome", "testsome"}
UNCHECKABLE = {"sendrecv_replace", "isendrecv", "isendrecv_replace", "start", "startall", "recv_init"}


def main():
    if len(sys.argv) != 3 or not sys.argv[2].isdigit():
        sys.exit(f"usage: {sys.argv[0]} RANKS_CSV NRANKS")
    path, nranks = sys.argv[1], int(sys.argv[2])
    problems = []
    sent = collections.Counter()  # (src, dst, tag, comm) -> messages
    sent_bytes = collections.Counter()
    received = collections.Counter()
    received_bytes = collections.Counter()
    collectives = collections.defaultdict(collections.Counter)  # name -> rank -> calls
    calls_total = 0
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            name, rank, calls = row["name"], int(row["rank"]), int(row["calls"])
            calls_total += calls
            m = NAME_RE.match(name)
            if not m:
                if name.startswith("mpi:"):
                    problems.append(f"rank {rank}: malformed region name {name!r}")
                continue
            op, kind, request = m["op"], m["kind"], m["request"]
            nbytes, peer, tag, comm = int(m["bytes"]), int(m["peer"]), int(m["tag"]), int(m["comm"])
            if op in LIFECYCLE:
                continue
            several = op in MULTI_COMPLETIONS  # may complete requests of different communicators
            if comm == -1 and not (kind == "wait" and (request is None or several)):
                problems.append(f"rank {rank}: {calls} call(s) with comm=-1: {name}")
            if request == "unknown":
                problems.append(f"rank {rank}: {calls} completion(s) of requests the tool did not see: {name}")
            if op in UNCHECKABLE or op == "sendrecv":
                problems.append(f"rank {rank}: the messages of this region cannot be paired by this check: {name}")
                continue
            if op in SENDS and peer >= 0:
                sent[(rank, peer, tag, comm)] += calls
                sent_bytes[(rank, peer, tag, comm)] += calls * nbytes
            elif (op in RECEIVES or (op in SINGLE_COMPLETIONS and request in RECV_REQUESTS)) and peer >= 0:
                received[(peer, rank, tag, comm)] += calls
                received_bytes[(peer, rank, tag, comm)] += calls * nbytes
            elif several and request is not None and (request in RECV_REQUESTS or request == "mixed"):
                problems.append(f"rank {rank}: cannot count the messages of {name}")
            if kind == "collective" and comm == 0:
                collectives[name][rank] += calls

    for key in sorted(set(sent) | set(received)):
        src, dst, tag, comm = key
        if sent[key] != received[key] or sent_bytes[key] != received_bytes[key]:
            problems.append(f"rank {src} -> rank {dst} (tag {tag}, comm {comm}): sent {sent[key]} messages,"
                            f" {sent_bytes[key]} bytes; received {received[key]} messages,"
                            f" {received_bytes[key]} bytes")
    for name, per_rank in sorted(collectives.items()):
        counts = {r: per_rank.get(r, 0) for r in range(nranks)}
        if len(set(counts.values())) > 1:
            problems.append(f"collective on MPI_COMM_WORLD called unequally: {counts}: {name}")
    for p in problems:
        print(p)
    pairs = len(set(sent) | set(received))
    print(f"consistency: {calls_total} calls, {sum(sent.values())} messages in {pairs} (source, destination,"
          f" tag, comm) groups, {len(collectives)} world collective regions, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
