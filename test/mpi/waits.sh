#!/usr/bin/env bash
# The wait-state analysis on programs with planted delays (waits/waits.c,
# waits/waits_f.f90; expectations in waits/check.py): every case alone at
# 2, 4 and 8 ranks, the Fortran program at the same counts, two cases
# with the test-only clock skew (the analysis runs on aligned clocks), and
# a delay planted on a second thread (waits/threads.c, 2 ranks,
# MPI_THREAD_MULTIPLE): the critical path must run through that thread
# (waits/threads_check.py). The
# program's output must not change under the library, and the serial merge
# must equal the MPI-parallel one (MPICH, where mpiscope-merge-mpich is
# built) on the --waits-csv and --json. Without the skew (one host: one
# time base) no case may report a clock-condition violation. A run in
# summary mode refuses --waits-csv.
#
#   waits.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
PYTHON=${PYTHON:-python3}
RANKS=${WAITS_RANKS:-2 4 8}
D=80      # ms of each planted delay (well above the scheduling delays of ranks sharing cores)
ITER=3
if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich}
    fc=${MPIF90_MPICH:-mpif90.mpich}
    run_n() { local n=$1; shift; timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n "$n" "$@"; }
    env_of() { local kv; for kv in "$@"; do printf '%s\n' -genv "${kv%%=*}" "${kv#*=}"; done; }
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi}
    fc=${MPIF90_OPENMPI:-mpif90.openmpi}
    run_n() {
        local n=$1
        shift
        timeout -k 10 "$TEST_TIMEOUT" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe -np "$n" "$@"
    }
    env_of() { local kv; for kv in "$@"; do printf '%s\n' -x "$kv"; done; }
fi
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

$cc -std=c11 -O2 -g -Wall -Wextra -Werror -Wno-stringop-overflow -o "$dir/waits" "$here/waits/waits.c" ||
    { echo "FAIL: cannot build waits.c"; exit 1; }
progs=(waits)
if command -v "$fc" >/dev/null 2>&1 && $fc -O2 -g -Wall -Werror -o "$dir/waits_f" "$here/waits/waits_f.f90"; then
    progs+=(waits_f)
fi

