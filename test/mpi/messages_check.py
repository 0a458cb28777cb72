#!/usr/bin/env python3
"""The message records of one run of messages/messages.c, rank by rank.

usage: messages_check.py DIR NRANKS [--summary]

DIR holds dump-<rank>.txt (messages/msg_dump.c's view of each rank's log)
and expect-<rank>.txt (what the program says each of its calls must have
written). In a trace, every event of a completion or start call (and of a
sendrecv) has exactly the records expected, in order, with exact op, flags,
communicator, peer, tag and bytes; every other event has none; and every
post time lies between MPI_Init's start and the start of its event, and is
the start of the call that posted the request: an earlier call of the op
that created it, the latest start or startall of a persistent request, or
the event itself for a start or a sendrecv. --summary: a log written in
summary mode, which holds no message records.
"""
import os
import re
import sys

# The log format version the library writes (common/log_format.h).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "common", "log_format.h")) as f:
    FORMAT_VERSION = int(re.search(r"#define MS_FORMAT_VERSION (\d+)u", f.read()).group(1))

MESSAGE_CALLS = {"wait", "waitall", "waitany", "waitsome", "test", "testall", "testany", "testsome",
                 "start", "startall", "sendrecv", "sendrecv_replace"}
STARTED, POSTED = 4, 8
PERSISTENT = {"recv_init", "send_init"}


class Fail(Exception):
    pass


def op_of(name):
    first = name.split()[0]
    return first[4:] if first.startswith("mpi:") else first


def read_dump(path):
    header, events, pending, status = None, [], [], None
    for line in open(path):
        f = line.split()
        if f[0] == "H":
            header = (int(f[1]), int(f[2]), int(f[3]), int(f[4]))
        elif f[0] == "M":
            pending.append({"thread": int(f[1]), "op": f[2], "flags": int(f[3]), "comm": int(f[4]),
                            "peer": int(f[5]), "tag": int(f[6]), "bytes": int(f[7]), "post": int(f[8])})
        elif f[0] == "E":
            thread = int(f[1])
            mine = [m for m in pending if m["thread"] == thread]
            pending = [m for m in pending if m["thread"] != thread]
            events.append({"thread": thread, "start": int(f[2]), "end": int(f[3]), "op": op_of(" ".join(f[4:])),
                           "msgs": mine})
        elif f[0] == "X":
            status = line[2:].strip()
    return header, events, pending, status


def read_expect(path):
    calls = []
    for line in open(path):
        f = line.split()
        if f[0] == "C":
            calls.append({"op": f[1], "n": int(f[2]), "recs": []})
        else:
            calls[-1]["recs"].append({"op": f[1], "flags": int(f[2]), "comm": int(f[3]), "peer": int(f[4]),
                                      "tag": int(f[5]), "bytes": int(f[6])})
    for c in calls:
        if len(c["recs"]) != c["n"]:
            raise Fail(f"{path}: {c['op']} lists {len(c['recs'])} records, says {c['n']}")
    return calls


def check_posts(ev, prior, init):
    for m in ev["msgs"]:
        if not m["flags"] & POSTED:
            if m["post"] != 0:
                raise Fail(f"{ev['op']}: a record without a post time has post_ns {m['post']}")
            continue
        if not init <= m["post"] <= ev["start"]:
            raise Fail(f"{ev['op']} at {ev['start']}: post_ns {m['post']} outside [init {init}, the event's start]")
        if m["flags"] & STARTED or m["op"] in ("sendrecv", "sendrecv_replace"):
            ok = m["post"] == ev["start"]
            what = "the event's own start"
        elif m["op"] in PERSISTENT:
            ok = m["post"] in prior.get("start", set()) | prior.get("startall", set())
            what = "the start of an earlier start or startall"
        else:
            ok = m["post"] in prior.get(m["op"], set())
            what = f"the start of an earlier {m['op']}"
        if not ok:
            raise Fail(f"{ev['op']} at {ev['start']}: post_ns {m['post']} of {m['op']} is not {what}")


def check_rank(d, rank, nranks):
    header, events, pending, status = read_dump(f"{d}/dump-{rank}.txt")
    if status != "ok":
        raise Fail(f"the reader says: {status}")
    if header is None or header[:3] != (rank, nranks, FORMAT_VERSION) or header[3] != 0:
        raise Fail(f"header {header}: expected rank {rank} of {nranks}, version {FORMAT_VERSION}, trace mode")
    if pending:
        raise Fail(f"{len(pending)} message records after the last event of their thread")
    expect = read_expect(f"{d}/expect-{rank}.txt")
    init = next((e["start"] for e in events if e["op"] in ("init", "init_thread")), None)
    if init is None:
        raise Fail("no MPI_Init event")
    prior, k, nmsgs = {}, 0, 0
    for ev in events:
        nmsgs += len(ev["msgs"])
        if ev["op"] in MESSAGE_CALLS:
            if k >= len(expect):
                raise Fail(f"{ev['op']} at {ev['start']}: more calls than the program made")
            want = expect[k]
            k += 1
            if want["op"] != ev["op"]:
                raise Fail(f"call {k}: {ev['op']} in the log, the program made {want['op']}")
            got = [{key: m[key] for key in ("op", "flags", "comm", "peer", "tag", "bytes")} for m in ev["msgs"]]
            if got != want["recs"]:
                raise Fail(f"call {k} ({ev['op']} at {ev['start']}): records\n    {got}\n  expected\n    {want['recs']}")
        elif ev["msgs"]:
            raise Fail(f"{ev['op']} at {ev['start']} has {len(ev['msgs'])} message records, expected none")
        check_posts(ev, prior, init)
        prior.setdefault(ev["op"], set()).add(ev["start"])
    if k != len(expect):
        raise Fail(f"{len(expect) - k} calls of the program are not in the log (the first: {expect[k]['op']})")
    return nmsgs, k


def check_summary(d, rank, nranks):
    header, events, pending, status = read_dump(f"{d}/dump-{rank}.txt")
    if status != "ok":
        raise Fail(f"the reader says: {status}")
    if header is None or header[:3] != (rank, nranks, FORMAT_VERSION) or header[3] != 1:
        raise Fail(f"header {header}: expected rank {rank} of {nranks}, version {FORMAT_VERSION}, summary mode")
    n = len(pending) + sum(len(e["msgs"]) for e in events)
    if n:
        raise Fail(f"{n} message records in a log written in summary mode")


def main():
    d, nranks = sys.argv[1], int(sys.argv[2])
    summary = "--summary" in sys.argv[3:]
    failed = 0
    for rank in range(nranks):
        try:
            if summary:
                check_summary(d, rank, nranks)
                print(f"rank {rank}: no message records (summary mode)")
            else:
                nmsgs, ncalls = check_rank(d, rank, nranks)
                print(f"rank {rank}: {nmsgs} message records of {ncalls} calls, as expected")
        except (Fail, OSError, ValueError, IndexError, KeyError) as e:
            print(f"rank {rank}: {e}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
