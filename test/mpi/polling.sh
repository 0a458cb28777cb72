#!/usr/bin/env bash
# Polling counts as waiting (polling/polling.c, polling/polling_f.f90;
# expectations in polling/check.py): rank 1 sends late to rank 0, which
# receives in every way the program knows, each mode on its own tag, in one
# 2-rank run: MPI_Recv (the baseline), Irecv + Wait, Irecv + a loop of
# Test, Testany over two requests, Testall, a loop of Iprobe then Recv, and
# of Improbe then Mrecv; the Fortran program the same for recv, test and
# iprobe. Rank 0's late-sender seconds must be the same for every mode and
# the critical path must go through rank 1's sleeps, not rank 0's polls.
# The program's output must not change under the library, and (MPICH, where
# mpiscope-merge-mpich is built) the MPI-parallel merge must give the same
# --waits-csv and --json.
#
#   polling.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
PYTHON=${PYTHON:-python3}
D=40      # ms of each planted delay
ITER=5
# Ranks that share this machine's cores are descheduled between two polls
# for a time slice or more (4 to 16 ms seen at a load of 3 on 2 cores),
# which would cut a poll run at the default bound of 2 ms: the merges here
# allow 20 ms (--poll-gap); the bound itself is tested in
# test/unit/test_poll_runs.c.
GAP=0.02
if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich}
    fc=${MPIF90_MPICH:-mpif90.mpich}
    run_2() { timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n 2 "$@"; }
    env_of() { local kv; for kv in "$@"; do printf '%s\n' -genv "${kv%%=*}" "${kv#*=}"; done; }
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi}
    fc=${MPIF90_OPENMPI:-mpif90.openmpi}
    run_2() {
        timeout -k 10 "$TEST_TIMEOUT" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe -np 2 "$@"
    }
    env_of() { local kv; for kv in "$@"; do printf '%s\n' -x "$kv"; done; }
fi
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

$cc -std=c11 -O2 -g -Wall -Wextra -Werror -Wno-stringop-overflow -o "$dir/polling" "$here/polling/polling.c" ||
    { echo "FAIL: cannot build polling.c"; exit 1; }
has_f=0
command -v "$fc" >/dev/null 2>&1 && $fc -O2 -g -Wall -Werror -o "$dir/polling_f" "$here/polling/polling_f.f90" && has_f=1

# case NAME PROG MODE=TAG...: the profiled run of every mode, its merge,
# the check, and the program's output against a run without the library.
case_run() {
    local name=$1 prog=$2 envs modes=()
    shift 2
    local m
    for m in "$@"; do modes+=("${m%%=*}"); done
    local logs=$dir/$name.logs
    rm -rf "$logs"
    mapfile -t envs < <(env_of "LD_PRELOAD=$lib" "MPISCOPE_DIR=$logs")
    if ! run_2 "${envs[@]}" "$dir/$prog" $D $ITER "${modes[@]}" >"$dir/$name.out" 2>"$dir/$name.err"; then
        fail "$name: the profiled run failed: $(tail -3 "$dir/$name.err")"
        return
    fi
    grep -q "mpiscope:" "$dir/$name.err" && fail "$name: the library spoke: $(grep mpiscope: "$dir/$name.err" | head -3)"
    # The output does not depend on the delay: the plain run sleeps none.
    local plain
    plain=$(run_2 "$dir/$prog" 0 $ITER "${modes[@]}" 2>/dev/null)
    [ "$(cat "$dir/$name.out")" = "$plain" ] || fail "$name: the program's output changed under the library"
    if ! "$MERGE" --poll-gap $GAP --waits-csv "$dir/$name.waits.csv" --json "$dir/$name.json" --trace "$dir/$name.trace.json" "$logs" \
        2>"$dir/$name.merge.err"; then
        fail "$name: the merge failed: $(tail -3 "$dir/$name.merge.err")"
        return
    fi
    local why
    if ! why=$("$PYTHON" "$here/polling/check.py" $D $ITER "$dir/$name.waits.csv" "$dir/$name.json" \
        "$dir/$name.trace.json" "$@"); then
        fail "$name: $why"
        return
    fi
    local pmerge
    pmerge=$(dirname "$MERGE")/mpiscope-merge-mpich
    if [ "$flavour" = mpich ] && [ -x "$pmerge" ]; then
        timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n 2 "$pmerge" --poll-gap $GAP \
            --waits-csv "$dir/$name.p2.waits.csv" --json "$dir/$name.p2.json" "$logs" 2>/dev/null ||
            fail "$name: the MPI-parallel merge failed"
        cmp -s "$dir/$name.waits.csv" "$dir/$name.p2.waits.csv" || fail "$name: --waits-csv differs in the MPI-parallel merge"
        cmp -s "$dir/$name.json" "$dir/$name.p2.json" || fail "$name: --json differs in the MPI-parallel merge"
    fi
    echo "ok: $name: $why"
}

case_run polling polling recv=10 wait=11 test=12 testany=13 testall=14 iprobe=15 improbe=16
if [ "$has_f" = 1 ]; then
    case_run polling_f polling_f recv=20 test=21 iprobe=22
else
    echo "note: no $fc: the Fortran program is left out"
fi
[ "$failures" -eq 0 ] || { echo "polling: $failures failure(s)"; exit 1; }
echo "polling: every way of receiving waits as the blocking one"
