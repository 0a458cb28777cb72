#!/usr/bin/env bash
# The files of MPI-IO in the merge's reports: io_calls.c at 2 and 4 ranks,
# and halo.c (no file calls) at 2. io_report_check.py holds the
# expectations: --files-csv row by row (file, rank, op, calls, bytes) from
# io_calls.expect.py, the text report's "Files (MPI-IO)" section and the
# --json "files" per file; for halo no section, no key, the CSV's header
# alone.
#
#   io_report.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-python3}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich}
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi}
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

fail() {
    echo "FAIL: $*"
    exit 1
}

# run NAME N: profile $dir/NAME at N ranks into $dir/NAME-N/logs and merge.
run() {
    local d=$dir/$1-$2 n=$2 exe=$dir/$1
    mkdir -p "$d"
    if [ "$flavour" = mpich ]; then
        timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n "$n" -genv LD_PRELOAD "$lib" \
            -genv MPISCOPE_DIR "$d/logs" "$exe" >"$d/out" 2>"$d/err" || fail "$1 -n $n: the program exits $?: $(head -5 "$d/err")"
    else
        timeout -k 10 "$TEST_TIMEOUT" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe \
            -np "$n" -x "LD_PRELOAD=$lib" -x "MPISCOPE_DIR=$d/logs" "$exe" >"$d/out" 2>"$d/err" ||
            fail "$1 -n $n: the program exits $?: $(head -5 "$d/err")"
    fi
    ! grep -q "mpiscope:" "$d/err" || fail "$1 -n $n: diagnostics: $(cat "$d/err")"
    "$MERGE" --files-csv "$d/files.csv" --json "$d/report.json" --text "$d/report.txt" "$d/logs" \
        >"$d/merge.out" 2>"$d/merge.err" || fail "$1 -n $n: mpiscope-merge exits $?: $(head -5 "$d/merge.err")"
    [ ! -s "$d/merge.err" ] || fail "$1 -n $n: mpiscope-merge printed: $(head -5 "$d/merge.err")"
    "$PYTHON" "$here/io_report_check.py" "$1" "$n" "$d" "$exe.dat" ||
        fail "$1 -n $n: outputs differ from the expectation (files in $d)"
}

flags="-std=c11 -O2 -g -Wall -Wextra -Werror -Wno-stringop-overflow"
for t in io_calls halo; do
    # shellcheck disable=SC2086
    $cc $flags -I"$here" "$here/$t.c" -o "$dir/$t" -lm || fail "cannot build $t"
done
run io_calls 2
run io_calls 4
run halo 2
echo "io_report: all outputs as expected"
