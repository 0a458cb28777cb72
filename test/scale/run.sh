#!/usr/bin/env bash
# Many ranks, many files: synthetic runs written by the real writer
# (synth-logs), merged, and checked call by call against the synthesizer's
# rules (check_synth.py): 64 ranks with 3 threads, 1024 ranks, and a rank
# count that does not divide the events. Then the wait-state analysis in
# bounded memory (bounded_waits.sh), and the MPI merge's process 0 under a
# memory bound on the same run. `make scale-tests` runs it.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
synth=$BUILD/test/scale/synth-logs
merge=$BUILD/bin/mpiscope-merge
out=$BUILD/test/scale
mkdir -p "$out"
pass=0 fail=0
check() {  # name ranks events regions threads
    local name=$1 ranks=$2 events=$3 regions=$4 threads=$5 d=$out/$1
    rm -rf "$d" "$d.out" && mkdir -p "$d.out"
    if "$synth" --ranks "$ranks" --events "$events" --regions "$regions" --threads "$threads" --jobs 2 "$d" >/dev/null &&
        "$merge" --csv "$d.out/regions.csv" --ranks-csv "$d.out/ranks.csv" --matrix-csv "$d.out/matrix.csv" \
            "$d" 2>"$d.out/stderr" &&
        [ ! -s "$d.out/stderr" ] &&
        python3 test/scale/check_synth.py "$ranks" "$events" "$regions" "$d.out/regions.csv" "$d.out/ranks.csv" \
            "$d.out/matrix.csv"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $name (files in $d.out)"
        cat "$d.out/stderr" 2>/dev/null | head -5
        fail=$((fail + 1))
    fi
    rm -rf "$d"
}
check r64 64 2000000 16 3
check r1024 1024 300000 4 1
check r100 100 99999 7 2
check r3-short 3 5 2 1
if BUILD=$BUILD bash test/scale/bounded_waits.sh; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
fi
echo "scale: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
