#!/usr/bin/env bash
# NetPIPE (NPmpich2, Debian's netpipe-mpich2), a program nobody here wrote,
# at 2 ranks under MPICH: messages of 1 byte to 1 KiB (-u 1024), 20 round
# trips each (-n 20), once with blocking receives and once with pre-posted
# ones (-a: MPI_Irecv + MPI_Wait). Each mode runs without and with the
# preload library; both runs must exit 0 and measure the same message
# sizes, the profiled one must print no mpiscope: diagnostic, and its
# merged profile must be self-consistent (consistency.py: every message
# recorded as sent by one rank is recorded as received by the other, with
# the same bytes; no comm=-1 or request=unknown).
#
#   netpipe.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
MPIEXEC_MPICH=${MPIEXEC_MPICH:-mpiexec.mpich}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
PYTHON=${PYTHON:-python3}
NETPIPE=${NETPIPE:-NPmpich2}

if [ "$flavour" != mpich ]; then
    echo "NPmpich2 is built on MPICH; it runs under mpich only"
    exit 77
fi
if ! command -v "$NETPIPE" >/dev/null 2>&1; then
    echo "$NETPIPE is not installed (Debian package netpipe-mpich2)"
    exit 77
fi

status=0
for mode in blocking preposted; do
    args=(-u 1024 -n 20)
    [ "$mode" = blocking ] || args+=(-a)
    d=$dir/$mode
    mkdir -p "$d"
    # NetPIPE writes its results to the file of -o, relative to the working directory.
    (cd "$d" && timeout -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n 2 "$NETPIPE" "${args[@]}" -o plain.np \
        >plain.out 2>plain.err)
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL $mode: NPmpich2 ${args[*]} exits $rc without the preload library (files in $d)"
        status=1
        continue
    fi
    (cd "$d" && timeout -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n 2 -genv LD_PRELOAD "$lib" \
        -genv MPISCOPE_DIR "$d/logs" "$NETPIPE" "${args[@]}" -o profiled.np >profiled.out 2>profiled.err)
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL $mode: NPmpich2 ${args[*]} exits $rc with the preload library, 0 without (files in $d)"
        sed 's/^/    /' "$d/profiled.err" | head -20
        status=1
        continue
    fi
    if grep 'mpiscope:' "$d/profiled.err"; then
        echo "FAIL $mode: the preload library printed diagnostics"
        status=1
        continue
    fi
    awk '{print $1}' "$d/plain.np" >"$d/plain.sizes"
    awk '{print $1}' "$d/profiled.np" >"$d/profiled.sizes"
    if [ ! -s "$d/plain.sizes" ] || ! cmp -s "$d/plain.sizes" "$d/profiled.sizes"; then
        echo "FAIL $mode: the measured message sizes differ with the preload library (or are missing)"
        diff "$d/plain.sizes" "$d/profiled.sizes" | head -20
        status=1
        continue
    fi
    logs=$(cd "$d/logs" 2>/dev/null && printf '%s ' *)
    if [ "$logs" != "rank-000000.zst rank-000001.zst " ]; then
        echo "FAIL $mode: logs in $d/logs are [$logs]"
        status=1
        continue
    fi
    "$MERGE" --csv "$d/regions.csv" --ranks-csv "$d/ranks.csv" "$d/logs" >"$d/merge.out" 2>"$d/merge.err"
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$d/merge.err" ]; then
        echo "FAIL $mode: mpiscope-merge exits $rc"
        sed 's/^/    /' "$d/merge.err" | head -20
        status=1
        continue
    fi
    if ! "$PYTHON" "$CHECK_DIR/consistency.py" "$d/ranks.csv" 2 >"$d/consistency.out" 2>&1; then
        echo "FAIL $mode: the merged profile is not self-consistent"
        sed 's/^/    /' "$d/consistency.out" | head -30
        status=1
        continue
    fi
    echo "ok $mode: $(wc -l <"$d/plain.sizes") sizes; $(tail -n 1 "$d/consistency.out")"
done
exit $status
