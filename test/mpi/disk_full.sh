#!/usr/bin/env bash
# A full disk, space freed mid-run, a slow writer, and summary mode on a full
# disk (docs/RELIABILITY.md), under this flavour's MPI, with a real small
# tmpfs mounted by the test (as root; skipped when it cannot mount one):
#
#  1. full: the log directory on a 256 KiB tmpfs, a halo exchange of 200,000
#     steps on 2 ranks (about 2 million calls). The program's output is
#     unchanged, each rank says once that the disk is full, and the merge
#     gives every call: the same calls and bytes per region as the same run
#     on a roomy disk, with a warning that names the rank and the time from
#     which its calls are counted from its summary.
#  1b. pipelined: the same on a 256 KiB disk for a program that always has
#     a receive posted (test/mpi/faults/pipeline.c), so that the trace goes
#     on after each gap with requests created in the gap, carried over it
#     (docs/FORMAT.md): every completion named as on the roomy disk.
#  1c. the same with MPISCOPE_TEST_FOLLOW_BELOW=0: the writer follows its
#     log only from the first write that lacks room on, by reading back
#     what it wrote (preload/fallback.h); the same calls.
#  2. freed: a 4 MiB tmpfs with 256 KiB left by another file, removed once
#     a rank has said the disk is full, while the program runs: the counts are exact and the trace goes on after the
#     gap (events later than the first summarized call).
#  3. slow: the test-only slow writer (MPISCOPE_TEST_WRITER_DELAY_MS) with
#     small buffers on 1 rank: the stalls recorded (mpiscope:ring_wait)
#     beyond those of the same run with a fast writer add up to the extra run
#     time within 25 % + 50 ms, the report says so, and no call is lost.
#  4. summary: MPISCOPE_MODE=summary, the disk filled by another file while
#     the program runs: the log keeps its last complete snapshot (the merge
#     reads it, with fewer calls than the run made), and the rank says so.
#
#   disk_full.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
PYTHON=${PYTHON:-python3}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich}
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi}
fi
# launcher N NAME=VALUE...: this flavour's launch command for N ranks with
# the variables passed to every rank, in the array cmd.
launcher() {
    local n=$1 kv
    shift
    if [ "$flavour" = mpich ]; then
        cmd=("${MPIEXEC_MPICH:-mpiexec.mpich}" -n "$n")
        for kv in "$@"; do cmd+=(-genv "${kv%%=*}" "${kv#*=}"); done
    else
        cmd=("${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe -np "$n")
        for kv in "$@"; do cmd+=(-x "$kv"); done
    fi
}

fail() {
    echo "FAIL: $*"
    exit 1
}

mnt=$dir/tmpfs
mounted=""
cleanup() {
    [ -n "$mounted" ] && umount "$mnt" 2>/dev/null
    return 0
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
# tmpfs SIZE: a new empty tmpfs of SIZE at $mnt
tmpfs() {
    cleanup
    mounted=""
    mkdir -p "$mnt"
    mount -t tmpfs -o "size=$1" mpiscope-test "$mnt" 2>/dev/null || return 1
    mounted=1
}
if ! tmpfs 256k; then
    echo "cannot mount a tmpfs here (needs root): the full-disk tests need a small real file system"
    exit 77
fi

$cc -O2 "$root/examples/halo.c" -o "$dir/halo" -lm || fail "cannot build halo.c"
$cc -O2 "$root/test/mpi/faults/pipeline.c" -o "$dir/pipeline" || fail "cannot build pipeline.c"
prog=$dir/halo   # what profile runs
# calls NAME: "region calls" per region of NAME's merge (the tool's stalls left out), sorted;
# the region's name holds its bytes per call.
calls() {
    $PYTHON - "$dir/$1.regions.csv" <<'PY'
import csv, sys
for r in sorted(csv.DictReader(open(sys.argv[1])), key=lambda r: r["name"]):
    if not r["name"].startswith("mpiscope:"):
        print(r["name"].replace(" ", "_"), r["calls"])
PY
}
# profile NAME N [ENV=VALUE...] -- ARGS...: $prog under the library into $logdir
profile() {
    local name=$1 n=$2
    shift 2
    local kv=("LD_PRELOAD=$lib" "MPISCOPE_DIR=$logdir")
    while [ "$1" != -- ]; do kv+=("$1"); shift; done
    shift
    launcher "$n" "${kv[@]}"
    local t0 t1 rc
    t0=$(date +%s%N)
    timeout -k 10 "$TEST_TIMEOUT" "${cmd[@]}" "$prog" "$@" >"$dir/$name.out" 2>"$dir/$name.err"
    rc=$?
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000)) >"$dir/$name.ms"
    return $rc
}
merge() { # merge NAME LOGDIR [--trace]: its reports in $dir/NAME.* (the log directory may be full)
    local t=()
    [ "${3:-}" = --trace ] && t=(--trace "$dir/$1.trace.json")
    "$MERGE" --text "$dir/$1.txt" --csv "$dir/$1.regions.csv" --json "$dir/$1.json" "${t[@]}" "$2" \
        >/dev/null 2>"$dir/$1.merge.err" || fail "$1: the merge failed: $(tail -3 "$dir/$1.merge.err")"
}

