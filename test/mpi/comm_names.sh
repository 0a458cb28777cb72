#!/usr/bin/env bash
# Communicators by name (comm_names/comm_names.c at 4 ranks): the text
# report, --json and --html name them world, self, split#1 of world (2
# ranks), dup#1 of world, cart 2×2 of world and by the names
# MPI_Comm_set_name gave (quotes, markup, &, 1,000 characters), escaped in
# HTML and whole in JSON; the HTML page's communicators table gives each
# one's label, size, maker and call site, the long name whole in a title; no
# communicator id in the text or the HTML, ids in the CSV; the MPI merge
# writes the same bytes. comm_names_check.py holds
# the expectations.
#
#   comm_names.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-python3}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
fail() {
    echo "FAIL: $*"
    exit 1
}
rm -rf "$dir/logs"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
exe=$dir/comm_names
if [ "$flavour" = mpich ]; then
    "${MPICC_MPICH:-mpicc.mpich}" -std=c11 -O2 -g -Wall -Wextra -Werror "$here/comm_names/comm_names.c" -o "$exe" ||
        fail "cannot build comm_names"
    timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n 4 -genv LD_PRELOAD "$lib" \
        -genv MPISCOPE_DIR "$dir/logs" "$exe" >"$dir/out" 2>"$dir/err" || fail "the program exits $?: $(head -5 "$dir/err")"
else
    "${MPICC_OPENMPI:-mpicc.openmpi}" -std=c11 -O2 -g -Wall -Wextra -Werror "$here/comm_names/comm_names.c" -o "$exe" ||
        fail "cannot build comm_names"
    timeout -k 10 "$TEST_TIMEOUT" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe -np 4 \
        -x "LD_PRELOAD=$lib" -x "MPISCOPE_DIR=$dir/logs" "$exe" >"$dir/out" 2>"$dir/err" ||
        fail "the program exits $?: $(head -5 "$dir/err")"
fi
! grep -q "mpiscope:" "$dir/err" || fail "diagnostics: $(cat "$dir/err")"
"$MERGE" --text "$dir/report.txt" --json "$dir/report.json" --csv "$dir/regions.csv" --html "$dir/report.html" \
    "$dir/logs" 2>"$dir/merge.err" || fail "mpiscope-merge exits $?: $(head -5 "$dir/merge.err")"
"$PYTHON" "$here/comm_names_check.py" "$dir" || fail "outputs differ from the expectation (files in $dir)"
mpi_merge=$(dirname "$MERGE")/mpiscope-merge-mpich
if [ -x "$mpi_merge" ]; then
    timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n 2 "$mpi_merge" --text "$dir/mpi.txt" \
        --json "$dir/mpi.json" --html "$dir/mpi.html" "$dir/logs" 2>"$dir/mpi.err" || fail "mpiscope-merge-mpich exits $?"
    cmp -s "$dir/mpi.txt" "$dir/report.txt" && cmp -s "$dir/mpi.json" "$dir/report.json" &&
        cmp -s "$dir/mpi.html" "$dir/report.html" ||
        fail "mpiscope-merge-mpich -n 2 writes other bytes than mpiscope-merge"
fi
echo "comm_names: all outputs as expected"
