#!/usr/bin/env bash
# mpiscope-merge --otf2: profiles real MPI programs (blocking and
# non-blocking point-to-point, rooted collectives, derived communicators)
# at 2 and 4 ranks, writes each run as an OTF2 archive, reads it back with
# otf2-print and checks it against the run's --ranks-csv (otf2_check.py):
# one region per MPI function as Score-P names them, every call an
# Enter/Leave pair, per rank the message events with the peers, tags,
# communicators and sizes of the calls, sends and receives pair up,
# requests complete, collectives carry their operation, root and
# communicator.
# Skipped when the merge was built without libotf2 or otf2-print is missing.
#
#   otf2_export.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
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

if ! command -v otf2-print >/dev/null 2>&1; then
    echo "otf2-print not found (Debian otf2-tools; scripts/deps.sh installs it)"
    exit 77
fi
"$MERGE" --otf2 "$dir/probe" "$dir/no-such-logs" 2>"$dir/probe.err"
if grep -q "not built" "$dir/probe.err"; then
    echo "mpiscope-merge was built without libotf2 (Debian libotf2-trace-dev)"
    exit 77
fi

# run NAME N PROGRAM: profile PROGRAM at N ranks into $dir/NAME.
run() {
    local name=$1 n=$2 exe=$3 d=$dir/$1
    if [ "$flavour" = mpich ]; then
        timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n "$n" -genv LD_PRELOAD "$lib" \
            -genv MPISCOPE_DIR "$d" "$exe" >"$d.out" 2>"$d.err" || fail "$name: the program exits $? (see $d.err)"
    else
        timeout -k 10 "$TEST_TIMEOUT" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe \
            -np "$n" -x "LD_PRELOAD=$lib" -x "MPISCOPE_DIR=$d" "$exe" >"$d.out" 2>"$d.err" ||
            fail "$name: the program exits $? (see $d.err)"
    fi
}

# check NAME MIN_MESSAGES MIN_COLLECTIVES: merge run NAME to CSV and OTF2, print, compare.
check() {
    local name=$1 d=$dir/$1
    "$MERGE" --ranks-csv "$d.csv" --otf2 "$d.otf2" "$d" 2>"$d.merge.err" || fail "$name: mpiscope-merge exits $?: $(cat "$d.merge.err")"
    [ -s "$d.otf2/traces.otf2" ] || fail "$name: no $d.otf2/traces.otf2"
    otf2-print "$d.otf2/traces.otf2" >"$d.print" 2>"$d.print.err" || fail "$name: otf2-print exits $?: $(head -5 "$d.print.err")"
    ! grep -qi "warning\|error" "$d.print.err" || fail "$name: otf2-print complains: $(head -5 "$d.print.err")"
    otf2-print -G "$d.otf2/traces.otf2" >"$d.defs" 2>&1 || fail "$name: otf2-print -G exits $?"
    ! grep -qi "warning\|error" "$d.defs" || fail "$name: otf2-print -G complains: $(grep -i "warning\|error" "$d.defs" | head -3)"
    $PYTHON "$here/otf2_check.py" "$d.csv" "$d.print" "$d.defs" --min-messages "$2" --min-collectives "$3" >"$d.check" ||
        fail "$name: the archive does not match the run (see $d.print):"$'\n'"$(cat "$d.check")"
    echo "$name: $(cat "$d.check")"
}

for t in p2p_nonblocking p2p_pingpong halo coll_rooted comm_create; do
    $cc -std=c11 -O2 -g -Wno-stringop-overflow -I"$here" -o "$dir/$t" "$here/$t.c" -lm >"$dir/$t.build" 2>&1 ||
        fail "cannot build $t: $(head -5 "$dir/$t.build")"
done
for n in 2 4; do
    run nonblocking-$n $n "$dir/p2p_nonblocking"
    check nonblocking-$n $((n * 8)) $n
    run halo-$n $n "$dir/halo"
    check halo-$n $((n * 60)) $((n * 9))
done
run pingpong-2 2 "$dir/p2p_pingpong"
check pingpong-2 2 0
run rooted-4 4 "$dir/coll_rooted"
check rooted-4 0 40
run comms-4 4 "$dir/comm_create"
check comms-4 0 40
# The communicators of the comm_create run: the even ranks' one has 2 members.
grep -q "^GROUP .*Type: COMM_GROUP.*2 Members: 0 (.*), 2 (" "$dir/comms-4.defs" ||
    fail "comms-4: no communicator group of world ranks 0 and 2"

# An archive is never written over.
"$MERGE" --otf2 "$dir/halo-4.otf2" "$dir/halo-4" 2>"$dir/again.err" && fail "a second --otf2 into the same DIR succeeded"
grep -q "already exists" "$dir/again.err" || fail "a second --otf2 into the same DIR: $(cat "$dir/again.err")"
echo "ok"
