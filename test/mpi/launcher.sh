#!/usr/bin/env bash
# The launcher, build/bin/mpiscope, under this flavour's own launcher command
# (mpiexec.mpich or mpirun.openmpi): it must recognize it, profile every rank,
# keep the program's exit status (3 here), write the reports into --dir, pass
# --merge-arg and --merge-args on to the merge, and refuse a non-empty
# directory, a command that is not an MPI launcher and an unknown option
# with a clear message. A command that is not a known launcher (a script
# that records whether it ran, given as the program, and a link named
# mpiexec to it) is refused without being run; so is a --flavour that is
# not the program's MPI, unless --force. `make install PREFIX=...` gives a
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

# Merge options pass through: one argument each (--merge-arg, a path with a
# blank), and a list split at blanks (--merge-args).
run profiled "$mpiscope" --dir "$dir/logs" --merge-arg --events-csv --merge-arg "$dir/events of the run.csv" \
    --merge-args "--no-waits --from 0" -- "${launch[@]}" "$dir/exit_status" 3
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
grep -q "^mpi:allreduce" "$dir/events of the run.csv" 2>/dev/null ||
    fail "--merge-arg --events-csv did not reach the merge: $(cat "$dir/profiled.err")"
# wait_states: null with --no-waits; the installed launcher's run below has them.
waits_of() { $PYTHON -c 'import json, sys; print(json.load(open(sys.argv[1]))["wait_states"] is None)' "$1"; }
[ "$(waits_of "$dir/logs/report.json")" = True ] || fail "--merge-args \"--no-waits ...\" did not reach the merge"

# Settings in the environment reach every rank (Open MPI: through -x).
MPISCOPE_MODE=summary run summary "$mpiscope" --dir "$dir/logs-summary" -- "${launch[@]}" "$dir/exit_status" 0
[ "$(cat "$dir/summary.status")" = 0 ] || fail "summary: status $(cat "$dir/summary.status"): $(cat "$dir/summary.err")"
grep -q "^  mode         summary" "$dir/summary.out" ||
    fail "MPISCOPE_MODE=summary did not reach the ranks: $(grep -m1 mode "$dir/summary.out")"

run again "$mpiscope" --dir "$dir/logs" -- "${launch[@]}" "$dir/exit_status"
[ "$(cat "$dir/again.status")" = 1 ] && grep -q "not empty" "$dir/again.err" ||
    fail "a non-empty --dir is not refused: $(cat "$dir/again.err")"
run notmpi "$mpiscope" --dir "$dir/other" -- true
[ "$(cat "$dir/notmpi.status")" = 1 ] && grep -q "true is not a known MPI launcher" "$dir/notmpi.err" ||
    fail "a command that is not an MPI launcher is not refused: $(cat "$dir/notmpi.err")"
# A program given without its launcher is never run to identify it.
printf '#!/bin/sh\necho ran >>"%s"\n' "$dir/probe.ran" >"$dir/probe.sh"
chmod +x "$dir/probe.sh"
ln -sf probe.sh "$dir/mpiexec"
rm -f "$dir/probe.ran"
for cmd in "$dir/probe.sh" "$dir/mpiexec"; do
    run probe "$mpiscope" --dir "$dir/probe" -- "$cmd" -n 2
    [ ! -e "$dir/probe.ran" ] || fail "$cmd: mpiscope ran it"
    [ "$(cat "$dir/probe.status")" = 1 ] && grep -q "is not a known MPI launcher.*it is a script (#!/bin/sh).*did not run it" "$dir/probe.err" ||
        fail "$cmd: not refused as a script that is not a launcher: $(cat "$dir/probe.err")"
done
run probe_elf "$mpiscope" --dir "$dir/probe" -- "$dir/exit_status" 0
[ "$(cat "$dir/probe_elf.status")" = 1 ] && grep -q "it is a program built for $flavour" "$dir/probe_elf.err" ||
    fail "an MPI program given as the launcher: not refused as one: $(cat "$dir/probe_elf.err")"
[ ! -e "$dir/probe" ] || fail "a refused command left $dir/probe"
run badopt "$mpiscope" --frobnicate -- "${launch[@]}" true
[ "$(cat "$dir/badopt.status")" = 1 ] && grep -q "unknown option --frobnicate" "$dir/badopt.err" ||
    fail "an unknown option is not refused"
"$mpiscope" --help | grep -q "^usage: mpiscope" || fail "--help"
"$mpiscope" --version | grep -Eq "^mpiscope [0-9]+\.[0-9]+\.[0-9]+$" || fail "--version"

