#!/usr/bin/env python3
"""Rewrites a log's header block, keeping every other frame as it is.

    python3 test/log_edit.py IN OUT [--version N] [--rank N] [--size N] [--string KEY=VALUE]...
    python3 test/log_edit.py --frames IN
    python3 test/log_edit.py --flip OFFSET IN OUT
    python3 test/log_edit.py --flip-all IN OUTDIR
    python3 test/log_edit.py --garbage N OUT


--version N       set the format version in the header
--rank N          set the rank in the header
--size N          set the world size in the header
--string K=V      add a metadata string (e.g. run=0123456789abcdef)

The new header block is compressed into one checksummed frame with its
content size by the zstd command, as the writer does; the other frames are
copied byte for byte. --frames prints the byte offset at which each frame
of IN starts, one a line, then the file size. --flip copies IN with one bit
of the byte at OFFSET flipped (which bit: OFFSET mod 8); --flip-all writes
OUTDIR/<OFFSET> for every byte of IN. --garbage writes N
bytes of a fixed pseudo-random sequence. Used by test/merge_faults.sh to make logs that only a
writer could make (a newer version, a run identity) from real ones.
"""
import os
import random
import struct
import subprocess
import sys
import tempfile

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def first_frame_size(raw):
    """Compressed size of the first zstd frame (RFC 8878)."""
    assert raw[:4] == ZSTD_MAGIC, "not a zstd frame"
    fhd = raw[4]
    single = (fhd >> 5) & 1
    fcs_len = {0: single, 1: 2, 2: 4, 3: 8}[fhd >> 6]
    did_len = {0: 0, 1: 1, 2: 2, 3: 4}[fhd & 3]
    pos = 5 + (0 if single else 1) + did_len + fcs_len
    while True:
        (bh,) = struct.unpack("<I", raw[pos:pos + 3] + b"\0")
        last, btype, bsize = bh & 1, (bh >> 1) & 3, bh >> 3
        pos += 3 + (1 if btype == 1 else bsize)
        if last:
            break
    return pos + (4 if fhd & 4 else 0)


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--frames":
        raw = open(args[1], "rb").read()
        pos = 0
        while pos < len(raw):
            print(pos)
            pos += first_frame_size(raw[pos:])
        print(pos)
        return
    if len(args) == 4 and args[0] == "--flip":
        at = int(args[1])
        raw = bytearray(open(args[2], "rb").read())
        raw[at] ^= 1 << (at % 8)
        open(args[3], "wb").write(raw)
        return
    if len(args) == 3 and args[0] == "--flip-all":
        raw = open(args[1], "rb").read()
        os.makedirs(args[2], exist_ok=True)
        for at in range(len(raw)):
            out = bytearray(raw)
            out[at] ^= 1 << (at % 8)
            open(os.path.join(args[2], str(at)), "wb").write(out)
        return
    if len(args) == 3 and args[0] == "--garbage":
        rng = random.Random(8191)
        open(args[2], "wb").write(bytes(rng.randrange(256) for _ in range(int(args[1]))))
        return
    if len(args) < 2:
        sys.exit(__doc__)
    src, dst, opts = args[0], args[1], args[2:]
    raw = open(src, "rb").read()
    n = first_frame_size(raw)
    with tempfile.TemporaryDirectory() as tmp:
        head = os.path.join(tmp, "head.zst")
        with open(head, "wb") as f:
            f.write(raw[:n])
        block = bytearray(subprocess.run(["zstd", "-dcq", head], check=True, stdout=subprocess.PIPE).stdout)
        strings = []
        i = 0
        while i < len(opts):
            opt, val = opts[i], opts[i + 1]
            if opt == "--version":
                struct.pack_into("<I", block, 16 + 8, int(val))
            elif opt == "--rank":
                struct.pack_into("<i", block, 16 + 16, int(val))
            elif opt == "--size":
                struct.pack_into("<i", block, 16 + 20, int(val))
            elif opt == "--string":
                strings.append(val.encode("utf-8", "surrogateescape"))
            else:
                sys.exit("unknown option " + opt)
            i += 2
        if strings:
            (ns,) = struct.unpack_from("<I", block, 16 + 68)
            struct.pack_into("<I", block, 16 + 68, ns + len(strings))
            for s in strings:
                block += struct.pack("<I", len(s)) + s
            struct.pack_into("<I", block, 12, len(block) - 16)
        plain = os.path.join(tmp, "head")
        with open(plain, "wb") as f:
            f.write(block)
        frame = subprocess.run(["zstd", "-qc", "--check", plain], check=True, stdout=subprocess.PIPE).stdout
    with open(dst, "wb") as f:
        f.write(frame + raw[n:])


if __name__ == "__main__":
    main()
