#!/usr/bin/env bash
# A rank that ends without MPI_Finalize closes its log. faults/progress.c
# runs at 1, 2 and 4 ranks, each rank making 500 calls of MPI_Iprobe, then
#   exit   every rank calls exit(5) after an MPI_Barrier, without
#          MPI_Finalize: every log has its end record and all 500 calls;
#   abort  rank 0 calls MPI_Abort(MPI_COMM_WORLD, 3) while the others wait:
#          rank 0's log has its end record and all 500 calls, the others'
#          logs decode;
#   segv   rank 0 raises SIGSEGV while the others wait:
#          (raises SIGSEGV): rank 0's log has all 500 calls (written by the SIGSEGV handler;
#          the default flush interval, 200 ms, is longer than the run) and
#          no end record, the launcher's status is as without the library.
# Each case runs once without the preload library, then with it in both
# modes, trace and summary (MPISCOPE_MODE=summary: every completed call
# kept, as in a trace, and the report says the mode). In all, the launcher's
# exit status (and at 1 rank stdout) equals that of the run without the
# preload library, and the preload library prints nothing. MPICH's launcher kills the other ranks with SIGKILL once one has
# exited without MPI_Finalize, and Open MPI's aborts the job once one has
# exited with a non-zero status, so at more than one rank the exit case
# requires one complete log (the first rank to exit), not all;
# which rank's end it reports first is a race, so stdout is compared at 1
# rank only (process ids in the launcher's messages left out).
#
#   fault_exit.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
source "$(dirname "$0")/faults/common.sh"
build_progress
calls=500

# profiled REC: the run of $mode at $n ranks with the preload library,
# recording in REC (trace or summary), into $d/REC, compared with the run
# without it ($d/plain, $plain_rc).
profiled() {
    local rec=$1 p=$d/$1 c="$mode -n $n ($1)" rc retry
    mkdir -p "$p/profiled"
    extra_env=MPISCOPE_MODE=$rec launch "$n" "$p/logs" "$dir/progress" "$mode" "$p/profiled" $calls \
        >"$p/profiled/out" 2>"$p/profiled/err"
    rc=$?
    # Neither run is always the same: MPICH's launcher may reap an
    # exiting rank with SIGHUP before it reports its status ("EXIT CODE:
    # 1 ... Hangup (signal 1)"), with or without the library. The run
    # that the launcher reaped so is run again, twice at most; else the
    # run without the library.
    for retry in 1 2; do
        [ "$rc" = "$plain_rc" ] && break
        if grep -q "Hangup (signal 1)" "$p/profiled/err" && ! grep -q "Hangup (signal 1)" "$d/plain/err"; then
            echo "$c: with the library the launcher reaped a rank with SIGHUP (exit $rc); again ($retry)"
            rm -rf "$p/logs"
            extra_env=MPISCOPE_MODE=$rec launch "$n" "$p/logs" "$dir/progress" "$mode" "$p/profiled" $calls \
                >"$p/profiled/out" 2>"$p/profiled/err"
            rc=$?
            continue
        fi
        echo "$c: without the library the launcher exits $plain_rc; again ($retry)"
        launch "$n" "" "$dir/progress" "$mode" "$d/plain" $calls >"$d/plain/out" 2>"$d/plain/err"
        plain_rc=$?
    done
    echo "$c: the launcher exits $rc with the preload library, $plain_rc without"
    # MPICH at more than one rank: whether the launcher reports the exit
    # (5) or its own SIGKILL of the others (9) is a race, with or without
    # the preload library.
    local want_rc=$plain_rc
    if [ $mode = exit ] && [ "$flavour" = mpich ] && [ $n -gt 1 ] && { [ $rc = 5 ] || [ $rc = 9 ]; }; then
        want_rc=$rc
    fi
    [ "$rc" = "$want_rc" ] || problem "$c: exit status $rc with the preload library, $want_rc without"
    [ "$want_rc" != 0 ] || problem "$c: the program exits 0 (expected a failure status)"
    # The launcher's messages name process ids.
    if [ $n = 1 ] && ! diff <(sed -E 's/PID [0-9]+/PID N/' "$d/plain/out") \
        <(sed -E 's/PID [0-9]+/PID N/' "$p/profiled/out") >/dev/null; then
        problem "$c: stdout differs with the preload library"
    fi
    if grep 'mpiscope:' "$p/profiled/err"; then
        problem "$c: the preload library printed diagnostics"
    fi
    if ! "$MERGE" "$p/logs" >"$p/report.txt" 2>"$p/merge.err"; then
        problem "$c: mpiscope-merge fails on the logs (files in $p)"
        return
    fi
    in_mode "$c" "$p/report.txt" "$rec"
    local last=$((n - 1)) need=$n complete=0 r log got
    [ $mode != exit ] && last=0 need=1
    [ $mode = exit ] && [ "$flavour" = mpich ] && need=1
    # Open MPI's mpirun aborts the job as soon as one rank has exited
    # with a non-zero status, and says so: a rank still in its exit()
    # then dies with the launcher's signal, as under MPICH.
    [ $mode = exit ] && grep -q "the job has been aborted" "$p/profiled/err" && need=1
    for ((r = 0; r <= last; r++)); do
        log=$(printf 'rank-%06d.zst' $r)
        got=$(recorded "$p/logs" $r iprobe)
        if [ $mode = segv ]; then
            if ! grep -q "$log.*truncated" "$p/merge.err"; then
                problem "$c: $log has an end record after a crash"
            elif [ "$got" = $calls ]; then
                complete=$((complete + 1))
            else
                problem "$c rank $r: $got calls recorded, $calls made"
            fi
        elif grep -q "$log.*truncated" "$p/merge.err"; then
            echo "$c: $log has no end record ($got calls)"
        elif [ "$got" != $calls ]; then
            problem "$c rank $r: $got calls recorded, $calls made"
        else
            complete=$((complete + 1))
        fi
    done
    echo "$c: $complete logs with all $calls calls ($need required)"
    [ $complete -ge $need ] || problem "$c: $complete complete logs, $need required (files in $p)"
}

