#!/usr/bin/env bash
# LIKWID markers, counters and the roofline, end to end (run by run.sh):
#   real    test/mpi/likwid/markers.c built with -DLIKWID_PERFMON against the
#           installed liblikwid: exact likwid:<tag> counts per rank, silent;
#           with MPISCOPE_LIKWID=FLOPS_DP either exactly one "mpiscope:"
#           warning per rank naming LIKWID (no counter access, as on most
#           CI machines) and no counters, or no warning and counters;
#   perfmon the same program against a fake liblikwid (likwid/fake_likwid.c,
#           first on LD_LIBRARY_PATH) with MPISCOPE_LIKWID=FAKE_DP on two
#           CPUs: exact counters, metrics and roofline points; an unknown
#           group gives one warning per rank;
#   marker  the fake as under likwid-perfctr -m (LIKWID_EVENTS and
#           LIKWID_FILEPATH set): LIKWID's own evaluation at close, summed
#           over two threads, kept in the process or (as LIKWID 5.2) read
#           back from the marker file; without the close, the events of
#           every stop and no roofline point; the merge's --peak-* options.
# likwid_check.py holds the expected numbers.
#
# LIKWID_TEST_MODE=summary (likwid_summary.sh) records every run in summary
# mode: the same expectations hold.
#
#   likwid.sh FLAVOUR LIBRARY OUTDIR     (exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-python3}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
cc=${MPICC_MPICH:-mpicc.mpich}
[ "$flavour" = mpich ] || cc=${MPICC_OPENMPI:-mpicc.openmpi}

fail() {
    echo "FAIL: $*"
    exit 1
}

if ! printf '#include <likwid-marker.h>\n' | ${CC:-cc} -E -x c - >/dev/null 2>&1; then
    echo "likwid-marker.h not found (Debian likwid; scripts/deps.sh installs it)"
    exit 77
fi
if ! nm -D "$lib" 2>/dev/null | grep ' T likwid_markerStartRegion' >/dev/null; then
    echo "the preload library was built without LIKWID support"
    exit 77
fi
mkdir -p "$dir/fake"
cflags="-std=c11 -O2 -g -Wall -Wextra -Werror -DLIKWID_PERFMON"
${CC:-cc} -std=c11 -O2 -g -Wall -Wextra -Werror -fPIC -shared -Wl,-soname,liblikwid.so.5.2 \
    -o "$dir/fake/liblikwid.so.5.2" "$here/likwid/fake_likwid.c" -lpthread || fail "cannot build the fake liblikwid"
ln -sf liblikwid.so.5.2 "$dir/fake/liblikwid.so"
"$cc" $cflags -o "$dir/markers-real" "$here/likwid/markers.c" -llikwid -lpthread || fail "cannot build markers.c"
"$cc" $cflags -o "$dir/markers-fake" "$here/likwid/markers.c" -L"$dir/fake" -llikwid -lpthread ||
    fail "cannot build markers.c against the fake"
# Two CPUs of this process's affinity, for exactly two counter threads per rank.
cpus=$("$PYTHON" -c 'import os; c = sorted(os.sched_getaffinity(0)); print(",".join(map(str, c[:2])) if len(c) >= 2 else "")')
[ -n "$cpus" ] || { echo "fewer than two CPUs"; exit 77; }

