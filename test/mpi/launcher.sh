#!/usr/bin/env bash
# The launcher, build/bin/mpiscope, under this flavour's own launcher command
# (mpiexec.mpich or mpirun.openmpi): it must recognize it, profile every rank,
# keep the program's exit status (3 here), write the reports into --dir, and
# refuse a non-empty directory, a command that is not an MPI launcher and an
# unknown option with a clear message. `make install PREFIX=...` gives a
# launcher that works from its installed place.
#
#   launcher.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
set -uo pipefail
flavour=$1 dir=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$root/build}
mpiscope=$BUILD/bin/mpiscope
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
PYTHON=${PYTHON:-python3}
if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich}
    launch=("${MPIEXEC_MPICH:-mpiexec.mpich}" -n 3)
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi}
    launch=("${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe -np 3)
fi

fail() {
    echo "FAIL: $*"
    exit 1
}

$cc -O1 "$root/test/mpi/launcher/exit_status.c" -o "$dir/exit_status" || fail "cannot build the program"

# run NAME LAUNCHER [ARGS...]: the launcher's stdout, stderr and status in $dir/NAME.*
run() {
    local name=$1
    shift
    timeout -k 10 "$TEST_TIMEOUT" "$@" >"$dir/$name.out" 2>"$dir/$name.err"
    echo $? >"$dir/$name.status"
}

run profiled "$mpiscope" --dir "$dir/logs" -- "${launch[@]}" "$dir/exit_status" 3
[ "$(cat "$dir/profiled.status")" = 3 ] || fail "exit status $(cat "$dir/profiled.status"), not the program's 3"
grep -q "^ranks 3$" "$dir/profiled.out" || fail "the program's output is missing"
grep -q "^mpiscope report: " "$dir/profiled.out" || fail "no text report on stdout"
for f in rank-000000.zst rank-000001.zst rank-000002.zst report.txt regions.csv ranks.csv callsites.csv report.json; do
    [ -s "$dir/logs/$f" ] || fail "$dir/logs/$f is missing"
done
$PYTHON - "$dir/logs/regions.csv" <<'PY' || fail "the region table does not hold 3 x 5 allreduce calls"
import csv, sys
rows = {r["name"]: r for r in csv.DictReader(open(sys.argv[1]))}
r = next(r for n, r in rows.items() if n.startswith("mpi:allreduce"))
assert r["ranks"] == "3" and r["calls"] == "15", r
PY
grep -q "logs and reports in $dir/logs/" "$dir/profiled.err" || fail "it does not say where the reports are"

# Settings in the environment reach every rank (Open MPI: through -x).
MPISCOPE_MODE=summary run summary "$mpiscope" --dir "$dir/logs-summary" -- "${launch[@]}" "$dir/exit_status" 0
[ "$(cat "$dir/summary.status")" = 0 ] || fail "summary: status $(cat "$dir/summary.status"): $(cat "$dir/summary.err")"
grep -q "^  mode         summary" "$dir/summary.out" ||
    fail "MPISCOPE_MODE=summary did not reach the ranks: $(grep -m1 mode "$dir/summary.out")"

run again "$mpiscope" --dir "$dir/logs" -- "${launch[@]}" "$dir/exit_status"
[ "$(cat "$dir/again.status")" = 1 ] && grep -q "not empty" "$dir/again.err" ||
    fail "a non-empty --dir is not refused: $(cat "$dir/again.err")"
run notmpi "$mpiscope" --dir "$dir/other" -- true
[ "$(cat "$dir/notmpi.status")" = 1 ] && grep -q "not MPICH's mpiexec" "$dir/notmpi.err" ||
    fail "a command that is not an MPI launcher is not refused: $(cat "$dir/notmpi.err")"
run badopt "$mpiscope" --frobnicate -- "${launch[@]}" true
[ "$(cat "$dir/badopt.status")" = 1 ] && grep -q "unknown option --frobnicate" "$dir/badopt.err" ||
    fail "an unknown option is not refused"
"$mpiscope" --help | grep -q "^usage: mpiscope" || fail "--help"
"$mpiscope" --version | grep -Eq "^mpiscope [0-9]+\.[0-9]+\.[0-9]+$" || fail "--version"

# Installed elsewhere, the launcher finds its library and merge there.
make -s -C "$root" BUILD="$BUILD" SANITIZE="${SANITIZE:-}" install PREFIX="$dir/prefix" >"$dir/install.log" 2>&1 || fail "make install: $(tail -3 "$dir/install.log")"
run installed "$dir/prefix/bin/mpiscope" --dir "$dir/logs-installed" -- "${launch[@]}" "$dir/exit_status" 0
[ "$(cat "$dir/installed.status")" = 0 ] || fail "installed launcher: status $(cat "$dir/installed.status"): $(cat "$dir/installed.err")"
grep -q "LD_PRELOAD.*$dir/prefix/lib/libmpiscope-$flavour.so" "$dir/installed.err" ||
    fail "the installed launcher does not use the installed library: $(cat "$dir/installed.err")"
[ -s "$dir/logs-installed/regions.csv" ] || fail "installed launcher: no reports"
echo ok