# in_mode CASE REPORT REC: the report says the mode the logs were recorded in.
in_mode() {
    if [ "$3" = summary ] && ! grep -q '^  mode         summary (per-region aggregates' "$2"; then
        problem "$1: the logs are not in summary mode"
    elif [ "$3" = trace ] && grep -q '^  mode         summary' "$2"; then
        problem "$1: the logs are in summary mode"
    fi
}

for mode in exit abort segv; do
    for n in 1 2 4; do
        d=$dir/$mode-$n
        mkdir -p "$d/plain"
        launch "$n" "" "$dir/progress" "$mode" "$d/plain" $calls >"$d/plain/out" 2>"$d/plain/err"
        plain_rc=$?
        profiled trace
        profiled summary
    done
done

# MPI_ABORT from Fortran (use mpi, use mpi_f08) at 1 rank, after 100
# barriers: the same exit status as without the library, the log closed
# with its end record and every barrier, and the report's Run ended names
# MPI_Abort(3) at its line of the source (in summary mode too: each
# snapshot keeps the latest ending block). (Open MPI's Fortran bindings and
# MPICH's mpi_f08 reach PMPI_Abort without MPI_Abort.)
fc=${MPIF90_MPICH:-mpif90.mpich}
[ "$flavour" = mpich ] || fc=${MPIF90_OPENMPI:-mpif90.openmpi}
if command -v "$fc" >/dev/null 2>&1; then
    for binding in mpi f08; do
        d=$dir/fortran-abort-$binding
        mkdir -p "$d"
        if ! "$fc" -O1 -g -o "$d/abort" "$faults_src/abort_$binding.f90" 2>"$d/build.err"; then
            problem "fortran abort ($binding): does not compile: $(head -3 "$d/build.err")"
            continue
        fi
        launch 1 "" "$d/abort" >"$d/plain.out" 2>"$d/plain.err"
        plain_rc=$?
        for rec in trace summary; do
            p=$d/$rec c="fortran abort ($binding, $rec)"
            mkdir -p "$p"
            extra_env=MPISCOPE_MODE=$rec launch 1 "$p/logs" "$d/abort" >"$p/profiled.out" 2>"$p/profiled.err"
            rc=$?
            echo "$c: the launcher exits $rc with the preload library, $plain_rc without"
            [ "$rc" = "$plain_rc" ] && [ "$rc" != 0 ] ||
                problem "$c: exit status $rc with the preload library, $plain_rc without"
            if ! "$MERGE" "$p/logs" >"$p/report.txt" 2>"$p/merge.err"; then
                problem "$c: mpiscope-merge fails on the log (files in $p)"
                continue
            fi
            in_mode "$c" "$p/report.txt" "$rec"
            if grep -q truncated "$p/merge.err"; then
                problem "$c: the log has no end record (files in $p)"
            elif [ "$(recorded "$p/logs" 0 barrier)" != 100 ]; then
                problem "$c: $(recorded "$p/logs" 0 barrier) barriers recorded, 100 made"
            elif ! grep -Eq "^ +0  aborted +MPI_Abort\(3\) at abort_$binding\.f90:[0-9]+" "$p/report.txt"; then
                problem "$c: the report's Run ended does not name MPI_Abort(3) at its line (files in $p)"
            fi
        done
    done
fi
exit $status
