#!/usr/bin/env python3
"""Writes the committed seed corpus of the fuzz targets from the golden logs.

    python3 test/fuzz/make_corpus.py [OUT]      (OUT: default test/fuzz/corpus)

log/     whole files (fuzz_log): every golden log, and damaged copies of them:
         cut at several places, a flipped bit, trailing bytes, an empty file,
         random bytes.
reports/ whole files (fuzz_reports, replayed in make check: a few seconds):
         the golden logs of versions 5 to 8, and the crafted logs of
         crafted_logs.py made from them.
blocks/  block sequences (fuzz_blocks: [kind u8][thread u8][len u32][bytes]):
         every golden log's blocks, and variants of their header blocks (a
         newer version, the other byte order, a run identity, rank out of
         range), of their order (no end block, two headers), and with a
         data block of every record type (call sites and objects too, a
         summary-mode aggregate, message records: valid in a version 5
         log, corrupt in older ones; request records: valid in a version 6
         log, corrupt in older ones, and with fields out of range; carried
         requests, in a version 7 log).

Deterministic: the same golden logs give the same corpus. Needs the zstd
command to decompress the golden logs.
"""
import glob
import os
import random
import struct
import subprocess
import sys

from crafted_logs import crafted

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GOLDEN = sorted(glob.glob(os.path.join(ROOT, "test", "golden", "v*", "rank-*.zst")))
BLOCK_MAGIC = 0x4B42534D
# Golden logs larger than this decompressed (v7's full-disk run) are left
# out: each would add megabytes of variants, and slow every fuzzing run.
MAX_SEED = 64 * 1024


def blocks_of(data):
    """The (kind, thread, payload) blocks of a decompressed log."""
    out, pos = [], 0
    while pos + 16 <= len(data):
        magic, kind, flags, thread, length = struct.unpack_from("<IHHII", data, pos)
        assert magic == BLOCK_MAGIC and flags == 0, "not a block at %d" % pos
        out.append((kind, thread, data[pos + 16:pos + 16 + length]))
        pos += 16 + length
    assert pos == len(data)
    return out


def encode(blocks, tail=b""):
    return b"".join(struct.pack("<BBI", k, t & 0xFF, len(p)) + p for k, t, p in blocks) + tail


def header_variant(blocks, offset, fmt, value):
    k, t, p = blocks[0]
    p = bytearray(p)
    struct.pack_into(fmt, p, offset, value)
    return [(k, t, bytes(p))] + blocks[1:]


def with_string(blocks, text):
    """The header block with one more metadata string (nstrings at 68)."""
    k, t, p = blocks[0]
    p = bytearray(p)
    (n,) = struct.unpack_from("<I", p, 68)
    struct.pack_into("<I", p, 68, n + 1)
    s = text.encode()
    return [(k, t, bytes(p) + struct.pack("<I", len(s)) + s)] + blocks[1:]


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def site_block():
    """A data block (thread 1) with every record type: region, time, call
    site, object, communicator and events (docs/FORMAT.md, records)."""
    name = b"mpi:barrier kind=collective bytes=-1 peer=-1 root=-1 tag=-1 comm=0"
    path = b"/usr/lib/libexample.so"
    rec = varint(1) + varint(7) + varint(len(name)) + name          # region 7
    rec += varint(5) + varint(5000000)                               # time
    rec += varint(13) + varint(7) + varint(2) + varint(0x401000) + varint(0x7F0000001234)  # site
    rec += varint(17) + varint(0x7F0000000000) + varint(0x1000) + varint(0x9000)
    rec += varint(len(path)) + path + varint(4) + b"\x01\x02\x03\x04"  # object
    rec += varint(9) + varint(5) + varint(2) + varint(0) + varint(1)  # comm 5 of ranks 0, 1
    rec += varint(7 << 2) + varint(100) + varint(250)                # two events
    rec += varint(7 << 2) + varint(10) + varint(20)
    return (2, 1, rec)


