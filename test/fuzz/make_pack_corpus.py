#!/usr/bin/env python3
"""Writes the committed seed corpus of fuzz_pack (the MPI merge's packets).

    python3 test/fuzz/make_pack_corpus.py [BUILD] [OUT]
        (BUILD: default build; OUT: default test/fuzz/corpus/pack)

Real packets: each golden log directory's per-file results packed by the
real packer ($BUILD/bench/pack_cost --out, run from the repository root so
that the paths inside are relative), a chunk followed by the pieces of the
wait-state facts, those of at most MAX_SEED bytes; and damaged copies of the
smallest: cut, a flipped byte, another wire version, a count the bytes
cannot hold, two chunks of the same files, trailing bytes, and in the
pieces: the sender's last piece missing, another version, a flipped byte.
Also the list of logs that process 0 broadcasts (wire_list.h, as
docs/MERGE_MPI.md "The list" spells it) of the newest golden directory,
read by 4 processes, and damaged copies: cut, another version, an owner
beyond the processes, a path for a name, trailing bytes. Deterministic for
one version of the packer and the golden logs.
"""
import glob
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
MAX_SEED = 96 * 1024


def wire_version():
    for line in open(os.path.join(ROOT, "analysis", "reduce", "partial_pack.h")):
        if line.startswith("#define MS_WIRE_VERSION"):
            return int(line.split()[2].rstrip("u"))
    raise SystemExit("make_pack_corpus: no MS_WIRE_VERSION in partial_pack.h")


def list_bytes(version, entries):
    out = b"MSLS" + struct.pack("<IQ", version, len(entries))
    for owner, name in entries:
        out += struct.pack("<iQ", owner, len(name)) + name
    return out


def list_seeds():
    newest = sorted(glob.glob(os.path.join(ROOT, "test", "golden", "v[0-9]*")), key=lambda d: int(os.path.basename(d)[1:].split("-")[0]))[-1]
    names = sorted(n.encode() for n in os.listdir(newest) if n.endswith(".zst"))
    entries = [(i % 4, n) for i, n in enumerate(names)]
    good = list_bytes(wire_version(), entries)
    return {
        "list": good,
        "list-cut": good[: len(good) // 2],
        "list-version": list_bytes(99, entries),
        "list-owner": list_bytes(wire_version(), [(4, n) for _, n in entries]),
        "list-path": list_bytes(wire_version(), [(0, b"../" + n) for _, n in entries]),
        "list-tail": good + b"\0",
    }


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "test", "fuzz", "corpus", "pack")
    tool = os.path.join(os.path.abspath(build), "bench", "pack_cost")
    seeds = {}
    with tempfile.TemporaryDirectory() as tmp:
        for d in sorted(glob.glob(os.path.join(ROOT, "test", "golden", "v*"))):
            name = os.path.basename(d)
            f = os.path.join(tmp, name)
            rel = os.path.relpath(d, ROOT)
            subprocess.run([tool, "--repeat", "1", "--out", f, rel], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
            data = open(f, "rb").read()
            if len(data) <= MAX_SEED:
                seeds[name] = data
    small = min(seeds.values(), key=len)
    seeds["cut-half"] = small[: len(small) // 2]
    seeds["cut-header"] = small[:27]
    flipped = bytearray(small)
    flipped[len(small) // 3] ^= 0x10
    seeds["flip"] = bytes(flipped)
    seeds["version"] = small[:4] + struct.pack("<I", 99) + small[8:]
    seeds["count"] = small[:28] + b"\xff" * 8 + small[36:]
    seeds["twice"] = small + small
    seeds["tail"] = small + b"MSPK"
    seeds["empty"] = b""
    chunk = struct.unpack_from("<Q", small, 12)[0]
    last = 4 + 4 + 4 + 8 + 8 + 8 + 1 + 3 * 8
    seeds["facts-no-last"] = small[: len(small) - last]
    seeds["facts-version"] = small[: chunk + 4] + struct.pack("<I", 99) + small[chunk + 8 :]
    flipped = bytearray(small)
    flipped[chunk + (len(small) - chunk) // 2] ^= 0x04
    seeds["facts-flip"] = bytes(flipped)
    seeds.update(list_seeds())
    os.makedirs(out, exist_ok=True)
    for name, data in sorted(seeds.items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
