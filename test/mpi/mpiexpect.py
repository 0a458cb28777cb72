"""Region names of MPI calls, for the expectation scripts of test/mpi/.

Each test program <name>.c has a <name>.expect.py that defines

    def expect(rank, size): -> list of region names, one entry per call

(MPI_Init and MPI_Finalize left out), and ends with

    if __name__ == "__main__":
        mpiexpect.main(expect)

so that `python3 <name>.expect.py N` prints the expected region table
`name,ranks,calls` for N ranks. check.py compares the same expectation with
the merged profile.

Communicators other than MPI_COMM_WORLD (0) and MPI_COMM_SELF (1) have ids
that the tool derives (DESIGN section 4), so an expectation names them with
a symbol instead: any `comm` that is not an integer, e.g. "split:0" or
"cart". check.py then looks for one bijection between the symbols and the
ids of the merged profile: a symbol stands for the same id on every rank and
in every region, and different symbols for different ids (none of them 0, 1
or -1). A symbol is just a string; `sym(kind, *parts)` builds one.

An expectation module may also set
    FLAVOURS = ("mpich",)      the MPI flavours it runs under (default: all)
    RANKS = (2, 4, 8)          the rank counts it runs at (default: the
                               runner's TEST_RANKS, "1 2 4"), or a dict
                               {flavour: rank counts} (a flavour left out
                               runs at the default)
    MATRIX = f(size)           the run's traffic matrix, {(src, dst):
                               (messages, bytes)} by world rank, that the
                               --json "matrix" must equal
"""

import collections
import csv
import sys

# Element sizes of the predefined datatypes the tests use.
CHAR, SHORT, INT, DOUBLE = 1, 2, 4, 8

WORLD, SELF = 0, 1

P2P = "point-to-point"
COLL = "collective"
WAIT = "wait"
RMA = "rma"
IO = "io"
OTHER = "other"

# MPI_PROC_NULL, MPI_ANY_SOURCE and MPI_ANY_TAG as region fields.
NONE = -1


def sym(kind, *parts):
    """A symbolic communicator name: sym("split", 0) is "split:0"."""
    return ":".join([str(kind)] + [str(p) for p in parts])


def region(op, kind, bytes=-1, peer=-1, root=-1, tag=-1, comm=-1, request=None, file=None):
    """The region name of DESIGN.md section 4."""
    name = f"mpi:{op} kind={kind} bytes={bytes} peer={peer} root={root} tag={tag} comm={comm}"
    if request is not None:
        name += f" request={request}"
    if file is not None:
        name += f" file={file}"
    return name


def io(op, file, nbytes=-1, comm=WORLD):
    """An MPI-IO call on file id `file` (the rank's file ids count from 0 in
    the order it opened files, or named them to MPI_File_delete)."""
    return region(op, IO, nbytes, comm=comm, file=file)


def send(nbytes, peer, tag, comm=WORLD):
    return region("send", P2P, nbytes, peer, -1, tag, comm)


def recv(nbytes, peer, tag, comm=WORLD):
    """A blocking receive: the bytes, source and tag actually received."""
    return region("recv", P2P, nbytes, peer, -1, tag, comm)


def isend(nbytes, peer, tag, comm=WORLD):
    return region("isend", P2P, nbytes, peer, -1, tag, comm)


def irecv(peer, tag, comm=WORLD):
    """A nonblocking receive: bytes unknown when posted (-1); the posted
    source and tag (-1 for wildcards). Its completion reports what arrived."""
    return region("irecv", P2P, -1, peer, -1, tag, comm)


class Req:
    """A request as its completion reports it: the creating op, the bytes
    sent (sends) or actually received (receives), the peer, tag and comm."""

    def __init__(self, op, nbytes, peer, tag, comm=WORLD):
        self.op, self.nbytes, self.peer, self.tag, self.comm = op, nbytes, peer, tag, comm


def sreq(nbytes, peer, tag, comm=WORLD, op="isend"):
    return Req(op, nbytes, peer, tag, comm)


