#!/usr/bin/env bash
# The root-cause and what-if analysis on programs with planted delays
# (root_causes/: delay_chain.c, delay_two.c, delay_chain_f.f90; what each
# must show in root_causes/check.py). At 2, 4 and 8 ranks: the chain (the
# last rank late, its lateness passed on down to rank 0) and two causes of
# different sizes, each profiled in trace mode and merged with
# --causes-csv and --json; then each program again with its delay removed:
# the chain's re-run is the balanced program (no cause of note), the
# two-cause program's re-run keeps only its small cause; each planted
# run's fix of its planted cause must project the re-run's run time. The
# Fortran chain the same at 4 ranks. The MPI-parallel merge (MPICH, where
# mpiscope-merge-mpich is built) must equal the serial one byte for byte
# on --causes-csv and --json. Compute is a sleep (BASE ms on every rank,
# PLANT ms planted), so ranks sharing cores do not slow one another down
# while they compute (MPICH's waiting ranks spin, though: check.py says
# what that does to the figures).
#
#   root_causes.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
#
# ROOT_CAUSES_RANKS, ROOT_CAUSES_ITER, ROOT_CAUSES_BASE and
# ROOT_CAUSES_PLANT (ms) change the rank counts and the timings, to look
# closer at one case.
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
PYTHON=${PYTHON:-python3}
RANKS=${ROOT_CAUSES_RANKS:-2 4 8}
ITER=${ROOT_CAUSES_ITER:-3}
BASE=${ROOT_CAUSES_BASE:-100}  # ms of compute on every rank
PLANT=${ROOT_CAUSES_PLANT:-100} # ms planted
spin=0   # do waiting ranks spin (check.py: the what-if's bound)
if [ "$flavour" = mpich ]; then
    spin=1
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

for p in delay_chain delay_two; do
    $cc -std=c11 -O2 -g -Wall -Wextra -Werror -o "$dir/$p" "$here/root_causes/$p.c" ||
        { echo "FAIL: cannot build $p.c"; exit 1; }
done
fortran=
if command -v "$fc" >/dev/null 2>&1 &&
    $fc -O2 -g -Wall -Werror -o "$dir/delay_chain_f" "$here/root_causes/delay_chain_f.f90"; then
    fortran=delay_chain_f
fi

# profile NAME N PROG [ARG...]: one profiled run and its merge, as
# $dir/NAME.{causes.csv,json,waits.csv}; 1 when either failed.
profile() {
    local name=$1 n=$2 prog=$3 envs
    shift 3
    local logs=$dir/$name
    rm -rf "$logs" "$dir/$name".*
    mapfile -t envs < <(env_of "LD_PRELOAD=$lib" "MPISCOPE_DIR=$logs")
    if ! run_n "$n" "${envs[@]}" "$dir/$prog" $ITER $BASE $PLANT "$@" >"$dir/$name.out" 2>"$dir/$name.err"; then
        fail "$name: the profiled run failed: $(tail -3 "$dir/$name.err")"
        return 1
    fi
    if grep -q "mpiscope:" "$dir/$name.err"; then
        fail "$name: the library spoke: $(grep mpiscope: "$dir/$name.err" | head -3)"
    fi
    if ! "$MERGE" --causes-csv "$dir/$name.causes.csv" --json "$dir/$name.json" --waits-csv "$dir/$name.waits.csv" \
        "$logs" >/dev/null 2>"$dir/$name.merge.err"; then
        fail "$name: the merge failed: $(tail -3 "$dir/$name.merge.err")"
        return 1
    fi
}

# case PROG SOURCE CASE N RERUN_FLAG: the planted run, the re-run without
# (part of) it, and the check of both.
case_run() {
    local prog=$1 src=$2 what=$3 n=$4 flag=$5 name=$1-$4 why
    profile "$name" "$n" "$prog" || return
    profile "$name-rerun" "$n" "$prog" "$flag" || return
    if ! why=$(ROOT_CAUSES_SPIN=$spin "$PYTHON" "$here/root_causes/check.py" "$what" "$n" $ITER $BASE $PLANT "$here/root_causes/$src" \
        "$dir/$name" "$dir/$name-rerun"); then
        fail "$name: $why"
        return
    fi
    echo "ok: $name: $why"
}

for n in $RANKS; do
    case_run delay_chain delay_chain.c chain "$n" --no-delay
    case_run delay_two delay_two.c two "$n" --no-big
done
[ -n "$fortran" ] && case_run delay_chain_f delay_chain_f.f90 chain 4 --no-delay

# The program's output is its own under the library.
first=${RANKS%% *}
plain=$(run_n "$first" "$dir/delay_chain" $ITER $BASE $PLANT 2>/dev/null)
[ "$(cat "$dir/delay_chain-$first.out" 2>/dev/null)" = "$plain" ] || fail "the program's output changed under the library"

# The MPI-parallel merge gives the same causes and what-if.
pmerge=$(dirname "$MERGE")/mpiscope-merge-mpich
if [ "$flavour" = mpich ] && [ -x "$pmerge" ]; then
    name=delay_chain-4
    if [ -d "$dir/$name" ]; then
        if ! timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n 3 "$pmerge" \
            --causes-csv "$dir/$name.p3.causes.csv" --json "$dir/$name.p3.json" "$dir/$name" 2>/dev/null; then
            fail "$name: the MPI-parallel merge failed"
        else
            if ! cmp -s "$dir/$name.causes.csv" "$dir/$name.p3.causes.csv"; then
                fail "$name: --causes-csv differs in the MPI-parallel merge"
            elif ! cmp -s "$dir/$name.json" "$dir/$name.p3.json"; then
                fail "$name: --json differs in the MPI-parallel merge"
            else
                echo "ok: $name: the MPI-parallel merge's --causes-csv and --json are the serial merge's"
            fi
        fi
    fi
fi
[ "$failures" -eq 0 ] || { echo "root_causes: $failures failure(s)"; exit 1; }
echo "root_causes: every planted cause found, every fix projected"
