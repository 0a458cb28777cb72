#!/usr/bin/env bash
# Where the writer thread runs (MPISCOPE_WRITER_CPU, pmpi/writer_cpu.h), seen
# from inside the program (writer_cpu/affinity.c prints each thread's CPU
# list). One rank bound to CPU 0 (taskset): exactly one thread, the
# writer, runs on CPU 1, no rank's CPU; with MPISCOPE_WRITER_CPU=off none
# does. Unbound (MPICH binds nothing), nothing moves. Under Open MPI, 2
# ranks each bound to a core: no writer lands on a rank's CPU (on this
# 2-CPU machine none is free, so nothing moves). The output and exit code
# are the program's own throughout. Needs 2 CPUs.
#
#   writer_cpu.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
[ "$(nproc)" -ge 2 ] || { echo "needs 2 CPUs"; exit 77; }
command -v taskset >/dev/null || { echo "needs taskset"; exit 77; }

fail() {
    echo "FAIL: $*"
    exit 1
}

if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich}
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi}
fi
$cc -O2 -Wall -Wextra -Werror "$here/writer_cpu/affinity.c" -o "$dir/affinity" || fail "cannot build affinity"

# run NAME N TASKSET-CPUS|"" WRITER_CPU|"" : the program with the library
# into $dir/NAME (stdout in out, the threads' lines sorted).
run() {
    local name=$1 n=$2 cpus=$3 wcpu=$4 d=$dir/$1
    mkdir -p "$d"
    local pre=() env=()
    [ -z "$cpus" ] || pre=(taskset -c "$cpus")
    if [ "$flavour" = mpich ]; then
        env=(-genv LD_PRELOAD "$lib" -genv MPISCOPE_DIR "$d/logs")
        [ -z "$wcpu" ] || env+=(-genv MPISCOPE_WRITER_CPU "$wcpu")
        timeout -k 10 "$TEST_TIMEOUT" "${pre[@]}" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n "$n" "${env[@]}" \
            "$dir/affinity" >"$d/out" 2>"$d/err"
    else
        env=(-x "LD_PRELOAD=$lib" -x "MPISCOPE_DIR=$d/logs")
        [ -z "$wcpu" ] || env+=(-x "MPISCOPE_WRITER_CPU=$wcpu")
        timeout -k 10 "$TEST_TIMEOUT" "${pre[@]}" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root \
            -np "$n" "${env[@]}" "$dir/affinity" >"$d/out" 2>"$d/err"
    fi
    local rc=$?
    [ $rc -eq 0 ] || fail "$name: the program exits $rc: $(head -5 "$d/err")"
    ! grep -q "mpiscope:" "$d/err" || fail "$name: diagnostics: $(head -5 "$d/err")"
    grep -qx done "$d/out" || fail "$name: the program's output is not complete: $(cat "$d/out")"
}

# count NAME PATTERN: lines of NAME's threads matching PATTERN.
count() {
    grep -c -E "$2" "$dir/$1/out"
}

run bound 1 0 ""
[ "$(count bound '^rank 0 main 0$')" = 1 ] || fail "bound: the main thread is not on CPU 0: $(cat "$dir/bound/out")"
[ "$(count bound '^rank 0 thread 1$')" = 1 ] ||
    fail "bound: not exactly one thread (the writer) on CPU 1: $(cat "$dir/bound/out")"
[ "$(count bound ' 0-1$')" = 0 ] || fail "bound: a thread runs on every CPU: $(cat "$dir/bound/out")"

run bound_off 1 0 off
[ "$(count bound_off '^rank 0 thread 1$')" = 0 ] ||
    fail "MPISCOPE_WRITER_CPU=off: a thread moved to CPU 1: $(cat "$dir/bound_off/out")"

# moved NAME: "ok" when every thread runs where its rank's main thread
# does, or on a CPU of its own that no rank's main thread runs on.
moved() {
    "${PYTHON:-python3}" - "$dir/$1/out" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith("rank ")]
mains = {r: c for _, r, who, c in rows if who == "main"}
bad = [l for l in rows if l[3] != mains.get(l[1]) and l[3] in mains.values()]
print("ok" if not bad else "threads on another rank's CPU: %s" % bad)
PY
}

if [ "$flavour" = mpich ]; then
    # mpiexec.mpich binds nothing: every thread keeps every CPU.
    run unbound 2 "" ""
    [ "$(count unbound ' thread ')" -gt 0 ] || fail "unbound: no threads listed"
    main=$(awk '$3 == "main" {print $4; exit}' "$dir/unbound/out")
    [ "$(awk -v m="$main" '$1 == "rank" && $4 != m' "$dir/unbound/out" | wc -l)" = 0 ] ||
        fail "unbound: a thread was moved: $(cat "$dir/unbound/out")"
else
    # Open MPI binds each of 2 ranks to a core of its own: a writer goes to
    # a CPU that neither rank is bound to, or stays.
    run both_bound 2 "" ""
    r=$(moved both_bound)
    [ "$r" = ok ] || fail "2 bound ranks: $r"
fi
echo "writer_cpu: all as expected"
