#!/usr/bin/env bash
# The wait-state analysis in bounded memory (DESIGN section 6): merges
# under `ulimit -v` that a merge holding every wait fact in memory exceeds
# (it needed 140 MB for the long run, 190 MB for the hostile one):
#   long     4 ranks, 2 M events (its facts spill to disk)
#   hostile  a 2-rank run whose rank 0 log repeats its block of events 300
#            times (3 M events from a 12 MB log; most messages unmatched)
# Each must give the wait states and the critical path, with nothing on
# stderr. Then the MPI merge of the long run at 2 processes (when MPICH and
# mpiscope-merge-mpich are there): the same JSON, and process 0's peak RSS
# under MPI_LIMIT_KB (it was 122 MiB while a process's facts travelled as
# one packet; 66 MiB in pieces, of which 17 MiB are MPICH's own). Run by
# test/scale/run.sh.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
synth=$BUILD/test/scale/synth-logs
merge=$BUILD/bin/mpiscope-merge
out=$BUILD/test/scale/bounded
LIMIT_KB=100000
MPI_LIMIT_KB=92160
pmerge=$BUILD/bin/mpiscope-merge-mpich
MPIEXEC_MPICH=${MPIEXEC_MPICH:-mpiexec.mpich}
rm -rf "$out" && mkdir -p "$out"
fail=0

# merge NAME DIR: the JSON report of DIR under the limit; checked by python.
merge_bounded() {
    local name=$1 dir=$2
    # One malloc arena: glibc reserves 64 MiB of address space for each
    # further thread's arena, which ulimit -v counts whether used or not
    # (the second reader thread's made the limit fail now and then).
    if ! (ulimit -v $LIMIT_KB && MALLOC_ARENA_MAX=1 "$merge" -j 2 --json "$out/$name.json" "$dir" >/dev/null 2>"$out/$name.err"); then
        echo "FAIL: bounded $name: the merge failed under ulimit -v $LIMIT_KB"
        head -5 "$out/$name.err"
        fail=1
        return
    fi
    if [ -s "$out/$name.err" ]; then
        echo "FAIL: bounded $name: stderr:"
        head -5 "$out/$name.err"
        fail=1
        return
    fi
    python3 - "$out/$name.json" "$name" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
s, p = d.get("wait_summary"), d.get("critical_path")
ok = s and p and s["messages"] > 0 and s["calls"] > 0 and p["length_s"] > 0
if sys.argv[2] == "hostile":
    ok = ok and s["unmatched_sends"] > 0 and s["unmatched_collectives"] > 0
if not ok:
    print("FAIL: bounded %s: wait states %s, path %s" % (sys.argv[2], s, p and p.get("length_s")))
    sys.exit(1)
PY
}

"$synth" --ranks 4 --events 2000000 --jobs 2 "$out/long" >/dev/null || { echo "FAIL: synth-logs"; exit 1; }
merge_bounded long "$out/long"

# merge_mpi NAME DIR: DIR merged by 2 MPI processes, each under
# /usr/bin/time; the JSON equal to the serial merge's, process 0's peak RSS
# under MPI_LIMIT_KB.
merge_mpi() {
    local name=$1 dir=$2
    if [ ! -x "$pmerge" ] || ! command -v "$MPIEXEC_MPICH" >/dev/null || [ ! -x /usr/bin/time ]; then
        echo "skip: the MPI merge's memory (no $pmerge, $MPIEXEC_MPICH or /usr/bin/time)"
        return
    fi
    cat >"$out/timed.sh" <<'SH'
#!/bin/sh
exec /usr/bin/time -o "$TIMED_OUT/rss.${PMI_RANK:-0}" -f "%M" "$@"
SH
    chmod +x "$out/timed.sh"
    if ! TIMED_OUT=$out timeout -k 10 300 "$MPIEXEC_MPICH" -n 2 "$out/timed.sh" "$pmerge" -j 1 \
        --json "$out/$name.p2.json" "$dir" >/dev/null 2>"$out/$name.p2.err" || [ -s "$out/$name.p2.err" ]; then
        echo "FAIL: bounded $name: the MPI merge failed"
        head -5 "$out/$name.p2.err"
        fail=1
        return
    fi
    if ! cmp -s "$out/$name.json" "$out/$name.p2.json"; then
        echo "FAIL: bounded $name: the MPI merge's JSON differs from the serial merge's"
        fail=1
    fi
    local rss
    rss=$(cat "$out/rss.0")
    if [ "$rss" -gt "$MPI_LIMIT_KB" ]; then
        echo "FAIL: bounded $name: the MPI merge's process 0 peaked at $rss KiB, over $MPI_LIMIT_KB"
        fail=1
    fi
}
merge_mpi long "$out/long"

"$synth" --ranks 2 --events 20000 --regions 4 "$out/small" >/dev/null || { echo "FAIL: synth-logs"; exit 1; }
mkdir -p "$out/hostile" && cp "$out/small/rank-000001.zst" "$out/hostile/"
python3 - "$out/small/rank-000000.zst" "$out/hostile/rank-000000.zst" <<'PY' || fail=1
import subprocess, sys
raw = open(sys.argv[1], "rb").read()
offs = [int(x) for x in subprocess.check_output(["python3", "test/log_edit.py", "--frames", sys.argv[1]]).split()]
# Header, the events' block (the largest frame) 300 times, the end.
big = max(range(len(offs) - 1), key=lambda i: offs[i + 1] - offs[i])
open(sys.argv[2], "wb").write(raw[:offs[big]] + raw[offs[big]:offs[big + 1]] * 300 + raw[offs[big + 1]:])
PY
merge_bounded hostile "$out/hostile"

[ "$fail" -eq 0 ] && echo "ok: wait states of a long run and a hostile one under ulimit -v $LIMIT_KB; the MPI merge's process 0 under $MPI_LIMIT_KB KiB" && rm -rf "$out"
[ "$fail" -eq 0 ]
