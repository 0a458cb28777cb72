#!/usr/bin/env bash
# The null collector (test/collector_null/, the skeleton a new collector
# copies), linked into a library of its own ($BUILD/test/
# libmpiscope-mpich-null.so, `make mpi-tests` builds it), at 2 ranks under
# MPICH: its setting is read and shown by MPISCOPE_VERBOSE, its warning is
# printed once for the run, and its region is in the report, one call per
# rank. Without it (the shipped library) its variable is unknown: the
# setting is the collector's own, not the core's.
#
#   collector_null.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case "$build" in /*) ;; *) build=$root/$build ;; esac
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
if [ "$flavour" != mpich ]; then
    echo "skip: the null collector's library is built for MPICH only"
    exit 77
fi
null_lib=$build/test/libmpiscope-mpich-null.so
fail() {
    echo "FAIL: $*"
    exit 1
}
[ -f "$null_lib" ] || fail "$null_lib is not built (make $null_lib)"
for v in $(env | sed -n 's/^\(MPISCOPE_[A-Z0-9_]*\)=.*/\1/p'); do
    unset "$v"
done
prog=$dir/exit_status
${MPICC_MPICH:-mpicc.mpich} -O1 "$root/test/mpi/launcher/exit_status.c" -o "$prog" || fail "cannot build the program"

# run NAME LIBRARY: 2 ranks with the null collector's setting.
run() {
    timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n 2 -env LD_PRELOAD "$2" \
        -env MPISCOPE_DIR "$dir/$1" -env MPISCOPE_VERBOSE 1 -env MPISCOPE_NULL_REGION null:whole_rank \
        "$prog" >"$dir/$1.out" 2>"$dir/$1.err" || fail "$1: the run fails: $(cat "$dir/$1.err")"
    grep -q '^ranks 2$' "$dir/$1.out" || fail "$1: the program's output is missing"
}

run with "$null_lib"
grep -qx '  MPISCOPE_NULL_REGION=null:whole_rank' "$dir/with.err" ||
    fail "the setting is not read or not shown: $(cat "$dir/with.err")"
n=$(grep -c 'the null collector records one region, "null:whole_rank", per rank' "$dir/with.err")
[ "$n" = 1 ] || fail "its warning printed $n times, not once: $(cat "$dir/with.err")"
"$build/bin/mpiscope-merge" --csv "$dir/with.csv" "$dir/with" >/dev/null 2>"$dir/merge.err" ||
    fail "the merge fails: $(cat "$dir/merge.err")"
python3 - "$dir/with.csv" <<'PY' || fail "its region is not in the report: $(cat "$dir/with.csv")"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["name"] == "null:whole_rank"]
sys.exit(0 if len(rows) == 1 and int(rows[0]["calls"]) == 2 else 1)
PY

run without "$lib"
grep -q 'MPISCOPE_NULL_REGION is not a variable of mpiscope' "$dir/without.err" ||
    fail "without the collector its variable is known: $(cat "$dir/without.err")"
grep -q 'MPISCOPE_NULL_REGION=' "$dir/without.err" && fail "without the collector its setting is shown"
echo "ok: the null collector's setting, warning and region"
exit 0