# case PROG CASE N [ENV=VALUE...]: one profiled run, its merge and the check.
case_run() {
    local prog=$1 what=$2 n=$3 name=$1-$2-$3 envs
    shift 3
    [ $# -gt 0 ] && name=$name-skew
    local logs=$dir/$name
    rm -rf "$logs"
    mapfile -t envs < <(env_of "LD_PRELOAD=$lib" "MPISCOPE_DIR=$logs" "$@")
    if ! run_n "$n" "${envs[@]}" "$dir/$prog" "$what" $D $ITER \
        >"$dir/$name.out" 2>"$dir/$name.err"; then
        fail "$name: the profiled run failed: $(tail -3 "$dir/$name.err")"
        return
    fi
    if grep -q "mpiscope:" "$dir/$name.err"; then
        fail "$name: the library spoke: $(grep mpiscope: "$dir/$name.err" | head -3)"
    fi
    if ! "$MERGE" --waits-csv "$dir/$name.waits.csv" --json "$dir/$name.json" --text "$dir/$name.txt" "$logs" \
        2>"$dir/$name.merge.err"; then
        fail "$name: the merge failed: $(tail -3 "$dir/$name.merge.err")"
        return
    fi
    local why
    if ! why=$("$PYTHON" "$here/waits/check.py" "$what" "$n" $D $ITER "$dir/$name.waits.csv" "$dir/$name.json"); then
        fail "$name: $why"
        return
    fi
    # One host (no simulated ones): the ranks share one time base, so no
    # receive can end before its send began.
    if [ $# = 0 ] && ! why=$("$PYTHON" -c 'import json, sys
n = json.load(open(sys.argv[1]))["wait_summary"]["clock_violations"]
sys.exit(f"{n} clock-condition violations on one host" if n else 0)' "$dir/$name.json" 2>&1); then
        fail "$name: $why"
        return
    fi
    grep -q "^Wait states: " "$dir/$name.txt" || fail "$name: the text report has no Wait states section"
    grep -q "^Critical path: " "$dir/$name.txt" || fail "$name: the text report has no Critical path section"
    echo "ok: $name"
}

# The output of a profiled run is the program's own (one case, plain and profiled).
first=${RANKS%% *}
out_plain=$(run_n "$first" "$dir/waits" anysource $D $ITER 2>/dev/null)
for n in $RANKS; do
    for what in late_sender late_sender_nb waitall anysource persistent sendrecv late_receiver barrier nxn bcast \
        reduce mix balanced; do
        case_run waits $what "$n"
    done
    [ "$n" -ge 4 ] && case_run waits subcomm "$n"
    # Persistent rooted collectives (MPI 4.0: MPICH; Open MPI 4.1 has none),
    # at the first count only.
    if [ "$flavour" = mpich ] && [ "$n" = "$first" ]; then
        case_run waits bcast_init "$n"
        case_run waits reduce_init "$n"
    fi
    if [[ " ${progs[*]} " == *" waits_f "* ]]; then
        case_run waits_f late_sender "$n"
        case_run waits_f barrier "$n"
    fi
done
[ "$(cat "$dir/waits-anysource-$first.out")" = "$out_plain" ] || fail "the program's output changed under the library"
grep -q "any_source_from_partner=$((ITER * (first / 2)))" "$dir/waits-anysource-$first.out" || fail "anysource: wrong sources"
# Clocks made to disagree by 50 ms and 200 ppm: aligned, the analysis holds.
case_run waits late_sender 4 MPISCOPE_TEST_CLOCK_SKEW=50000000,200
case_run waits barrier 4 MPISCOPE_TEST_CLOCK_SKEW=50000000,200

# Summary mode has no timeline: --waits-csv is refused in one line (exit 1),
# and the text report says that wait states need a trace.
logs=$dir/summary
rm -rf "$logs"
mapfile -t envs < <(env_of "LD_PRELOAD=$lib" "MPISCOPE_DIR=$logs" MPISCOPE_MODE=summary)
run_n 2 "${envs[@]}" "$dir/waits" late_sender $D $ITER >/dev/null 2>&1 || fail "summary: the profiled run failed"
"$MERGE" --waits-csv "$dir/summary.waits.csv" --text "$dir/summary.txt" "$logs" 2>"$dir/summary.err"
st=$?
[ "$st" = 1 ] || fail "summary: --waits-csv exits $st, not 1"
[ "$(grep -c . "$dir/summary.err")" = 1 ] && grep -q "summary mode.*--waits-csv" "$dir/summary.err" ||
    fail "summary: not one line naming summary mode and --waits-csv: $(cat "$dir/summary.err")"
[ ! -e "$dir/summary.waits.csv" ] || fail "summary: --waits-csv was written"
grep -q "^Wait states: they need a trace" "$dir/summary.txt" || fail "summary: the text report does not say why"

# A delay planted on rank 1's second thread: the critical path runs
# through that thread (exit 77 from the program: no MPI_THREAD_MULTIPLE).
threads_case() {
    local name=threads-2 logs=$dir/threads-2 st why
    rm -rf "$logs"
    $cc -std=c11 -O2 -g -Wall -Wextra -Werror -pthread -o "$dir/threads" "$here/waits/threads.c" ||
        { fail "cannot build threads.c"; return; }
    mapfile -t envs < <(env_of "LD_PRELOAD=$lib" "MPISCOPE_DIR=$logs")
    run_n 2 "${envs[@]}" "$dir/threads" $D $ITER >"$dir/$name.out" 2>"$dir/$name.err"
    st=$?
    if [ $st = 77 ]; then
        echo "skip: $name: $(head -1 "$dir/$name.err")"
        return
    fi
    [ $st = 0 ] || { fail "$name: the profiled run failed: $(tail -3 "$dir/$name.err")"; return; }
    "$MERGE" --json "$dir/$name.json" --text "$dir/$name.txt" --html "$dir/$name.html" "$logs" 2>"$dir/$name.merge.err" ||
        { fail "$name: the merge failed: $(tail -3 "$dir/$name.merge.err")"; return; }
    why=$("$PYTHON" "$here/waits/threads_check.py" $D $ITER "$dir/$name.json" "$dir/$name.txt" "$dir/$name.html") ||
        { fail "$name: $why"; return; }
    echo "ok: $name"
}
threads_case

# The MPI-parallel merge gives the same analysis.
pmerge=$(dirname "$MERGE")/mpiscope-merge-mpich
if [ "$flavour" = mpich ] && [ -x "$pmerge" ]; then
    for name in waits-waitall-4 waits-barrier-8 waits-sendrecv-8; do
        [ -d "$dir/$name" ] || continue
        timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n 3 "$pmerge" \
            --waits-csv "$dir/$name.p3.waits.csv" --json "$dir/$name.p3.json" "$dir/$name" 2>/dev/null ||
            fail "$name: the MPI-parallel merge failed"
        cmp -s "$dir/$name.waits.csv" "$dir/$name.p3.waits.csv" || fail "$name: --waits-csv differs in the MPI-parallel merge"
        cmp -s "$dir/$name.json" "$dir/$name.p3.json" || fail "$name: --json differs in the MPI-parallel merge"
    done
    name=threads-2
    if [ -d "$dir/$name" ]; then
        timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n 2 "$pmerge" \
            --json "$dir/$name.p2.json" --text "$dir/$name.p2.txt" "$dir/$name" 2>/dev/null ||
            fail "$name: the MPI-parallel merge failed"
        cmp -s "$dir/$name.json" "$dir/$name.p2.json" || fail "$name: --json differs in the MPI-parallel merge"
        cmp -s "$dir/$name.txt" "$dir/$name.p2.txt" || fail "$name: --text differs in the MPI-parallel merge"
    fi
fi
[ "$failures" -eq 0 ] || { echo "waits: $failures failure(s)"; exit 1; }
echo "waits: every case as planted"
