#!/usr/bin/env python3
"""The instructions one object spent in one callgrind profile (one thread).

    scripts/callgrind_cost.py PROFILE OBJECT

Prints the self cost of every function of OBJECT (the shared library's
path as the profile names it), the lines inlined into them from headers
included, plus the inclusive cost of the calls they make into the C library
and the dynamic loader (memcpy, memset, ...): what the object adds to the
thread, other than the MPI calls it forwards. Reads the profile format
directly (callgrind_annotate lists inlined lines apart, without their
object). Used by scripts/callgrind_own.sh.
"""
import sys

# Calls from the object into these count as its own cost.
HELPERS = ("libc.so", "ld-linux")


def cost(path, obj):
    names = {}      # object "(id)" -> its path (ob= and cob= share the ids)
    total = 0
    cur_ob = None   # the object of the current function
    call_ob = None  # the object of the pending call's target
    in_call = False  # the next cost line is a call's inclusive cost
    with open(path, errors="replace") as f:
        for line in f:
            if not line or line[0] == "\n":
                continue
            c = line[0]
            if c.isdigit() or c in "+-*":
                if in_call:
                    in_call = False
                    if cur_ob == obj and call_ob != obj and any(h in call_ob for h in HELPERS):
                        total += int(line.split()[1])
                    call_ob = None
                    continue
                if cur_ob == obj:
                    parts = line.split()
                    if len(parts) > 1:
                        total += int(parts[1])
                continue
            key, _, rest = line.rstrip("\n").partition("=")
            if key in ("ob", "cob"):
                rest = rest.strip()
                if rest.startswith("("):
                    ident, _, name = rest.partition(")")
                    ident += ")"
                    if name.strip():
                        names[ident] = name.strip()
                    rest = names.get(ident, "")
                if key == "ob":
                    cur_ob = rest
                    call_ob = None
                else:
                    call_ob = rest
            elif key == "fn":
                call_ob = None
            elif key == "calls":
                in_call = True
                if call_ob is None:
                    call_ob = cur_ob
    return total


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    print(cost(sys.argv[1], sys.argv[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