def summary_block():
    """A data block (thread 2) of a summary-mode log: a region and its
    aggregate (control record 7: two calls of 100 and 300 ns)."""
    import math
    name = b"mpi:allreduce kind=collective bytes=8 peer=-1 root=-1 tag=-1 comm=0"
    inv = 1.0 / math.log(1.01 / 0.99)
    lo, hi = (math.ceil(math.log(v) * inv) for v in (100, 300))
    counts = [1] + [0] * (hi - lo - 1) + [1]
    rec = varint(1) + varint(8) + varint(len(name)) + name           # region 8
    rec += varint((7 << 2) | 1) + varint(8) + varint(2) + varint(400) + varint(100) + varint(300)
    rec += struct.pack("<dd", 200.0, 20000.0)                         # mean, m2
    rec += varint(1000) + varint(100) + varint(2000) + varint(300)    # first, last
    rec += varint(400) + varint(400) + varint(0)                      # window, exclusive, zero
    rec += varint(lo) + varint(len(counts)) + b"".join(varint(c) for c in counts)
    return (2, 2, rec)


def zigzag(v):
    """A signed value as the varint's unsigned value: 0, -1, 1, -2 ... 0, 1, 2, 3 ..."""
    return v << 1 if v >= 0 else ((-v) << 1) - 1


def message(op, flags, comm, peer, tag, nbytes, post):
    """A message record (control record 13, version 5)."""
    return varint((13 << 2) | 1) + varint(op) + varint(flags) + varint(comm + 1) + b"".join(
        varint(zigzag(v)) for v in (peer, tag, nbytes, post))


def message_block():
    """A data block (thread 3) with message records (docs/FORMAT.md,
    "Messages"): a waitall's receive, send and unknown request, then its
    event; a startall's two started requests, the second's post time after
    the cursor, then its event; a cancelled receive and a sendrecv's
    received half before the last event."""
    name = b"mpi:waitall kind=wait bytes=72 peer=-1 root=-1 tag=-1 comm=0 request=mixed"
    rec = varint(1) + varint(3) + varint(len(name)) + name            # region 3
    rec += varint(5) + varint(7000000)                                # time
    rec += message(7, 9, 0, 1, 17, 64, 2500)                          # irecv: RECV, POSTED
    rec += message(6, 8, 0, 1, 17, 8, 1200)                           # isend: POSTED
    rec += message(0, 0, -1, -1, -1, -1, 0)                           # unknown creator
    rec += varint(3 << 2) + varint(100) + varint(50)
    rec += message(34, 13, 0, 1, 8, -1, -30)                          # recv_init: RECV, STARTED, POSTED
    rec += message(30, 12, 0, 1, 8, 16, -30)                          # send_init: STARTED, POSTED
    rec += varint(3 << 2) + varint(30) + varint(20)
    rec += message(7, 11, 0, 1, 11, 0, 400)                           # irecv: RECV, CANCELLED, POSTED
    rec += message(20, 9, 5, 0, 9, 32, -10)                           # sendrecv's received half
    rec += varint(3 << 2) + varint(10) + varint(20)
    return (2, 3, rec)


def request(what, handle, where, status=None):
    """A request record (control record 15, version 6)."""
    rec = varint((15 << 2) | 1) + varint(what) + varint(handle) + varint(zigzag(where))
    if status is not None:
        rec += b"".join(varint(zigzag(v)) for v in status)
    return rec