def rreq(nbytes, peer, tag, comm=WORLD, op="irecv"):
    """A receive request: nbytes, peer and tag as actually received."""
    return Req(op, nbytes, peer, tag, comm)


def completion(op, reqs, kind=WAIT):
    """A completion call (DESIGN section 4): request=<op> of the completed
    requests (or mixed), bytes summed, peer/tag/comm when all share them.
    MPI_Start(all) and MPI_Request_free report their requests the same way,
    with kind other."""
    if not reqs:
        return region(op, kind)

    def common(values):
        values = set(values)
        return values.pop() if len(values) == 1 else -1

    ops = {r.op for r in reqs}
    known = [r.nbytes for r in reqs if r.nbytes >= 0]
    return region(op, kind, sum(known) if known else -1, common(r.peer for r in reqs), -1,
                  common(r.tag for r in reqs), common(r.comm for r in reqs),
                  request=ops.pop() if len(ops) == 1 else "mixed")


def wait(req=None):
    """MPI_Wait: None when it completed nothing (MPI_REQUEST_NULL)."""
    return completion("wait", [req] if req else [])


def waitall(*reqs):
    return completion("waitall", list(reqs))


def p2p(op, nbytes=-1, peer=-1, tag=-1, comm=WORLD):
    """Any point-to-point region: sends (bytes sent, dest, tag), receives
    and probes (what arrived), sendrecv (the send side)."""
    return region(op, P2P, nbytes, peer, -1, tag, comm)


def coll(op, nbytes=-1, root=-1, comm=WORLD, tag=-1):
    """Any collective region, communicator creation included."""
    return region(op, COLL, nbytes, -1, root, tag, comm)


def rma(op, nbytes=-1, peer=-1, comm=WORLD):
    """A one-sided region: comm is the window's communicator."""
    return region(op, RMA, nbytes, peer, -1, -1, comm)


def creq(op, nbytes, comm=WORLD):
    """A request of a nonblocking or persistent collective (no peer, tag)."""
    return Req(op, nbytes, -1, -1, comm)


def waitany(req=None):
    """MPI_Waitany: the one request it completed (None: all were null)."""
    return completion("waitany", [req] if req else [])


def waitsome(*reqs):
    return completion("waitsome", list(reqs))


def test(req=None):
    """MPI_Test: None when it completed nothing."""
    return completion("test", [req] if req else [])


def testany(req=None):
    return completion("testany", [req] if req else [])


def testall(*reqs):
    """MPI_Testall: no arguments when it returned false."""
    return completion("testall", list(reqs))


def testsome(*reqs):
    return completion("testsome", list(reqs))


def start(req):
    """MPI_Start reports the request it starts (a receive: bytes -1)."""
    return completion("start", [req], OTHER)


def startall(*reqs):
    return completion("startall", list(reqs), OTHER)


def request_free(req):
    return completion("request_free", [req], OTHER)


def barrier(comm=WORLD):
    return region("barrier", COLL, comm=comm)


def bcast(nbytes, root, comm=WORLD):
    return region("bcast", COLL, nbytes, root=root, comm=comm)


def reduce(nbytes, root, comm=WORLD):
    return region("reduce", COLL, nbytes, root=root, comm=comm)


def allreduce(nbytes, comm=WORLD):
    return region("allreduce", COLL, nbytes, comm=comm)


def per_rank(expect, size):
    """{rank: Counter(name -> calls)} for every rank of a run of `size`."""
    return {r: collections.Counter(expect(r, size)) for r in range(size)}


def region_table(expect, size):
    """{name: (ranks, calls)}: the region table the merge should produce."""
    table = {}
    for counts in per_rank(expect, size).values():
        for name, calls in counts.items():
            ranks, total = table.get(name, (0, 0))
            table[name] = (ranks + 1, total + calls)
    return table


def main(expect):
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit(f"usage: {sys.argv[0]} RANKS")
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["name", "ranks", "calls"])
    for name, (ranks, calls) in sorted(region_table(expect, int(sys.argv[1])).items()):
        out.writerow([name, ranks, calls])