steps=200000
# The reference: the same run on a roomy disk.
logdir=$dir/roomy
rm -rf "$logdir"
profile roomy 2 -- 100 $steps 0 || fail "the reference run failed: $(tail -3 "$dir/roomy.err")"
merge roomy "$logdir"
calls roomy >"$dir/roomy.calls"

echo "== 1. a 256 KiB disk"
logdir=$mnt/full
profile full 2 -- 100 $steps 0 || fail "the run on a full disk failed: $(tail -3 "$dir/full.err")"
cmp -s "$dir/full.out" "$dir/roomy.out" || fail "the program's output changed on a full disk"
[ "$(grep -c "has no room (No space left on device)" "$dir/full.err")" = 2 ] ||
    fail "each rank must say once that the disk is full: $(cat "$dir/full.err")"
grep -q "events from now on are lost" "$dir/full.err" && fail "the old message about lost events is still given"
merge full "$logdir"
calls full >"$dir/full.calls"
diff "$dir/roomy.calls" "$dir/full.calls" >"$dir/full.diff" || fail "calls differ from the roomy run: $(head -5 "$dir/full.diff")"
for r in 0 1; do
    grep -q "rank $r's log ran out of room .* calls that did not fit, the first [0-9.]* s after MPI_Init" "$dir/full.merge.err" ||
        fail "no warning naming rank $r and its time: $(cat "$dir/full.merge.err")"
done
echo "ok: $(wc -l <"$dir/full.calls") regions with every call and byte on a 256 KiB disk ($(du -k "$logdir" | cut -f1) KiB of logs)"

echo "== 1b. a receive always posted, on a 256 KiB disk"
prog=$dir/pipeline
logdir=$dir/pipe-roomy
rm -rf "$logdir"
profile pipe-roomy 2 -- $steps || fail "the pipelined reference run failed: $(tail -3 "$dir/pipe-roomy.err")"
merge pipe-roomy "$logdir"
calls pipe-roomy >"$dir/pipe-roomy.calls"
# pipe_full NAME WHAT [ENV=VALUE...]: the pipelined run on a fresh 256 KiB
# disk gives the calls of the roomy run.
pipe_full() {
    local name=$1 what=$2
    shift 2
    tmpfs 256k || fail "cannot mount the tmpfs"
    logdir=$mnt/$name
    profile "$name" 2 "$@" -- $steps || fail "$what: the run failed: $(tail -3 "$dir/$name.err")"
    cmp -s "$dir/$name.out" "$dir/pipe-roomy.out" || fail "$what: the program's output changed"
    grep -q "has no room" "$dir/$name.err" || fail "$what: the run did not fill the disk"
    merge "$name" "$logdir"
    calls "$name" >"$dir/$name.calls"
    diff "$dir/pipe-roomy.calls" "$dir/$name.calls" >"$dir/$name.diff" ||
        fail "$what: calls differ from the roomy run: $(head -5 "$dir/$name.diff")"
}
pipe_full pipe-full "a receive always posted"
echo "ok: a receive always posted: $(wc -l <"$dir/pipe-full.calls") regions, every completion named as on a roomy disk"

echo "== 1c. the same, the writer following its log only once a write lacks room"
pipe_full pipe-lazy "a follow from the first lack of room" MPISCOPE_TEST_FOLLOW_BELOW=0
echo "ok: the log read back at the first lack of room, every completion named as on a roomy disk"
prog=$dir/halo

echo "== 2. room freed mid-run"
tmpfs 4m || fail "cannot mount the second tmpfs"
logdir=$mnt/freed
mkdir -p "$logdir"
# 256 KiB left: each rank keeps its reserve (fallback.h) before the disk fills.
# The room freed holds well over 0.2 s of the trace, message records and all.
dd if=/dev/zero of="$mnt/filler" bs=1k count=$((4096 - 256)) 2>/dev/null
# The filler goes once a rank has said the disk is full (not after a fixed
# time: the launcher's start-up may take longer than that), and a little later.
rm -f "$dir/freed.err"
(for _ in $(seq 1500); do
     grep -qs "has no room" "$dir/freed.err" && break
     sleep 0.02
 done
 sleep 0.1
 rm -f "$mnt/filler") &
