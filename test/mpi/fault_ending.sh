#!/usr/bin/env bash
# How a run ended (docs/RELIABILITY.md, "How the run ended"). faults/ending.c
# makes 300 allreduces on every rank, then (MODE, 2 ranks unless said):
#   abort      rank 1 calls MPI_Abort(3), rank 0 waits in MPI_Barrier
#   segv       rank 1 writes through a null pointer
#   sigabrt    rank 1 calls abort()
#   kill       rank 1 raises SIGKILL: its end is unknown; the launcher
#              kills rank 0 at once, which may lose the calls of its last
#              flush interval (a log cut by SIGKILL)
#   deadlock   ranks 0 and 1 wait in MPI_Recv for each other, run through
#              `mpiscope --hang-timeout 1 --hang-kill`, which interrupts it
#              (without the library: `timeout -s INT` after 4 s); under
#              Open MPI at 4 ranks, ranks 2 and 3 waiting in MPI_Barrier
#   waitall    the same deadlock through MPI_Irecv, MPI_Issend and
#              MPI_Waitall: the cycle goes through the requests' peers
#   fabort     faults/ending_f.f90 (Fortran, use mpi): rank 1 calls
#              MPI_ABORT(3) after its allreduces
#   abort again in summary mode (MPISCOPE_MODE=summary): the snapshots
#              keep every allreduce, rank 0's barrier and rank 1's abort
#   spin       4 ranks: rank 3 computes for ever while 0-2 wait in
#              MPI_Barrier, MPISCOPE_HANG_S=1, interrupted after 4 s
# Each mode also runs without the library: the launcher's exit status and
# the program's output (sorted) are the same. fault_ending_check.py then
# reads the merge's JSON, text and HTML: every surviving rank's log keeps all its
# allreduces (the program's own count; but after SIGKILL), the ending names the rank, its
# cause and its call site (the source line marked in ending.c), the
# deadlock's cycle, the rank the barrier waits for and its last call.
# Under MPICH the MPI-parallel merge gives the waitall deadlock's JSON and
# text byte for byte.
#
#   fault_ending.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
source "$(dirname "$0")/faults/common.sh"
cc=$MPICC_MPICH
[ "$flavour" = mpich ] || cc=$MPICC_OPENMPI
"$cc" -std=c11 -O1 -g -Wall -Wextra -Werror -o "$dir/ending" "$faults_src/ending.c" ||
    { echo "FAIL: ending.c does not compile"; exit 1; }
fc=${MPIF90_MPICH:-mpif90.mpich}
[ "$flavour" = mpich ] || fc=${MPIF90_OPENMPI:-mpif90.openmpi}
"$fc" -O1 -g -o "$dir/ending_f" "$faults_src/ending_f.f90" ||
    { echo "FAIL: ending_f.f90 does not compile"; exit 1; }

# program MODE: the command line of MODE's program (without ITERS).
program() {
    if [ "$1" = fabort ]; then
        echo "$dir/ending_f"
    else
        echo "$dir/ending $1"
    fi
}
# (Open MPI's launcher gives a rank 1 s between its SIGTERM and SIGKILL:
# the watchdog's record stands where a handler is cut off.)

# one MODE N TIME [ITERS [RECORDING]]: runs MODE at N ranks, with and
# without the library at once (TIME: seconds before `timeout -s INT`, 0:
# none), recording in trace mode or RECORDING (summary), and checks them.
one() {
    local mode=$1 n=$2 t=$3 iters=${4:-100} rec=${5:-trace} d=$dir/$1
    [ "$rec" = trace ] || d=$dir/$1-$rec
    rm -rf "$d"
    mkdir -p "$d"
    local lim=$TEST_TIMEOUT sig=TERM try rc plain_rc
    [ "$t" != 0 ] && lim=$t sig=INT
    # Hydra now and then reports another rank's end first (a rank it
    # killed: "Terminated (signal 15)"), with or without the library: the
    # pair runs again once when the statuses differ.
    for try in 1 2; do
        rm -rf "$d/logs"
        TEST_TIMEOUT=$lim launch_sig "$n" "" $sig $(program "$mode") "$iters" >"$d/plain.out" 2>"$d/plain.err" &
        local plain=$!
        # Spinning ranks run alone: beside the plain run's, 8 processes
        # spin on 2 cores, and a rank's handler may not write its ending
        # within the second Open MPI's launcher gives it before SIGKILL.
        if [ "$mode" = spin ]; then
            wait $plain
            plain_rc=$?
        fi
        extra_env="MPISCOPE_HANG_S=1 MPISCOPE_MODE=$rec" TEST_TIMEOUT=$lim launch_sig "$n" "$d/logs" $sig $(program "$mode") \
            "$iters" >"$d/profiled.out" 2>"$d/profiled.err"
        rc=$?
        if [ "$mode" != spin ]; then
            wait $plain
            plain_rc=$?
        fi
        [ "$rc" = "$plain_rc" ] && break
        echo "$mode -n $n: the launcher exits $rc with the preload library, $plain_rc without; again ($try)"
    done
    check "$mode" "$n" "$iters" "$d" "$rc" "$plain_rc"
}

