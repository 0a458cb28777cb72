#!/usr/bin/env bash
# mpiscope-merge --spt: profiles halo.c at 2 and 4 ranks, writes
# scope-profiler native traces, and checks them with scope-profiler itself
# (spt_check.py: its reader, and `scope-profiler import-native` to HDF5 read
# back with its HDF5 reader): every region of the run's --csv arrives with
# its calls per rank, and the dominant call site as its source.
# Skipped when no Python with scope-profiler is found: $SCOPE_PROFILER_PYTHON,
# else $BUILD/venv/bin/python (scripts/deps.sh creates it).
#
#   spt_export.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
cc=${MPICC_MPICH:-mpicc.mpich}
[ "$flavour" = mpich ] || cc=${MPICC_OPENMPI:-mpicc.openmpi}

fail() {
    echo "FAIL: $*"
    exit 1
}

py=${SCOPE_PROFILER_PYTHON:-${BUILD:-build}/venv/bin/python}
if ! "$py" -c 'import scope_profiler.native_trace' >/dev/null 2>&1; then
    echo "no Python with scope-profiler at $py (scripts/deps.sh installs it there)"
    exit 77
fi
sp=$(dirname "$py")/scope-profiler
[ -x "$sp" ] || fail "$sp is missing beside $py"

$cc -std=c11 -O2 -g -Wno-stringop-overflow -I"$here" -o "$dir/halo" "$here/halo.c" -lm >"$dir/halo.build" 2>&1 ||
    fail "cannot build halo: $(head -5 "$dir/halo.build")"
for n in 2 4; do
    d=$dir/halo-$n
    if [ "$flavour" = mpich ]; then
        timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n $n -genv LD_PRELOAD "$lib" \
            -genv MPISCOPE_DIR "$d" "$dir/halo" >"$d.out" 2>"$d.err" || fail "halo-$n: the program exits $?"
    else
        timeout -k 10 "$TEST_TIMEOUT" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe \
            -np $n -x "LD_PRELOAD=$lib" -x "MPISCOPE_DIR=$d" "$dir/halo" >"$d.out" 2>"$d.err" ||
            fail "halo-$n: the program exits $?"
    fi
    "$MERGE" --ranks-csv "$d.ranks.csv" --json "$d.json" --spt "$d.spt" "$d" 2>"$d.merge.err" ||
        fail "halo-$n: mpiscope-merge exits $?: $(cat "$d.merge.err")"
    "$sp" import-native "$d.spt" -o "$d.h5" -q >"$d.import.out" 2>&1 ||
        fail "halo-$n: scope-profiler import-native exits $?: $(tail -5 "$d.import.out")"
    "$py" "$here/spt_check.py" "$d.spt" "$d.h5" "$d.ranks.csv" "$d.json" $n >"$d.check" 2>&1 ||
        fail "halo-$n: $(cat "$d.check")"
    echo "halo-$n: $(cat "$d.check")"
done
echo "ok"
