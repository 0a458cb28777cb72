"""Crafted logs: real logs with one field changed to what a writer never
writes, each aimed at a limit the merge must keep (docs/RELIABILITY.md,
"Crafted logs" and "Outputs"). Used by make_corpus.py for the seeds of
fuzz_log and fuzz_reports.

    crafted(blocks) -> {name: whole log file bytes}

blocks: the (kind, thread, payload) blocks of a real log. The variants:

thread-*      the first data block on thread 2^16, 2^24, 2^28-1, 2^32-1
              (corrupt past 65535) and 65535 (the last valid index)
world-*       the header's world size 2^31-1 and 10^6: believed only as far
              as the logs present bear it out
escapes       run= and host= strings with terminal escapes and bytes that
              are not UTF-8 (written escaped, and replaced)

Each block is framed as the writer frames it (one zstd frame with its
content size and checksum, by the zstd command).
"""
import struct
import subprocess
import tempfile

BLOCK_MAGIC = 0x4B42534D
KIND_DATA = 2


def frame(kind, thread, payload):
    block = struct.pack("<IHHII", BLOCK_MAGIC, kind, 0, thread, len(payload)) + payload
    with tempfile.NamedTemporaryFile() as f:
        f.write(block)
        f.flush()
        return subprocess.run(["zstd", "-qc", "--check", f.name], check=True, stdout=subprocess.PIPE).stdout


def whole(blocks):
    return b"".join(frame(k, t, p) for k, t, p in blocks)


def with_strings(blocks, *strings):
    """The header block with more metadata strings (nstrings at 68)."""
    k, t, p = blocks[0]
    p = bytearray(p)
    (n,) = struct.unpack_from("<I", p, 68)
    struct.pack_into("<I", p, 68, n + len(strings))
    tail = b"".join(struct.pack("<I", len(s)) + s for s in strings)
    return [(k, t, bytes(p) + tail)] + blocks[1:]


def with_size(blocks, size):
    k, t, p = blocks[0]
    p = bytearray(p)
    struct.pack_into("<i", p, 20, size)
    return [(k, t, bytes(p))] + blocks[1:]


def crafted(blocks):
    out = {}
    data = [i for i, b in enumerate(blocks) if b[0] == KIND_DATA]
    if data:
        i = data[0]
        for name, thread in (("2p16", 1 << 16), ("2p24", 1 << 24), ("2p28", (1 << 28) - 1),
                             ("max", 0xFFFFFFFF), ("last", 0xFFFF)):
            # Every block of the first data block's thread moves with it.
            t0 = blocks[i][1]
            moved = [(k, thread if k == KIND_DATA and t == t0 else t, p) for k, t, p in blocks]
            out["thread-" + name] = whole(moved)
    out["world-2p31"] = whole(with_size(blocks, 0x7FFFFFFF))
    out["world-1e6"] = whole(with_size(blocks, 1000000))
    out["escapes"] = whole(with_strings(blocks, b"run=\x1b]0;owned\x07\x1b[2J\xff",
                                        b"host=evil\x1b[31m\xc3(\x9b"))
    return out