# hang_kill MODE N: MODE through the launcher, `mpiscope --hang-timeout 1
# --hang-kill`, which interrupts the hung run itself (SIGINT to the MPI
# launcher); without the library, the MPI launcher interrupted the same way
# after 4 s (timeout --preserve-status: its own status).
hang_kill() {
    local mode=$1 n=$2 iters=100 d=$dir/$1
    rm -rf "$d"
    mkdir -p "$d"
    local cmd=("$MPIEXEC_MPICH" -n "$n")
    [ "$flavour" = mpich ] || cmd=("$MPIRUN_OPENMPI" --allow-run-as-root --oversubscribe -np "$n")
    timeout --preserve-status -s INT -k 10 4 "${cmd[@]}" "$dir/ending" "$mode" $iters >"$d/plain.out" 2>"$d/plain.err" &
    local plain=$!
    timeout -k 10 "$TEST_TIMEOUT" "$(dirname "$MERGE")/mpiscope" --flavour "$flavour" --dir "$d/logs" --hang-timeout 1 \
        --hang-kill -- "${cmd[@]}" "$dir/ending" "$mode" $iters >"$d/profiled.out" 2>"$d/profiled.err"
    local rc=$?
    wait $plain
    local plain_rc=$?
    # Hydra interrupted exits 0 or 2 (a rank's death by SIGINT), whichever
    # it saw first, with or without the library.
    if [ "$flavour" = mpich ] && { [ $rc = 0 ] || [ $rc = 2 ]; } && { [ $plain_rc = 0 ] || [ $plain_rc = 2 ]; }; then
        plain_rc=$rc
    fi
    grep -q "the run seems hung; interrupting it" "$d/profiled.err" ||
        problem "$mode -n $n: mpiscope --hang-kill did not interrupt the run (files in $d)"
    sed -i -E '/^mpiscope: (.* -genv LD_PRELOAD|.* -x LD_PRELOAD=|no log has grown|logs and reports in)/d' "$d/profiled.err"
    check "$mode" "$n" "$iters" "$d" "$rc" "$plain_rc"
}

# check MODE N ITERS DIR RC PLAIN_RC: the two runs alike, the report right.
check() {
    local mode=$1 n=$2 iters=$3 d=$4 rc=$5 plain_rc=$6
    echo "$mode -n $n: the launcher exits $rc with the preload library, $plain_rc without"
    [ "$rc" = "$plain_rc" ] || problem "$mode -n $n: exit status $rc with the preload library, $plain_rc without"
    # A launcher that kills ranks may lose what they printed last, with or
    # without the library: every line of the run without it is there.
    [ -z "$(comm -23 <(grep '^rank' "$d/plain.out" | sort) <(grep '^rank' "$d/profiled.out" | sort))" ] ||
        problem "$mode -n $n: the program's output differs with the preload library"
    grep 'mpiscope:' "$d/profiled.err" && problem "$mode -n $n: the preload library printed diagnostics"
    if ! "$MERGE" --json "$d/report.json" --text "$d/report.txt" --html "$d/report.html" "$d/logs" 2>"$d/merge.err"; then
        problem "$mode -n $n: mpiscope-merge fails on the logs (files in $d)"
        return
    fi
    local src=$faults_src/ending.c
    [ "$mode" = fabort ] && src=$faults_src/ending_f.f90
    "$PYTHON" "$faults_src/../fault_ending_check.py" "$mode" "$n" "$iters" "$d" "$src" || status=1
    if [ "$mode" = waitall ] && [ "$flavour" = mpich ] && [ -x "${MERGE}-mpich" ]; then
        timeout 60 "$MPIEXEC_MPICH" -n 2 "${MERGE}-mpich" --json "$d/par.json" --text "$d/par.txt" "$d/logs" 2>/dev/null
        cmp -s "$d/report.json" "$d/par.json" && cmp -s "$d/report.txt" "$d/par.txt" ||
            problem "$mode -n $n: the MPI-parallel merge's reports differ from the serial merge's (files in $d)"
    fi
}

# launch_sig N LOGDIR SIG PROGRAM ARGS: launch, with timeout's signal SIG.
launch_sig() {
    local n=$1 logdir=$2 sig=$3
    shift 3
    TIMEOUT_SIGNAL=$sig launch "$n" "$logdir" "$@"
}

one abort 2 0
one segv 2 0
one sigabrt 2 0
one kill 2 0
# 4 ranks under Open MPI: Hydra's status is the OR of the ranks' ends, 2
# (SIGINT) or 11 (SIGINT | SIGKILL, when a rank's handler was still
# writing as the first one died), whichever came, with or without the
# library.
if [ "$flavour" = openmpi ]; then
    hang_kill deadlock 4
else
    hang_kill deadlock 2
fi
hang_kill waitall 2
one fabort 2 0
# Summary mode: each snapshot keeps the latest ending block (rank 0's
# barrier, where MPICH's launcher kills it; rank 1's MPI_Abort).
one abort 2 0 100 summary
# 4 busy-polling ranks twice over on 2 cores: fewer allreduces.
one spin 4 4 40
exit $status
