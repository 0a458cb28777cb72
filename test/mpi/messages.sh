#!/usr/bin/env bash
# Message records (docs/FORMAT.md, "Messages"): messages/messages.c at 2
# and 4 ranks (Irecv/Isend by Waitall, Waitsome, Testsome, Waitany, Test, a
# wildcard receive, Send_init/Recv_init with Startall and Start, Sendrecv
# and Sendrecv_replace, a cancelled receive, Ibarrier and Iallreduce by
# Waitall). messages/msg_dump.c (built by `make mpi-tests` into
# $BUILD/test/messages/msg_dump) prints each rank's log as the reader
# delivers it; messages_check.py compares the records of every event with
# what the program says it must have written, exactly, and checks every
# post time. The merge reads the logs without a word. Once more at 2 ranks
# in summary mode: no message records.
#
#   messages.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-python3}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
dump=${BUILD:-build}/test/messages/msg_dump
if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich}
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi}
fi

fail() {
    echo "FAIL: $*"
    exit 1
}

[ -x "$dump" ] || fail "$dump is missing (make mpi-tests builds it)"

# run NAME N MODE: the program at N ranks in MODE, logs in $dir/NAME-N/logs,
# each rank's log dumped to dump-<rank>.txt.
run() {
    local d=$dir/$1-$2 n=$2 mode=$3
    rm -rf "$d"
    mkdir -p "$d"
    if [ "$flavour" = mpich ]; then
        timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n "$n" -genv LD_PRELOAD "$lib" \
            -genv MPISCOPE_DIR "$d/logs" -genv MPISCOPE_MODE "$mode" "$dir/messages" "$d" >"$d/out" 2>"$d/err" ||
            fail "$1 -n $n: the program exits $?: $(head -5 "$d/err")"
    else
        timeout -k 10 "$TEST_TIMEOUT" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe \
            -np "$n" -x "LD_PRELOAD=$lib" -x "MPISCOPE_DIR=$d/logs" -x "MPISCOPE_MODE=$mode" "$dir/messages" "$d" \
            >"$d/out" 2>"$d/err" || fail "$1 -n $n: the program exits $?: $(head -5 "$d/err")"
    fi
    ! grep -q "mpiscope:" "$d/err" || fail "$1 -n $n: diagnostics: $(cat "$d/err")"
    for ((r = 0; r < n; r++)); do
        "$dump" "$(printf '%s/logs/rank-%06d.zst' "$d" "$r")" >"$d/dump-$r.txt" ||
            fail "$1 -n $n: rank $r's log does not read: $(tail -1 "$d/dump-$r.txt")"
    done
    "$MERGE" --csv "$d/regions.csv" "$d/logs" >"$d/merge.out" 2>"$d/merge.err" ||
        fail "$1 -n $n: mpiscope-merge exits $?: $(head -5 "$d/merge.err")"
    [ ! -s "$d/merge.err" ] || fail "$1 -n $n: mpiscope-merge printed: $(head -5 "$d/merge.err")"
}

flags="-std=c11 -O2 -g -Wall -Wextra -Werror -Wno-stringop-overflow"
# shellcheck disable=SC2086
$cc $flags "$here/messages/messages.c" -o "$dir/messages" || fail "cannot build messages.c"

for n in 2 4; do
    run trace "$n" trace
    "$PYTHON" "$here/messages_check.py" "$dir/trace-$n" "$n" >"$dir/trace-$n/check.out" 2>&1 ||
        fail "trace -n $n: the message records differ (files in $dir/trace-$n):
$(cat "$dir/trace-$n/check.out")"
    cat "$dir/trace-$n/check.out"
done
run summary 2 summary
"$PYTHON" "$here/messages_check.py" "$dir/summary-2" 2 --summary >"$dir/summary-2/check.out" 2>&1 ||
    fail "summary -n 2: $(cat "$dir/summary-2/check.out")"
cat "$dir/summary-2/check.out"
echo "messages: every rank's message records as expected"