filler=$!
profile freed 2 -- 100 $((steps * 5)) 0 || fail "the run failed: $(tail -3 "$dir/freed.err")"
wait $filler
merge freed "$logdir" --trace
$PYTHON - "$dir/freed.json" "$dir/freed.trace.json" "$dir/freed.merge.err" <<'PY' || fail "the trace does not go on after the gap"
import json, re, sys
warn = open(sys.argv[3]).read()
m = re.findall(r"the first ([0-9.]+) s after MPI_Init", warn)
assert m, "no fall-back warning: " + warn
first = min(float(x) for x in m)
run = json.load(open(sys.argv[1]))
tr = json.load(open(sys.argv[2]))
ev = tr["traceEvents"] if isinstance(tr, dict) else tr
ts = [e["ts"] for e in ev if e.get("ph") == "X" and str(e.get("name", "")).startswith("mpi:waitall")]
span = (max(ts) - min(ts)) / 1e6
assert span > first + 0.2, "trace span %.3f s, summary from %.3f s: no events after the gap" % (span, first)
print("trace resumed: events span %.3f s, the gap starts at %.3f s" % (span, first))
PY
grep -c "has no room" "$dir/freed.err" >/dev/null || fail "no full-disk message in the freed run"
logdir_calls=$(calls freed | awk '$1 ~ /^mpi:waitall/ {s += $2} END {print s}')
[ "$logdir_calls" = $((2 * 5 * steps)) ] || fail "waitall calls $logdir_calls, not $((2 * 5 * steps))"
echo "ok: room freed mid-run: $logdir_calls waitall calls, the trace goes on after the gap"

echo "== 3. a slow writer"
umount "$mnt"; mounted=""
# The run with a fast writer goes before and after the slow one: the
# machine's noise only adds time, so the faster of the two is the reference.
for name in slow0 slow30 slow0b; do
    d=${name#slow}; d=${d%b}
    logdir=$dir/$name
    rm -rf "$logdir"
    profile $name 1 MPISCOPE_BUFFER_KB=64 MPISCOPE_TEST_WRITER_DELAY_MS=$d -- 100 100000 0 ||
        fail "slow writer run ($d ms) failed: $(tail -3 "$dir/$name.err")"
    merge $name "$logdir" --trace
done
$PYTHON - "$dir/slow0.ms" "$dir/slow30.ms" "$dir/slow0.json" "$dir/slow30.json" "$dir/slow0b.ms" "$dir/slow0b.json" <<'PY' ||
import json, sys
ms = lambda f: int(open(f).read())
stall = lambda f: json.load(open(f))["run"]["tool_stall_s"]
fast = min((ms(sys.argv[1]), sys.argv[3]), (ms(sys.argv[5]), sys.argv[6]))
extra = (ms(sys.argv[2]) - fast[0]) / 1e3
# Small buffers stall a little even with a fast writer: the difference counts.
s0, s30 = stall(fast[1]), stall(sys.argv[4])
print("extra run time %.3f s, recorded stalls %.3f s more (%.3f s and %.3f s)" % (extra, s30 - s0, s30, s0))
assert extra > 0.2, "the slow writer did not slow the run"
assert abs((s30 - s0) - extra) <= 0.25 * extra + 0.05, "stalls %.3f s against %.3f s extra" % (s30 - s0, extra)
PY
    fail "the stalls do not account for the extra time"
grep -q "^  tool stalls  " "$dir/slow30.txt" || fail "the text report gives no tool stalls"
grep -q "^  warning      the tool's writer could not keep up" "$dir/slow30.txt" || fail "no warning above 1 % stalls"
grep -q "^The tool: stalls per rank" "$dir/slow30.txt" || fail "no stalls per rank"
grep -q '"tool stalls (thread 0)"' "$dir/slow30.trace.json" || fail "the trace has no track of tool stalls"
diff <(calls slow0) <(calls slow30) >/dev/null || fail "the slow writer lost calls"
echo "ok: a slow writer: the stalls account for the extra time, no call lost"

echo "== 4. summary mode on a full disk"
tmpfs 256k || fail "cannot mount the tmpfs"
logdir=$mnt/summary
mkdir -p "$logdir"
# The filler comes once both ranks have their logs (a slow start must not
# find the disk full before the logs exist), and a snapshot later.
(for _ in $(seq 300); do
     [ -e "$logdir/rank-000000.zst" ] && [ -e "$logdir/rank-000001.zst" ] && break
     sleep 0.1
 done
 sleep 0.3
 dd if=/dev/zero of="$mnt/filler" bs=1k count=1024 2>/dev/null) &
filler=$!
profile summary 2 MPISCOPE_MODE=summary MPISCOPE_FLUSH_MS=50 -- 100 $((steps * 5)) 0 ||
    fail "the summary run failed: $(tail -3 "$dir/summary.err")"
wait $filler
grep -q "keeps its previous snapshot" "$dir/summary.err" || fail "summary mode does not say it kept its last snapshot: $(cat "$dir/summary.err")"
merge summary "$logdir"
got=$(calls summary | awk '$1 ~ /^mpi:waitall/ {s += $2} END {print s + 0}')
[ "$got" -gt 0 ] && [ "$got" -lt $((2 * 5 * steps)) ] || fail "summary on a full disk: $got waitall calls"
echo "ok: summary mode on a full disk keeps its last snapshot ($got of $((2 * 5 * steps)) waitall calls)"
exit 0