# run NAME PRELOAD(0|1) PROGRAM [ARG...] (environment: ENV_ARGS) -> $dir/NAME.{out,err}, logs in $dir/NAME
# (RUN_NP: the number of ranks, 2 unless set.)
run() {
    local name=$1 pre=$2 d=$dir/$1 np=${RUN_NP:-2}
    shift 2
    rm -rf "$d"
    local envs=(MPISCOPE_DIR="$d" ${LIKWID_TEST_MODE:+MPISCOPE_MODE=$LIKWID_TEST_MODE} "${ENV_ARGS[@]}")
    [ "$pre" = 1 ] && envs+=(LD_PRELOAD="$lib")
    if [ "$flavour" = mpich ]; then
        local genv=()
        for kv in "${envs[@]}"; do genv+=(-genv "${kv%%=*}" "${kv#*=}"); done
        timeout -k 10 "$TEST_TIMEOUT" taskset -c "$cpus" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n "$np" "${genv[@]}" "$@" \
            >"$d.out" 2>"$d.err" || fail "$name: the program exits $? (see $d.err)"
    else
        local xenv=()
        for kv in "${envs[@]}"; do xenv+=(-x "$kv"); done
        timeout -k 10 "$TEST_TIMEOUT" taskset -c "$cpus" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root \
            --oversubscribe --bind-to none -np "$np" "${xenv[@]}" "$@" \
            >"$d.out" 2>"$d.err" || fail "$name: the program exits $? (see $d.err)"
    fi
}
# merge NAME [OPTIONS...]: --csv, --ranks-csv, --json, --roofline-csv and the text report of $dir/NAME
merge() {
    local name=$1 d=$dir/$1
    shift
    "$MERGE" --csv "$d.csv" --ranks-csv "$d.ranks.csv" --json "$d.json" --roofline-csv "$d.roofline.csv" \
        --text "$d.txt" --html "$d.html" "$@" "$d" 2>"$d.merge.err" || fail "$name: the merge exits $? (see $d.merge.err)"
}
check() {
    "$PYTHON" "$here/likwid_check.py" "$@" || fail "likwid_check.py $*"
}

ENV_ARGS=()
run real-plain 0 "$dir/markers-real"
run real 1 "$dir/markers-real"
cmp -s "$dir/real-plain.out" "$dir/real.out" || fail "real: stdout differs with the preload library"
merge real
check real "$dir/real"
ENV_ARGS=(MPISCOPE_LIKWID=FLOPS_DP)
run real-group 1 "$dir/markers-real"
merge real-group
check real-group "$dir/real-group"

ENV_ARGS=(LD_LIBRARY_PATH="$dir/fake" MPISCOPE_LIKWID=FAKE_DP)
run perfmon 1 "$dir/markers-fake"
merge perfmon
check perfmon "$dir/perfmon"
ENV_ARGS=(LD_LIBRARY_PATH="$dir/fake" MPISCOPE_LIKWID=NO_SUCH_GROUP)
run perfmon-unknown 1 "$dir/markers-fake"
merge perfmon-unknown
check perfmon-unknown "$dir/perfmon-unknown"

# LIKWID ends the process from inside perfmon_init (as the real one does
# when its access daemon does not start): the process ends with LIKWID's
# exit code, promptly, instead of waiting for the tool forever. One rank:
# with two, the launcher may kill the second when the first has ended, and
# report that signal instead.
ENV_ARGS=(LD_LIBRARY_PATH="$dir/fake" MPISCOPE_LIKWID=FAKE_DP FAKE_LIKWID_EXIT=3)
(RUN_NP=1 run exit-in-init 1 "$dir/markers-fake") >"$dir/exit-in-init.result"
grep -q "exits 3 " "$dir/exit-in-init.result" ||
    fail "exit-in-init: a LIKWID that calls exit(3) in perfmon_init: $(cat "$dir/exit-in-init.result")"

ENV_ARGS=(LD_LIBRARY_PATH="$dir/fake" LIKWID_EVENTS=FAKE_DP LIKWID_FILEPATH="$dir/marker.txt")
run marker 1 "$dir/markers-fake"
merge marker --peak-gflops 100
check marker "$dir/marker"
# As LIKWID 5.2, whose close keeps no results in the process.
ENV_ARGS+=(FAKE_LIKWID_52=1 LIKWID_THREADS=0,1)
run marker-52 1 "$dir/markers-fake"
merge marker-52 --peak-gflops 100
check marker "$dir/marker-52"
run marker-noclose 1 "$dir/markers-fake" noclose
merge marker-noclose
check marker-noclose "$dir/marker-noclose"
for bad in 0 -3 nan x; do
    "$MERGE" --peak-gbs "$bad" --roofline-csv /dev/null "$dir/marker" >/dev/null 2>"$dir/bad-peak.err"
    rc=$?
    [ $rc -eq 1 ] || fail "--peak-gbs $bad: exit $rc, expected 1"
    grep -q -- "--peak-gbs" "$dir/bad-peak.err" || fail "--peak-gbs $bad: no message naming the option"
done
echo "likwid: real, perfmon and marker runs as expected"