def request_block(bad=False):
    """A data block (thread 5) with request records (docs/FORMAT.md,
    "Requests"): an irecv and an isend created, a tool stall, a waitall
    completing both (the receive with its status) and one never created;
    a persistent receive created, started, completed, cancelled and freed;
    a pready naming it. `bad`: the isend's name has fields no message can
    say (bytes -2, peer -5, tag -7, comm -3), and a last completion has a
    status field out of range."""
    isend = b"bytes=-2 peer=-5 root=-1 tag=-7 comm=-3" if bad else b"bytes=8 peer=1 root=-1 tag=1 comm=0"
    names = [b"mpi:irecv kind=point-to-point bytes=-1 peer=1 root=-1 tag=2 comm=0",
             b"mpi:isend kind=point-to-point " + isend,
             b"mpi:waitall kind=wait bytes=-1 peer=-1 root=-1 tag=-1 comm=-1",
             b"mpiscope:ring_wait",
             b"mpi:recv_init kind=point-to-point bytes=16 peer=0 root=-1 tag=3 comm=0"]
    rec = b"".join(varint(1) + varint(i) + varint(len(n)) + n for i, n in enumerate(names))
    rec += varint(5) + varint(9000000)                                # time
    rec += request(0 | 1 << 3, 0xAC000001, 0x7FFC0000) + varint(0 << 2) + varint(10) + varint(5)
    rec += request(0, 0x6C000001, 8) + varint(1 << 2) + varint(10) + varint(5)
    rec += request(1 | 8, 0xAC000001, -8, (1, 2, 8))                  # DONE with a status
    rec += request(1 | 8 | 16, 0x6C000001, 8, (5, 6, 1 << 40))        # a send's status, cancelled bit
    rec += request(1, 0x1234, 16)                                     # never created
    rec += varint(3 << 2) + varint(1) + varint(1)                     # tool stall
    rec += varint(2 << 2) + varint(10) + varint(50)
    rec += request(0 | 1 << 3 | 32, 0x55, 64) + varint(4 << 2) + varint(10) + varint(5)
    for what in (2, 1 | 8, 3, 5, 4):                                 # start, done, cancel, ref, free
        st = (0, 3, 16) if what == 9 else None
        rec += request(what, 0x55, 0, st) + varint(2 << 2) + varint(10) + varint(5)
    if bad:
        rec += request(1 | 8, 0x56, 0, (-2, 3, 8)) + varint(2 << 2) + varint(10) + varint(5)
    return (2, 5, rec)


def carried_block(bad=False):
    """A data block (thread 6) of a version-7 trace going on after a gap
    (docs/FORMAT.md, "Requests carried over a gap"): an irecv and a
    persistent send carried, a base record, a waitall completing the
    irecv, a start and a wait of the send. `bad`: a carried request with a
    peer out of range."""
    names = [b"mpi:waitall kind=wait bytes=-1 peer=-1 root=-1 tag=-1 comm=-1",
             b"mpi:start kind=other bytes=-1 peer=-1 root=-1 tag=-1 comm=-1"]
    rec = b"".join(varint(1) + varint(i) + varint(len(n)) + n for i, n in enumerate(names))
    peer = 1 << 40 if bad else 1
    for what, handle, where, op, comm_peer_tag_bytes, posted in (
            (6 | 1 << 3, 0xAC000001, 0x7FFC0000, 7, (0, peer, 2, -1), 9000001),
            (6 | 32, 0xAC000002, 0x7FFC0008, 10, (0, 1, 3, 4), 0)):
        rec += varint((15 << 2) | 1) + varint(what) + varint(handle) + varint(where) + varint(op) + varint(0)
        rec += b"".join(varint(zigzag(v)) for v in comm_peer_tag_bytes) + varint(posted)
    rec += varint((15 << 2) | 1) + varint(7) + varint(0) + varint(0x7FFC0000)   # base
    rec += varint(5) + varint(9000000)                                         # time
    rec += request(1 | 8, 0xAC000001, 0, (1, 2, 8)) + varint(0 << 2) + varint(10) + varint(5)
    rec += request(2, 0xAC000002, 8) + varint(1 << 2) + varint(10) + varint(5)
    rec += request(1, 0xAC000002, 0) + varint(0 << 2) + varint(10) + varint(5)
    return (2, 6, rec)


def file_record(fid, comm, path):
    """A file record (control record 14, version 5)."""
    return varint((14 << 2) | 1) + varint(fid) + varint(comm + 1) + varint(len(path)) + path


