# Shared by the fault tests test/mpi/fault_*.sh (sourced; not a test).
# Expects flavour, lib, dir and the runner's environment (run.sh).
MPICC_MPICH=${MPICC_MPICH:-mpicc.mpich}
MPIEXEC_MPICH=${MPIEXEC_MPICH:-mpiexec.mpich}
MPICC_OPENMPI=${MPICC_OPENMPI:-mpicc.openmpi}
MPIRUN_OPENMPI=${MPIRUN_OPENMPI:-mpirun.openmpi}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
PYTHON=${PYTHON:-python3}
faults_src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
status=0

# problem MESSAGE: the test fails, with this line.
problem() {
    echo "FAIL: $*"
    status=1
}

# build_progress: compiles faults/progress.c into $dir/progress.
build_progress() {
    local cc=$MPICC_MPICH
    [ "$flavour" = mpich ] || cc=$MPICC_OPENMPI
    "$cc" -std=c11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -o "$dir/progress" "$faults_src/progress.c" ||
        { echo "FAIL: progress.c does not compile"; exit 1; }
}

# launch N LOGDIR PROGRAM [ARG...]: runs PROGRAM at N ranks, profiled into
# LOGDIR when LOGDIR is not empty; extra variables from $extra_env (NAME=VALUE);
# $TIMEOUT_SIGNAL (default TERM) is the signal timeout sends after $TEST_TIMEOUT s.
launch() {
    local n=$1 logdir=$2
    shift 2
    local args=() kv
    if [ "$flavour" = mpich ]; then
        if [ -n "$logdir" ]; then
            args=(-genv LD_PRELOAD "$lib" -genv MPISCOPE_DIR "$logdir")
            for kv in ${extra_env:-}; do args+=(-genv "${kv%%=*}" "${kv#*=}"); done
        fi
        timeout -s "${TIMEOUT_SIGNAL:-TERM}" -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n "$n" ${args[@]+"${args[@]}"} "$@"
    else
        if [ -n "$logdir" ]; then
            args=(-x "LD_PRELOAD=$lib" -x "MPISCOPE_DIR=$logdir")
            for kv in ${extra_env:-}; do args+=(-x "$kv"); done
        fi
        timeout -s "${TIMEOUT_SIGNAL:-TERM}" -k 10 "$TEST_TIMEOUT" "$MPIRUN_OPENMPI" --allow-run-as-root --oversubscribe -np "$n" \
            ${args[@]+"${args[@]}"} "$@"
    fi
}

# recorded LOGDIR RANK OP: calls of mpi:OP recorded for RANK (merge --ranks-csv).
recorded() {
    "$MERGE" --ranks-csv - "$1" 2>/dev/null |
        awk -F, -v r="$2" -v op="mpi:$3 " 'index($1, op) == 1 && $2 == r { n += $3 } END { print n + 0 }'
}

# progress_of PDIR RANK FIELD: 0 the pid, 1 the completed calls (-1: none yet).
progress_of() {
    local v
    v=$(od -An -t d8 -N16 "$1/progress-$2" 2>/dev/null | awk -v f="$3" 'NF == 2 { print $(f + 1) }')
    echo "${v:--1}"
}

# truncated_logs LOGDIR: the merge's "truncated" warnings (one per log without end block).
truncated_logs() {
    "$MERGE" "$1" 2>&1 >/dev/null | grep -c truncated
}
