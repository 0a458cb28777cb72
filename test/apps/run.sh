#!/usr/bin/env bash
# Real programs that nobody here wrote, unmodified, profiled through the
# launcher; each run's reports come from one merge, and a checker
# (NAME_check.py, on sites_check.py) compares the report of MPI time by
# call site with the other reports of that merge:
#   lammps     LAMMPS in.melt (Debian lammps, lammps-examples; Open MPI),
#              100 steps at 2 and 4 ranks, also without the profiler
#   scalapack  ScaLAPACK's LU tester xdlu (Debian scalapack-mpi-test;
#              MPICH) at 4 ranks, on LU.dat (4 x 4 to 17 x 13, grids 2 x 2, 1 x 4)
#   mpi4py     ring.py (python3-mpi4py; Open MPI) at 4 ranks, as a trace
#              and in summary mode; sites_mutants.py then makes sure that
#              the checks refuse the trace's reports changed in one place
# Each run's reports are also merged by mpiscope-merge-mpich on 2 processes
# (where it is built): the same bytes. A program that is not installed is
# skipped with a line that says so.
#   run.sh [NAME...]   (make app-tests; exit 77 when every one was skipped)
set -uo pipefail
BUILD=${BUILD:-build}
PYTHON=${PYTHON:-python3}
MPIRUN_OPENMPI=${MPIRUN_OPENMPI:-mpirun.openmpi}
MPIEXEC_MPICH=${MPIEXEC_MPICH:-mpiexec.mpich}
TIMEOUT=${APP_TIMEOUT:-120}
here=$(cd "$(dirname "$0")" && pwd)
launcher=$(cd "$BUILD/bin" && pwd)/mpiscope
merge=$(cd "$BUILD/bin" && pwd)/mpiscope-merge
pmerge=$(cd "$BUILD/bin" && pwd)/mpiscope-merge-mpich
ompi=("$MPIRUN_OPENMPI" --allow-run-as-root --oversubscribe)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
failed=0 ran=0 skipped=0

skip() { echo "SKIP: $1"; skipped=$((skipped + 1)); }
bad() { echo "FAIL: $1"; failed=1; }

# profile DIR CMD...: in DIR, the launcher runs CMD (its output in
# DIR/profiled.txt, logs in DIR/logs), then one merge writes every report
# the checkers read.
profile() {
    local d=$1; shift
    if ! (cd "$d" && timeout -k 10 "$TIMEOUT" "$launcher" --dir logs -- "$@" >profiled.txt 2>&1); then
        bad "$d: the profiled run failed: $*"; tail -20 "$d/profiled.txt"; return 1
    fi
    if ! "$merge" --sites-csv "$d/sites.csv" --callsites-csv "$d/callsites.csv" --csv "$d/regions.csv" \
        --json "$d/report.json" --text "$d/report.txt" --html "$d/report.html" "$d/logs" 2>"$d/merge.err"; then
        bad "$d: the merge failed"; cat "$d/merge.err"; return 1
    fi
    # The MPI merge over 2 processes gives the same bytes.
    [ -x "$pmerge" ] && command -v "$MPIEXEC_MPICH" >/dev/null || return 0
    mkdir -p "$d/mpi"
    timeout -k 10 "$TIMEOUT" "$MPIEXEC_MPICH" -n 2 "$pmerge" --sites-csv "$d/mpi/sites.csv" --json "$d/mpi/report.json" \
        --text "$d/mpi/report.txt" "$d/logs" 2>"$d/mpi/merge.err" || { bad "$d: the MPI merge failed"; cat "$d/mpi/merge.err"; }
    for f in sites.csv report.json report.txt; do
        cmp -s "$d/$f" "$d/mpi/$f" || bad "$d: $f of the MPI merge (2 processes) differs from the merge's"
    done
}

# check NAME_check.py DIR ARGS...
check() {
    local c=$1; shift
    ran=$((ran + 1))
    PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$here "$PYTHON" "$here/$c" "$@" || failed=1
}

lammps() {
    local lmp input np d
    lmp=$(command -v lmp) || { skip "lammps: no lmp (Debian package lammps)"; return; }
    input=$(ls /usr/share/lammps/examples/melt/in.melt /usr/share/doc/lammps*/examples/melt/in.melt 2>/dev/null | head -1)
    [ -n "$input" ] || { skip "lammps: no in.melt (Debian package lammps-examples)"; return; }
    command -v "$MPIRUN_OPENMPI" >/dev/null || { skip "lammps: no $MPIRUN_OPENMPI"; return; }
    for np in 2 4; do
        d=$t/lammps-$np
        mkdir -p "$d"
        # The example's 250 steps shortened to 100: under a second.
        sed -E 's/^run[[:space:]]+[0-9]+/run 100/' "$input" >"$d/in.melt"
        grep -q '^run 100$' "$d/in.melt" || { bad "lammps: $input has no run line to shorten"; return; }
        if ! (cd "$d" && timeout -k 10 "$TIMEOUT" "${ompi[@]}" -np $np "$lmp" -in in.melt >plain.txt 2>&1); then
            bad "lammps: in.melt at $np ranks failed without the profiler"; tail -20 "$d/plain.txt"; continue
        fi
        profile "$d" "${ompi[@]}" -np $np "$lmp" -in in.melt && check lammps_check.py "$d"
    done
}

scalapack() {
    local xdlu d
    xdlu=$(ls /usr/lib/*/scalapack/mpich-tests/xdlu 2>/dev/null | head -1)
    [ -n "$xdlu" ] || { skip "scalapack: no xdlu for MPICH (Debian package scalapack-mpi-test)"; return; }
    command -v "$MPIEXEC_MPICH" >/dev/null || { skip "scalapack: no $MPIEXEC_MPICH"; return; }
    d=$t/scalapack
    mkdir -p "$d"
    cp "$here/LU.dat" "$d/"
    profile "$d" "$MPIEXEC_MPICH" -n 4 "$xdlu" && check scalapack_check.py "$d"
}

mpi4py() {
    local py= p d
    for p in ${PYTHON_MPI4PY:-} /usr/bin/python3 python3; do
        if "$p" -c 'import mpi4py.MPI' >/dev/null 2>&1; then py=$p; break; fi
    done
    [ -n "$py" ] || { skip "mpi4py: no python3 that imports mpi4py (Debian package python3-mpi4py)"; return; }
    command -v "$MPIRUN_OPENMPI" >/dev/null || { skip "mpi4py: no $MPIRUN_OPENMPI"; return; }
    for mode in trace summary; do
        d=$t/mpi4py-$mode
        mkdir -p "$d"
        MPISCOPE_MODE=$mode profile "$d" "${ompi[@]}" -np 4 "$py" "$here/ring.py" 50 || continue
        if [ $mode = trace ]; then
            check ring_check.py "$d" 50 && check sites_mutants.py "$d"
        else
            check ring_check.py "$d" 50 --like "$t/mpi4py-trace"
        fi
    done
}

for name in "${@:-lammps scalapack mpi4py}"; do
    for n in $name; do
        case $n in
            lammps | scalapack | mpi4py) $n ;;
            *) echo "run.sh: unknown program $n (lammps, scalapack, mpi4py)" >&2; exit 2 ;;
        esac
    done
done
echo "app tests: $ran checked, $skipped skipped$([ $failed = 0 ] || echo ", some FAILED")"
[ $failed = 0 ] || exit 1
[ $ran -gt 0 ] || exit 77
exit 0