def file_block(bad=False):
    """A data block (thread 4) with file records (docs/FORMAT.md, "Files"):
    a file opened on MPI_COMM_WORLD, one named without a communicator, a
    call on the first; `bad` adds a path with a NUL byte."""
    name = b"mpi:file_write_at kind=io bytes=64 peer=-1 root=-1 tag=-1 comm=0 file=0"
    rec = file_record(0, 0, b"/tmp/out.dat") + file_record(1, -1, b"old,\"name\".dat")
    rec += varint(1) + varint(2) + varint(len(name)) + name            # region 2
    rec += varint(5) + varint(8000000)                                # time
    rec += varint(2 << 2) + varint(100) + varint(50)
    if bad:
        rec += file_record(2, 0, b"a\0b")
    return (2, 4, rec)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "test", "fuzz", "corpus")
    rng = random.Random(20261129)
    logs, blks, reports = {}, {}, {}
    for path in GOLDEN:
        name = path.split(os.sep)[-2] + "-" + os.path.basename(path)[:-4]
        raw = open(path, "rb").read()
        dec = subprocess.run(["zstd", "-dcq", path], check=True, stdout=subprocess.PIPE).stdout
        if len(dec) > MAX_SEED:
            continue
        logs[name] = raw
        logs[name + "-cut-half"] = raw[: len(raw) // 2]
        logs[name + "-cut-17"] = raw[:17]
        logs[name + "-cut-last"] = raw[:-1]
        flipped = bytearray(raw)
        flipped[len(raw) // 3] ^= 0x10
        logs[name + "-flip"] = bytes(flipped)
        logs[name + "-junk"] = raw + b"junk"
        b = blocks_of(dec)
        for cname, cdata in crafted(b).items():
            logs[name + "-crafted-" + cname] = cdata
            if path.split(os.sep)[-2] in ("v5", "v6", "v7", "v8") and name.endswith("000000"):
                reports[name + "-crafted-" + cname] = cdata
        if path.split(os.sep)[-2] in ("v5", "v6", "v7", "v8"):
            reports[name] = raw
        blks[name] = encode(b)
        blks[name + "-no-end"] = encode(b[:-1])
        blks[name + "-two-headers"] = encode(b[:1] + b)
        blks[name + "-newer"] = encode(header_variant(b, 8, "<I", 99))
        blks[name + "-swapped"] = encode(header_variant(b, 12, "<I", 0x04030201))
        blks[name + "-rank-out"] = encode(header_variant(b, 16, "<i", 7))
        blks[name + "-run-id"] = encode(with_string(b, "run=0123456789abcdef"))
        blks[name + "-tail"] = encode(b, b"\x28\xb5\x2f")
        blks[name + "-sites"] = encode(b[:-1] + [site_block()] + b[-1:])
        blks[name + "-summary"] = encode(b[:-1] + [summary_block()] + b[-1:])
        blks[name + "-messages"] = encode(b[:-1] + [message_block()] + b[-1:])
        blks[name + "-files"] = encode(b[:-1] + [file_block()] + b[-1:])
        blks[name + "-requests"] = encode(b[:-1] + [request_block()] + b[-1:])
        blks[name + "-requests-bad"] = encode(b[:-1] + [request_block(bad=True)] + b[-1:])
        blks[name + "-files-bad"] = encode(b[:-1] + [file_block(bad=True)] + b[-1:])
        v7 = header_variant(b, 8, "<I", 7)
        blks[name + "-carried"] = encode(v7[:-1] + [carried_block()] + v7[-1:])
        blks[name + "-carried-bad"] = encode(v7[:-1] + [carried_block(bad=True)] + v7[-1:])
    logs["empty"] = b""
    logs["random"] = bytes(rng.randrange(256) for _ in range(512))
    logs["zstd-magic-only"] = b"\x28\xb5\x2f\xfd"
    for sub, items in (("log", logs), ("blocks", blks), ("reports", reports)):
        d = os.path.join(out, sub)
        os.makedirs(d, exist_ok=True)
        for name, data in sorted(items.items()):
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
