#!/usr/bin/env bash
# User regions (include/mpiscope.h, MPI_Pcontrol): user_regions/regions.c
# at 1, 2 and 4 ranks, linked with -lmpiscope-api:
#   - without the preload library it runs (the library's empty functions),
#     prints what it prints under the tool, and writes no log;
#   - under the preload library: no diagnostic, exact calls per region and
#     rank (check.py with regions.expect.py), exact exclusive times
#     (nesting_check.py: exclusive + direct children = inclusive, to the
#     ns), and the text report's user-region section;
# user_regions/unbalanced.c at 2 ranks: misuse is reported once per cause
# and rank, never fatal, and what was open is recorded; and, where there is
# a Fortran compiler, user_regions/pcontrol.f90 at 2 ranks: MPI_PCONTROL
# without a name makes no region and no diagnostic.
#
#   user_regions.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
src=$here/user_regions
PYTHON=${PYTHON:-python3}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
api=$BUILD/lib
if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich} fc=${MPIF90_MPICH:-mpif90.mpich}
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi} fc=${MPIF90_OPENMPI:-mpif90.openmpi}
fi

fail() {
    echo "FAIL: $*"
    exit 1
}

[ -e "$api/libmpiscope-api.so" ] || fail "$api/libmpiscope-api.so is missing (run make first)"

# launch N PRELOAD LOGDIR PROGRAM: PROGRAM at N ranks, profiled when PRELOAD is set.
launch() {
    local n=$1 preload=$2 logs=$3 exe=$4 args=()
    if [ "$flavour" = mpich ]; then
        [ -z "$preload" ] || args=(-genv LD_PRELOAD "$preload" -genv MPISCOPE_DIR "$logs")
        timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n "$n" ${args[@]+"${args[@]}"} "$exe"
    else
        [ -z "$preload" ] || args=(-x "LD_PRELOAD=$preload" -x "MPISCOPE_DIR=$logs")
        timeout -k 10 "$TEST_TIMEOUT" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe \
            -np "$n" ${args[@]+"${args[@]}"} "$exe"
    fi
}

# build NAME: user_regions/NAME.c against include/mpiscope.h and -lmpiscope-api.
build() {
    "$cc" -std=c11 -O2 -g -Wall -Wextra -Werror -I"$root/include" -I"$here" -o "$dir/$1" "$src/$1.c" \
        -pthread -L"$api" -lmpiscope-api -Wl,-rpath,"$api" >"$dir/$1.build.log" 2>&1 ||
        fail "$1.c does not compile: $(cat "$dir/$1.build.log")"
    readelf -d "$dir/$1" | grep -q 'NEEDED.*libmpiscope-api\.so' || fail "$1 does not need libmpiscope-api.so"
}

# merge CASE N: the reports of $dir/CASE/logs, checked against EXPECT.
merge() {
    local c=$dir/$1 n=$2 expect=$3
    "$MERGE" "$c/logs" >"$c/report.txt" 2>"$c/merge.err" && [ ! -s "$c/merge.err" ] ||
        fail "$1: mpiscope-merge: $(cat "$c/merge.err")"
    "$MERGE" --csv "$c/regions.csv" --ranks-csv "$c/ranks.csv" --json "$c/report.json" "$c/logs" \
        >/dev/null 2>"$c/merge.err" && [ ! -s "$c/merge.err" ] || fail "$1: mpiscope-merge --json: $(cat "$c/merge.err")"
    "$PYTHON" "$here/check.py" "$expect" "$n" "$c/regions.csv" --ranks-csv "$c/ranks.csv" --json "$c/report.json" \
        >"$c/check.out" 2>&1 || fail "$1: regions differ from $expect: $(head -20 "$c/check.out")"
    "$PYTHON" "$src/nesting_check.py" "$expect" "$c/report.json" "$n" >"$c/nesting.out" 2>&1 ||
        fail "$1: exclusive times: $(head -20 "$c/nesting.out")"
}

build regions
build unbalanced
for n in 1 2 4; do
    c=$dir/regions-$n
    mkdir -p "$c/plain"
    (cd "$c/plain" && launch "$n" "" "" "$dir/regions") >"$c/plain.out" 2>"$c/plain.err" ||
        fail "regions -n $n exits $? without the preload library: $(head -5 "$c/plain.err")"
    [ -z "$(ls -A "$c/plain")" ] || fail "regions -n $n wrote files without the preload library: $(ls "$c/plain")"
    launch "$n" "$lib" "$c/logs" "$dir/regions" >"$c/profiled.out" 2>"$c/profiled.err" ||
        fail "regions -n $n exits $? under the preload library: $(head -5 "$c/profiled.err")"
    ! grep -q 'mpiscope:' "$c/profiled.err" || fail "regions -n $n: diagnostics: $(cat "$c/profiled.err")"
    grep -q '^sum ' "$c/plain.out" || fail "regions -n $n printed no result"
    cmp -s "$c/plain.out" "$c/profiled.out" || fail "regions -n $n: stdout differs under the preload library"
    merge "regions-$n" "$n" "$src/regions.expect.py"
    grep -q '^User regions: inclusive and exclusive time' "$c/report.txt" ||
        fail "regions -n $n: no user-region section in the text report"
    for r in outer inner phase scoped dyn worker worker_inner; do
        grep -qE "^ +[0-9,]+ +[0-9.]+ .*  $r\$" "$c/report.txt" || fail "regions -n $n: region $r missing from the text report"
    done
    echo "ok: regions -n $n"
done

n=2 c=$dir/unbalanced-2
mkdir -p "$c"
launch "$n" "$lib" "$c/logs" "$dir/unbalanced" >"$c/profiled.out" 2>"$c/profiled.err" ||
    fail "unbalanced exits $? under the preload library: $(head -5 "$c/profiled.err")"
grep -q '^done$' "$c/profiled.out" || fail "unbalanced did not run to its end"
for cause in 'ended while a region begun inside it' 'which is not open' 'NULL name' 'still open at MPI_Finalize'; do
    got=$(grep -c "mpiscope:.*$cause" "$c/profiled.err")
    [ "$got" -eq "$n" ] || fail "unbalanced: \"$cause\" reported $got times, expected once per rank ($n): $(cat "$c/profiled.err")"
done
got=$(grep -c 'mpiscope:' "$c/profiled.err")
[ "$got" -eq $((4 * n)) ] || fail "unbalanced: $got diagnostics, expected $((4 * n)): $(cat "$c/profiled.err")"
merge unbalanced-2 "$n" "$src/unbalanced.expect.py"
echo "ok: unbalanced -n $n"

if command -v "$fc" >/dev/null 2>&1; then
    c=$dir/pcontrol-2
    mkdir -p "$c"
    "$fc" -O2 -g -Wall -Werror -J "$c" -o "$dir/pcontrol" "$src/pcontrol.f90" >"$c/build.log" 2>&1 ||
        fail "pcontrol.f90 does not compile: $(cat "$c/build.log")"
    launch 2 "$lib" "$c/logs" "$dir/pcontrol" >"$c/profiled.out" 2>"$c/profiled.err" ||
        fail "pcontrol exits $? under the preload library: $(head -5 "$c/profiled.err")"
    grep -q '^done$' "$c/profiled.out" || fail "pcontrol did not run to its end"
    ! grep -q 'mpiscope:' "$c/profiled.err" || fail "pcontrol: diagnostics: $(cat "$c/profiled.err")"
    merge pcontrol-2 2 "$src/pcontrol.expect.py"
    echo "ok: pcontrol -n 2"
else
    echo "note: $fc not found: pcontrol.f90 left out"
fi
