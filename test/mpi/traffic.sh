#!/usr/bin/env bash
# Point-to-point traffic: mpiscope-merge --matrix-csv, --events-csv and
# --trace on real runs of traffic/traffic.c (sub-communicators, wildcard
# receives, persistent requests, MPI_COMM_SELF, MPI_PROC_NULL), halo.c and
# p2p_nonblocking.c at 2 and 4 ranks. traffic_check.py holds the
# expectations: the exact messages and bytes each rank sent to each other
# rank, events per region equal to the region table's calls, and a trace
# that is JSON with one complete event per call and paired message flows.
#
#   traffic.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
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

fail() {
    echo "FAIL: $*"
    exit 1
}

# run NAME N PROGRAM: profile PROGRAM at N ranks into $dir/NAME-N/logs.
run() {
    local d=$dir/$1-$2 n=$2 exe=$3
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
    "$MERGE" --csv "$d/regions.csv" --ranks-csv "$d/ranks.csv" --matrix-csv "$d/matrix.csv" \
        --events-csv "$d/events.csv" --trace "$d/trace.json" "$d/logs" >"$d/merge.out" 2>"$d/merge.err" ||
        fail "$1 -n $n: mpiscope-merge exits $?: $(head -5 "$d/merge.err")"
    [ ! -s "$d/merge.err" ] || fail "$1 -n $n: mpiscope-merge printed: $(head -5 "$d/merge.err")"
    "$PYTHON" "$here/traffic_check.py" "$1" "$n" "$d" || fail "$1 -n $n: outputs differ from the expectation (files in $d)"
}

flags="-std=c11 -O2 -g -Wall -Wextra -Werror -Wno-stringop-overflow"
# shellcheck disable=SC2086
$cc $flags "$here/traffic/traffic.c" -o "$dir/traffic" || fail "cannot build traffic"
for t in halo p2p_nonblocking; do
    # shellcheck disable=SC2086
    $cc $flags -I"$here" "$here/$t.c" -o "$dir/$t" -lm || fail "cannot build $t"
done

for n in 2 4; do
    for t in traffic halo p2p_nonblocking; do
        run "$t" "$n" "$dir/$t"
    done
done
echo "traffic: all outputs as expected"
