#!/usr/bin/env bash
# Ranks killed mid-run keep what was recorded. faults/progress.c runs at 1,
# 2 and 4 ranks with MPISCOPE_FLUSH_MS=100, each rank making one MPI_Iprobe
# per 100 us and counting the calls it completed in a file; once every rank
# has made 3000 calls, each rank is sent SIGTERM, or SIGKILL. Then the
# merged logs must hold, per rank, the calls of mpi:iprobe:
#   SIGTERM  at least 90 % of the completed calls (at most one more), every
#            log closed with its end record, and the launcher's exit status
#            the same as in a run without the preload library. (MPICH's
#            launcher sends SIGKILL to the other ranks as soon as one has
#            died, and may get there before their handlers ran; its exit
#            status then depends on which rank it saw die first, with or
#            without the preload library. Under MPICH at 2 and 4 ranks, a
#            rank whose log has no end record was killed that way and is
#            held to the SIGKILL bound, and the exit status is compared at
#            1 rank only.)
#   SIGKILL  all but the calls of the last flush interval (100 ms at the
#            measured call rate, plus 100 ms for the writer), at most one
#            more; the logs decode (mpiscope-merge exits 0).
#
# Each case runs in both modes, trace and summary (MPISCOPE_MODE=summary),
# after one run without the preload library that both compare with. In
# summary mode a SIGTERM must lose no completed call: a log with its end
# record holds every completed call (at most one more), and the logs say
# they are in summary mode.
#
#   fault_kill.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
source "$(dirname "$0")/faults/common.sh"
build_progress
flush_ms=100
# Open MPI's launcher, once a rank died, sends the others SIGTERM and 1 s
# later SIGKILL (odls_base_sigkill_timeout): a rank still writing its log in
# its SIGTERM handler, 4 ranks on 2 slow cores, can be cut off, with or
# without this test's own SIGTERM. A batch system gives seconds (Slurm's
# KillWait: 30 s); so does the test: 3 s. (mpirun then lingers twice that
# after the last rank died: 10 s made each run 20 s.)
export OMPI_MCA_odls_base_sigkill_timeout=3

# wait_calls PDIR N COUNT: until every rank completed COUNT calls (10 s at most).
wait_calls() {
    local pdir=$1 n=$2 count=$3 r c
    for ((i = 0; i < 2000; i++)); do
        local ready=1
        for ((r = 0; r < n; r++)); do
            c=$(progress_of "$pdir" "$r" 1)
            [ "$c" -ge "$count" ] || { ready=0; break; }
        done
        [ $ready = 1 ] && return 0
        sleep 0.005
    done
    return 1
}

# run_killed SIG N CASE_DIR MODE: runs (profiled in MODE, trace or summary;
# without the library when MODE is empty), kills, leaves the launcher's
# status in $case_rc and the call rate (calls/s of rank 0) in $case_rate.
run_killed() {
    local sig=$1 n=$2 d=$3 mode=$4 logdir= r
    mkdir -p "$d/progress"
    [ -n "$mode" ] && logdir=$d/logs
    extra_env="MPISCOPE_FLUSH_MS=$flush_ms MPISCOPE_MODE=$mode" launch "$n" "$logdir" "$dir/progress" finalize "$d/progress" 0 \
        >"$d/out" 2>"$d/err" &
    local launcher=$!
    if ! wait_calls "$d/progress" "$n" 3000; then
        problem "$sig -n $n: the ranks did not reach 3000 calls (files in $d)"
        kill -KILL $launcher 2>/dev/null
        wait $launcher
        case_rc=-1
        return
    fi
    local c0 c1 t0 t1
    c0=$(progress_of "$d/progress" 0 1) t0=$(date +%s%N)
    sleep 0.2
    c1=$(progress_of "$d/progress" 0 1) t1=$(date +%s%N)
    case_rate=$(( (c1 - c0) * 1000000000 / (t1 - t0 + 1) ))
    # All at once, as a batch system does: a launcher may kill the other
    # ranks as soon as one has died.
    local pids=()
    for ((r = 0; r < n; r++)); do
        pids+=("$(progress_of "$d/progress" "$r" 0)")
    done
    kill -"$sig" "${pids[@]}" 2>/dev/null
    wait $launcher
    case_rc=$?
}

for sig in TERM KILL; do
    for n in 1 2 4; do
        [ $sig = KILL ] && [ $n = 1 ] && continue
        plain_rc=
        if [ $sig = TERM ]; then
            run_killed $sig $n "$dir/$sig-$n/plain" ""
            plain_rc=$case_rc
        fi
        for mode in trace summary; do
            d=$dir/$sig-$n/$mode c="$sig -n $n ($mode)"
            run_killed $sig $n "$d/profiled" $mode
            [ "$case_rc" = -1 ] && continue
            if [ -n "$plain_rc" ] && [ "$case_rc" != "$plain_rc" ] && { [ "$flavour" = openmpi ] || [ $n = 1 ]; }; then
                problem "$c: the launcher exits $case_rc with the preload library, $plain_rc without"
            fi
            if grep 'mpiscope:' "$d/profiled/err"; then
                problem "$c: the preload library printed diagnostics"
            fi
            if ! "$MERGE" "$d/profiled/logs" >"$d/report.txt" 2>"$d/merge.err"; then
                problem "$c: mpiscope-merge fails on the logs"
                sed 's/^/    /' "$d/merge.err" | head -5
                continue
            fi
            if [ "$mode" = summary ] && ! grep -q '^  mode         summary' "$d/report.txt"; then
                problem "$c: the logs are not in summary mode"
            fi
            trunc=$(grep -c truncated "$d/merge.err")
            if [ $sig = TERM ] && [ "$trunc" -ne 0 ] && { [ "$flavour" = openmpi ] || [ $n = 1 ]; }; then
                problem "$c: $trunc logs lack their end record"
            fi
            allowance=$((case_rate * (flush_ms + 100) / 1000))
            for ((r = 0; r < n; r++)); do
                done_calls=$(progress_of "$d/profiled/progress" "$r" 1)
                got=$(recorded "$d/profiled/logs" "$r" iprobe)
                log=$(printf 'rank-%06d.zst' "$r")
                if [ $sig = TERM ] && [ "$mode" = summary ] && ! grep -q "$log.*truncated" "$d/merge.err"; then
                    floor=$done_calls
                elif [ $sig = TERM ] && ! grep -q "$log.*truncated" "$d/merge.err"; then
                    floor=$((done_calls * 9 / 10))
                else
                    floor=$((done_calls - allowance))
                fi
                echo "$c rank $r: $got of $done_calls completed calls recorded (at least $floor required;" \
                    "rate $case_rate/s)"
                if [ "$got" -lt "$floor" ] || [ "$got" -gt $((done_calls + 1)) ]; then
                    problem "$c rank $r: $got calls recorded, $done_calls completed (files in $d)"
                fi
            done
        done
    done
done
exit $status
