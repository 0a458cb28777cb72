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
# In both, the launcher's exit status (and at 1 rank stdout) equals that of
# a run without the preload library, and the preload library prints
# nothing. MPICH's launcher kills the other ranks with SIGKILL once one has
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

for mode in exit abort segv; do
    for n in 1 2 4; do
        d=$dir/$mode-$n
        mkdir -p "$d/plain" "$d/profiled"
        launch "$n" "" "$dir/progress" "$mode" "$d/plain" $calls >"$d/plain/out" 2>"$d/plain/err"
        plain_rc=$?
        launch "$n" "$d/logs" "$dir/progress" "$mode" "$d/profiled" $calls >"$d/profiled/out" 2>"$d/profiled/err"
        rc=$?
        # Neither run is always the same: MPICH's launcher may reap an
        # exiting rank with SIGHUP before it reports its status ("EXIT CODE:
        # 1 ... Hangup (signal 1)"), with or without the library. The run
        # that the launcher reaped so is run again, twice at most; else the
        # run without the library.
        for retry in 1 2; do
            [ "$rc" = "$plain_rc" ] && break
            if grep -q "Hangup (signal 1)" "$d/profiled/err" && ! grep -q "Hangup (signal 1)" "$d/plain/err"; then
                echo "$mode -n $n: with the library the launcher reaped a rank with SIGHUP (exit $rc); again ($retry)"
                rm -rf "$d/logs"
                launch "$n" "$d/logs" "$dir/progress" "$mode" "$d/profiled" $calls >"$d/profiled/out" 2>"$d/profiled/err"
                rc=$?
                continue
            fi
            echo "$mode -n $n: without the library the launcher exits $plain_rc; again ($retry)"
            launch "$n" "" "$dir/progress" "$mode" "$d/plain" $calls >"$d/plain/out" 2>"$d/plain/err"
            plain_rc=$?
        done
        echo "$mode -n $n: the launcher exits $rc with the preload library, $plain_rc without"
        # MPICH at more than one rank: whether the launcher reports the exit
        # (5) or its own SIGKILL of the others (9) is a race, with or without
        # the preload library.
        if [ $mode = exit ] && [ "$flavour" = mpich ] && [ $n -gt 1 ] && { [ $rc = 5 ] || [ $rc = 9 ]; }; then
            plain_rc=$rc
        fi
        [ "$rc" = "$plain_rc" ] || problem "$mode -n $n: exit status $rc with the preload library, $plain_rc without"
        [ "$plain_rc" != 0 ] || problem "$mode -n $n: the program exits 0 (expected a failure status)"
        # The launcher's messages name process ids.
        if [ $n = 1 ] && ! diff <(sed -E 's/PID [0-9]+/PID N/' "$d/plain/out") \
            <(sed -E 's/PID [0-9]+/PID N/' "$d/profiled/out") >/dev/null; then
            problem "$mode -n $n: stdout differs with the preload library"
        fi
        if grep 'mpiscope:' "$d/profiled/err"; then
            problem "$mode -n $n: the preload library printed diagnostics"
        fi
        if ! "$MERGE" "$d/logs" >"$d/report.txt" 2>"$d/merge.err"; then
            problem "$mode -n $n: mpiscope-merge fails on the logs (files in $d)"
            continue
        fi
        last=$((n - 1)) need=$n
        [ $mode != exit ] && last=0 need=1
        [ $mode = exit ] && [ "$flavour" = mpich ] && need=1
        # Open MPI's mpirun aborts the job as soon as one rank has exited
        # with a non-zero status, and says so: a rank still in its exit()
        # then dies with the launcher's signal, as under MPICH.
        [ $mode = exit ] && grep -q "the job has been aborted" "$d/profiled/err" && need=1
        complete=0
        for ((r = 0; r <= last; r++)); do
            log=$(printf 'rank-%06d.zst' $r)
            got=$(recorded "$d/logs" $r iprobe)
            if [ $mode = segv ]; then
                if ! grep -q "$log.*truncated" "$d/merge.err"; then
                    problem "$mode -n $n: $log has an end record after a crash"
                elif [ "$got" = $calls ]; then
                    complete=$((complete + 1))
                else
                    problem "$mode -n $n rank $r: $got calls recorded, $calls made"
                fi
            elif grep -q "$log.*truncated" "$d/merge.err"; then
                echo "$mode -n $n: $log has no end record ($got calls)"
            elif [ "$got" != $calls ]; then
                problem "$mode -n $n rank $r: $got calls recorded, $calls made"
            else
                complete=$((complete + 1))
            fi
        done
        echo "$mode -n $n: $complete logs with all $calls calls ($need required)"
        [ $complete -ge $need ] || problem "$mode -n $n: $complete complete logs, $need required (files in $d)"
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
        launch 1 "$d/logs" "$d/abort" >"$d/profiled.out" 2>"$d/profiled.err"
        rc=$?
        echo "fortran abort ($binding): the launcher exits $rc with the preload library, $plain_rc without"
        [ "$rc" = "$plain_rc" ] && [ "$rc" != 0 ] ||
            problem "fortran abort ($binding): exit status $rc with the preload library, $plain_rc without"
        if ! "$MERGE" "$d/logs" >"$d/report.txt" 2>"$d/merge.err"; then
            problem "fortran abort ($binding): mpiscope-merge fails on the log (files in $d)"
        elif grep -q truncated "$d/merge.err"; then
            problem "fortran abort ($binding): the log has no end record (files in $d)"
        elif [ "$(recorded "$d/logs" 0 barrier)" != 100 ]; then
            problem "fortran abort ($binding): $(recorded "$d/logs" 0 barrier) barriers recorded, 100 made"
        elif ! grep -Eq "^ +0  aborted +MPI_Abort\(3\) at abort_$binding\.f90:[0-9]+" "$d/report.txt"; then
            problem "fortran abort ($binding): the report's Run ended does not name MPI_Abort(3) at its line (files in $d)"
        fi
    done
fi
exit $status
