#!/usr/bin/env bash
# Summary mode (MPISCOPE_MODE=summary) on real runs of summary/loop.c:
#   - at 1, 2 and 4 ranks: exact calls and bytes per region and rank, the
#     statistics' sanity (min <= p50 <= p95 <= p99 <= max, mean x calls =
#     total), every rank's log in summary mode, the text report saying so;
#     summary_check.py holds the expectations;
#   - at 2 ranks, the same program recorded as a trace: the same
#     communication matrix and call sites (calls per site) from both;
#   - the outputs made of single calls (--events-csv, --trace) are refused
#     with one message and exit status 1, the HTML report says there is no
#     timeline;
#   - log size: 10 times more calls give logs at most 20 % larger (the
#     sketches widen as rarer durations appear), where a trace grows more
#     than 3 times (about 5 times here: its header and load map are fixed).
#
#   summary.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
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
status=0
problem() {
    echo "FAIL: $*"
    status=1
}

mkdir -p "$dir"
"$cc" -std=c11 -O2 -g -Wall -Wextra -Werror -o "$dir/loop" "$here/summary/loop.c" ||
    { echo "FAIL: summary/loop.c does not compile"; exit 1; }

# run MODE N ITERATIONS CASE_DIR: profile loop at N ranks into CASE_DIR/logs.
run() {
    local mode=$1 n=$2 iters=$3 d=$4 rc
    rm -rf "$d"
    mkdir -p "$d"
    if [ "$flavour" = mpich ]; then
        timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n "$n" -genv LD_PRELOAD "$lib" \
            -genv MPISCOPE_DIR "$d/logs" -genv MPISCOPE_MODE "$mode" "$dir/loop" "$iters" >"$d/out" 2>"$d/err"
    else
        timeout -k 10 "$TEST_TIMEOUT" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe \
            -np "$n" -x "LD_PRELOAD=$lib" -x "MPISCOPE_DIR=$d/logs" -x "MPISCOPE_MODE=$mode" "$dir/loop" "$iters" \
            >"$d/out" 2>"$d/err"
    fi
    rc=$?
    [ $rc = 0 ] || { problem "$mode -n $n: the program exits $rc: $(head -5 "$d/err")"; return 1; }
    ! grep -q "mpiscope:" "$d/err" || { problem "$mode -n $n: diagnostics: $(head -5 "$d/err")"; return 1; }
    return 0
}

iters=2000
for n in 1 2 4; do
    d=$dir/exact-$n
    run summary "$n" "$iters" "$d" || continue
    if ! "$MERGE" --csv "$d/regions.csv" --ranks-csv "$d/ranks.csv" --json "$d/report.json" "$d/logs" \
        >"$d/merge.out" 2>"$d/merge.err" || [ -s "$d/merge.err" ]; then
        problem "-n $n: mpiscope-merge fails: $(head -5 "$d/merge.err")"
        continue
    fi
    "$MERGE" "$d/logs" >"$d/report.txt" 2>>"$d/merge.err"
    grep -q '^  mode         summary (per-region aggregates' "$d/report.txt" ||
        problem "-n $n: the text report does not say the mode"
    "$PYTHON" "$here/summary_check.py" "$n" "$iters" "$d" >"$d/check.out" 2>&1 ||
        problem "-n $n: $(cat "$d/check.out")"
    echo "summary -n $n: $(tail -1 "$d/check.out")"
done

# The matrix and the call sites, as from a trace of the same program.
if [ -d "$dir/exact-2/logs" ] && run trace 2 "$iters" "$dir/trace-2"; then
    for m in summary trace; do
        src=$dir/exact-2
        [ $m = trace ] && src=$dir/trace-2
        "$MERGE" --matrix-csv "$dir/matrix-$m.csv" --callsites-csv "$dir/sites-$m.full.csv" "$src/logs" 2>/dev/null ||
            problem "--matrix-csv/--callsites-csv fail on the $m logs"
        cut -d, -f1-6 "$dir/sites-$m.full.csv" | sort >"$dir/sites-$m.csv"
    done
    cmp -s "$dir/matrix-summary.csv" "$dir/matrix-trace.csv" ||
        problem "the communication matrix differs between summary and trace: $(diff "$dir/matrix-summary.csv" "$dir/matrix-trace.csv" | head -5)"
    [ "$(wc -l <"$dir/sites-summary.csv")" -gt 5 ] || problem "too few call sites: $(cat "$dir/sites-summary.csv")"
    cmp -s "$dir/sites-summary.csv" "$dir/sites-trace.csv" ||
        problem "the call sites differ between summary and trace: $(diff "$dir/sites-summary.csv" "$dir/sites-trace.csv" | head -5)"
    echo "summary and trace at 2 ranks: the same matrix ($(($(wc -l <"$dir/matrix-trace.csv") - 1)) pairs) and call sites ($(($(wc -l <"$dir/sites-trace.csv") - 1)) rows)"
fi

# No timeline: one message, exit status 1, nothing written.
d=$dir/exact-2
if [ -d "$d/logs" ]; then
    "$MERGE" --events-csv "$d/events.csv" --trace "$d/trace.json" --csv "$d/again.csv" "$d/logs" \
        >"$d/nt.out" 2>"$d/nt.err"
    rc=$?
    [ $rc = 1 ] || problem "--events-csv/--trace on summary logs: exit status $rc, not 1"
    [ "$(grep -c 'recorded in summary mode (MPISCOPE_MODE=summary) and has no timeline: --events-csv --trace not written' "$d/nt.err")" = 1 ] ||
        problem "--events-csv/--trace on summary logs: no single message: $(cat "$d/nt.err")"
    [ ! -e "$d/events.csv" ] && [ ! -e "$d/trace.json" ] || problem "--events-csv/--trace wrote a file in summary mode"
    cmp -s "$d/regions.csv" "$d/again.csv" || problem "--csv differs when written with --trace"
    "$MERGE" --html "$d/report.html" "$d/logs" 2>"$d/html.err" || problem "--html fails in summary mode"
    grep -q '"summary":true' "$d/report.html" || problem "the HTML report does not mark the run as summary mode"
fi

# Log size against run length.
size_of() { cat "$1"/logs/rank-*.zst | wc -c; }
for mode in summary trace; do
    run "$mode" 2 2000 "$dir/size-$mode-small" && run "$mode" 2 20000 "$dir/size-$mode-large" || continue
    small=$(size_of "$dir/size-$mode-small") large=$(size_of "$dir/size-$mode-large")
    echo "$mode: $small bytes for 2000 iterations, $large bytes for 20000"
    if [ "$mode" = summary ] && [ $((large * 100)) -gt $((small * 120)) ]; then
        problem "summary logs grow from $small to $large bytes with 10 times the calls"
    fi
    if [ "$mode" = trace ] && [ "$large" -lt $((small * 3)) ]; then
        problem "trace logs grow from $small to $large bytes only: the size test says nothing"
    fi
done
exit $status