# The library follows the program's MPI (--dry-run: the command only).
other=openmpi other_cc=${MPICC_OPENMPI:-mpicc.openmpi}
[ "$flavour" = openmpi ] && other=mpich other_cc=${MPICC_MPICH:-mpicc.mpich}
# pick NAME EXPECTED-FLAVOUR WARNINGS PROGRAM...: the library a dry run picks
pick() {
    local name=$1 want=$2 warnings=$3
    shift 3
    run "$name" "$mpiscope" --dry-run --dir "$dir/dry-$name" -- "${launch[@]}" "$@"
    [ "$(cat "$dir/$name.status")" = 0 ] || fail "$name: status $(cat "$dir/$name.status"): $(cat "$dir/$name.err")"
    grep -q "LD_PRELOAD[= ][^ ]*libmpiscope-$want.so" "$dir/$name.err" ||
        fail "$name: not libmpiscope-$want.so: $(cat "$dir/$name.err")"
    [ "$(grep -c 'warning: .* is built for' "$dir/$name.err")" = "$warnings" ] ||
        fail "$name: not $warnings warning(s) that the MPIs differ: $(cat "$dir/$name.err")"
    [ ! -e "$dir/dry-$name" ] || fail "$name: a dry run ran something"
}
pick same "$flavour" 0 "$dir/exit_status"
if command -v "$other_cc" >/dev/null 2>&1 && [ -e "$BUILD/lib/libmpiscope-$other.so" ]; then
    $other_cc -O1 "$root/test/mpi/launcher/exit_status.c" -o "$dir/exit_status_$other" || fail "cannot build the $other program"
    pick other "$other" 1 "$dir/exit_status_$other"
    # A --flavour that is not the program's MPI: refused, unless --force.
    run wrong "$mpiscope" --dry-run --flavour "$flavour" --dir "$dir/dry-wrong" -- "${launch[@]}" "$dir/exit_status_$other"
    [ "$(cat "$dir/wrong.status")" = 1 ] && grep -q "is built for $other, not $flavour.*--flavour $other.*--force" "$dir/wrong.err" ||
        fail "--flavour $flavour on an $other program is not refused: $(cat "$dir/wrong.err")"
    run forced "$mpiscope" --dry-run --flavour "$flavour" --force --dir "$dir/dry-forced" -- "${launch[@]}" "$dir/exit_status_$other"
    grep -q "libmpiscope-$flavour.so" "$dir/forced.err" ||
        fail "--flavour $flavour --force is not obeyed: $(cat "$dir/forced.err")"
    [ "$(grep -c "warning: .* is built for $other, but --flavour $flavour --force" "$dir/forced.err")" = 1 ] ||
        fail "--flavour $flavour --force on an $other program does not warn once: $(cat "$dir/forced.err")"
fi
printf '#!/bin/sh\nexec "%s" "$@"\n' "$dir/exit_status" >"$dir/wrapper.sh"
chmod +x "$dir/wrapper.sh"
pick wrapper "$flavour" 0 "$dir/wrapper.sh"
# mpi4py: the MPI its MPI module loads, for the interpreter and for a script.
for py in /usr/bin/python3 python3; do
    so=$("$py" -c 'import importlib.util as u; print(u.find_spec("mpi4py.MPI").origin)' 2>/dev/null) && break
done
if [ -n "${so:-}" ]; then
    case "$(ldd "$so")" in
        *libmpi.so.40*) py_mpi=openmpi ;;
        *) py_mpi=mpich ;;
    esac
    printf '#!%s\nfrom mpi4py import MPI\n' "$py" >"$dir/mpi4py_prog.py"
    chmod +x "$dir/mpi4py_prog.py"
    w=0
    [ "$py_mpi" = "$flavour" ] || w=1
    pick python "$py_mpi" $w "$py" "$dir/mpi4py_prog.py"
    pick pyscript "$py_mpi" $w "$dir/mpi4py_prog.py"
fi
run dryrun_bad "$mpiscope" --flavour frob -- "${launch[@]}" "$dir/exit_status"
[ "$(cat "$dir/dryrun_bad.status")" = 1 ] && grep -q "wants mpich or openmpi" "$dir/dryrun_bad.err" ||
    fail "an unknown --flavour is not refused"

# Installed elsewhere, the launcher finds its library and merge there.
# BUILD as the build named it (relative to the project when inside it):
# the same targets, already made, so nothing is built again.
build_rel=$(realpath -m --relative-to="$root" "$BUILD")
case "$build_rel" in ../*) build_rel=$BUILD ;; esac
make -s -C "$root" BUILD="$build_rel" SANITIZE="${SANITIZE:-}" install PREFIX="$dir/prefix" >"$dir/install.log" 2>&1 || fail "make install: $(tail -3 "$dir/install.log")"
run installed "$dir/prefix/bin/mpiscope" --dir "$dir/logs-installed" -- "${launch[@]}" "$dir/exit_status" 0
[ "$(cat "$dir/installed.status")" = 0 ] || fail "installed launcher: status $(cat "$dir/installed.status"): $(cat "$dir/installed.err")"
grep -q "LD_PRELOAD.*$dir/prefix/lib/libmpiscope-$flavour.so" "$dir/installed.err" ||
    fail "the installed launcher does not use the installed library: $(cat "$dir/installed.err")"
[ -s "$dir/logs-installed/regions.csv" ] || fail "installed launcher: no reports"
[ "$(waits_of "$dir/logs-installed/report.json")" = False ] || fail "installed launcher: no wait states by default"
echo ok
