#!/usr/bin/env bash
# Call sites: MPI calls on known lines (callsites/main.c, a shared library
# of the test's own in callsites/helper.c, and callsites/main.f90) must be
# reported by mpiscope-merge --callsites-csv at exactly those files and
# lines, with the exact calls per rank (callsites_check.py reads the
# "site:" markers). Also: the text report's top call sites and the JSON
# source fields; a stripped program (object+offset, never a failure, while
# the library's sites keep their lines); one built without -g
# (function+offset); a library loaded with dlopen after MPI_Init; a program
# rebuilt between run and merge (a warning naming it, object+offset);
# MPISCOPE_CALLSITE_DEPTH=0 (no call sites) and 4 (the same innermost lines).
#
#   callsites.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
src=$here/callsites
check=$here/callsites_check.py
PYTHON=${PYTHON:-python3}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich} fc=${MPIF90_MPICH:-mpif90.mpich}
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi} fc=${MPIF90_OPENMPI:-mpif90.openmpi}
fi

fail() {
    echo "FAIL: $*"
    exit 1
}

if ! "$MERGE" --version | grep -q 'libdw yes'; then
    echo "mpiscope-merge was built without elfutils (libdw): call sites are not symbolized"
    exit 77
fi

# run NAME N PROGRAM [ARG] [ENV=VALUE...]: profile PROGRAM at N ranks into $dir/NAME.
run() {
    local name=$1 n=$2 exe=$3 arg=()
    shift 3
    if [ $# -gt 0 ] && [ "${1#*=}" = "$1" ]; then
        arg=("$1")
        shift
    fi
    local d=$dir/$name args=()
    if [ "$flavour" = mpich ]; then
        args=(-genv LD_PRELOAD "$lib" -genv MPISCOPE_DIR "$d")
        for kv in "$@"; do args+=(-genv "${kv%%=*}" "${kv#*=}"); done
        timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n "$n" "${args[@]}" "$exe" ${arg[@]+"${arg[@]}"} \
            >"$d.out" 2>"$d.err" || fail "$name: the program exits $? (see $d.err)"
    else
        args=(-x "LD_PRELOAD=$lib" -x "MPISCOPE_DIR=$d")
        for kv in "$@"; do args+=(-x "$kv"); done
        timeout -k 10 "$TEST_TIMEOUT" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe \
            -np "$n" "${args[@]}" "$exe" ${arg[@]+"${arg[@]}"} >"$d.out" 2>"$d.err" ||
            fail "$name: the program exits $? (see $d.err)"
    fi
    grep -q "^sum " "$d.out" || fail "$name: the program printed no result"
    ! grep -q "mpiscope:" "$d.err" || fail "$name: diagnostics: $(cat "$d.err")"
}

# merge NAME: the call-site CSV of run NAME into $dir/NAME.csv, its stderr in NAME.merge.err.
merge() {
    "$MERGE" --callsites-csv "$dir/$1.csv" "$dir/$1" 2>"$dir/$1.merge.err" ||
        fail "$1: mpiscope-merge exits $?: $(cat "$dir/$1.merge.err")"
}

# Programs: -g, a shared library with its own call sites, a stripped copy.
$cc -g -O1 -fPIC -shared "$src/helper.c" -o "$dir/libhelper.so" || fail "cannot build libhelper.so"
$cc -g -O1 -I"$src" "$src/main.c" -L"$dir" -lhelper -Wl,-rpath,"$dir" -o "$dir/callsites" ||
    fail "cannot build callsites"
cp "$dir/callsites" "$dir/callsites-stripped" && strip "$dir/callsites-stripped" || fail "cannot strip"

for n in 2 3; do
    run c-$n $n "$dir/callsites"
    merge c-$n
    $PYTHON "$check" "$dir/c-$n.csv" $n "$src/main.c" "$src/helper.c" || fail "c-$n: call sites (see $dir/c-$n.csv)"
done

# The text report's first table (MPI time by call site) and the JSON source of a region.
"$MERGE" "$dir/c-2" >"$dir/c-2.txt" 2>/dev/null || fail "text report"
barrier_line=$(grep -n "site: barrier" "$src/main.c" | cut -d: -f1)
grep -q "^MPI time by call site" "$dir/c-2.txt" || fail "no MPI time by call site in the text report"
grep -q "MPI_Barrier at main (main.c:$barrier_line)\$" "$dir/c-2.txt" ||
    fail "the text report does not show MPI_Barrier at main (main.c:$barrier_line)"
"$MERGE" --json "$dir/c-2.json" "$dir/c-2" 2>/dev/null || fail "json report"
$PYTHON - "$dir/c-2.json" "$barrier_line" <<'PY' || fail "JSON source fields"
import json, sys
d = json.load(open(sys.argv[1]))
r = next(r for r in d["regions"] if r["operation"] == "barrier")
assert r["has_source"] and r["source_file"].endswith("main.c"), r
assert r["source_lineno"] == int(sys.argv[2]) and "MPI_Barrier" in r["source_text"], r
assert r["callsites"][0]["ranks"] == 2 and r["callsites"][0]["calls"] == 6, r
assert any(c["rank"] == 1 and c["line"] == int(sys.argv[2]) for c in d["callsites"]), d["callsites"]
PY

# Stripped: main.c's sites are object+offset, helper.c's keep their lines.
run stripped 2 "$dir/callsites-stripped"
merge stripped
$PYTHON "$check" "$dir/stripped.csv" 2 "$src/main.c=callsites-stripped" "$src/helper.c" ||
    fail "stripped: call sites (see $dir/stripped.csv)"

# Without -g: function+offset in the object.
$cc -O1 -I"$src" "$src/main.c" -L"$dir" -lhelper -Wl,-rpath,"$dir" -o "$dir/callsites-nog" || fail "cannot build"
run nog 2 "$dir/callsites-nog"
merge nog
$PYTHON "$check" "$dir/nog.csv" 2 "$src/main.c=callsites-nog" "$src/helper.c" || fail "nog: call sites (see $dir/nog.csv)"
grep -q ",main+0x[0-9a-f]*,callsites-nog+0x" "$dir/nog.csv" || fail "nog: no function+offset (see $dir/nog.csv)"

# A library loaded after MPI_Init: its object joins the load map then.
$cc -g -O1 "$src/dlopen_main.c" -ldl -o "$dir/callsites-dlopen" || fail "cannot build dlopen_main"
run dlopen 2 "$dir/callsites-dlopen" "$dir/libhelper.so"
merge dlopen
$PYTHON "$check" "$dir/dlopen.csv" 2 "$src/helper.c" || fail "dlopen: call sites (see $dir/dlopen.csv)"

# Rebuilt between run and merge: a warning, and object+offset.
cp "$dir/callsites" "$dir/callsites-changed"
run changed 2 "$dir/callsites-changed"
$cc -g -O0 -I"$src" "$src/main.c" -L"$dir" -lhelper -Wl,-rpath,"$dir" -o "$dir/callsites-changed" ||
    fail "cannot rebuild"
merge changed
grep -q "callsites-changed.*changed since the run" "$dir/changed.merge.err" ||
    fail "changed: no warning about the rebuilt program: $(cat "$dir/changed.merge.err")"
$PYTHON "$check" "$dir/changed.csv" 2 "$src/main.c=callsites-changed" "$src/helper.c" ||
    fail "changed: call sites (see $dir/changed.csv)"

# Depth 0: no call sites; depth 4: the same innermost lines.
run depth0 2 "$dir/callsites" MPISCOPE_CALLSITE_DEPTH=0
merge depth0
[ "$(wc -l <"$dir/depth0.csv")" -eq 1 ] || fail "depth0: call sites recorded with MPISCOPE_CALLSITE_DEPTH=0"
run depth4 2 "$dir/callsites" MPISCOPE_CALLSITE_DEPTH=4
merge depth4
$PYTHON "$check" "$dir/depth4.csv" 2 "$src/main.c" "$src/helper.c" || fail "depth4: call sites"

# Fortran: through MPICH's Fortran library (a binding layer the capture
# steps out of) or Open MPI's Fortran entry points.
if command -v "$fc" >/dev/null 2>&1; then
    $fc -g -O1 "$src/main.f90" -o "$dir/callsites-f" || fail "cannot build the Fortran program"
    run fortran 2 "$dir/callsites-f"
    merge fortran
    $PYTHON "$check" "$dir/fortran.csv" 2 "$src/main.f90" || fail "fortran: call sites (see $dir/fortran.csv)"
fi
echo "ok"
