#!/usr/bin/env bash
# Real MPI programs under the preload library, with exact expectations.
#
#   test/mpi/run.sh [TEST...]      (TEST: a program name without extension)
#
# A test is a program test/mpi/NAME.c (or NAME.f90, or NAME.py for mpi4py)
# and its expectation test/mpi/NAME.expect.py (see mpiexpect.py). For each
# MPI flavour with a built library (MPICH always; Open MPI when
# libmpiscope-openmpi.so exists) that the expectation's FLAVOURS allow, each
# test runs at every rank count of its RANKS (default: TEST_RANKS, "1 2 4";
# where both are given, those in both), once without and once with the
# preload library, and a case passes when
#   - both runs exit 0 with the same stdout, and the profiled run prints no
#     mpiscope: diagnostic;
#   - the run wrote exactly rank-000000.zst .. rank-<N-1>.zst, each a valid
#     zstd stream;
#   - mpiscope-merge exits 0 with nothing on stderr, prints a text report,
#     and check.py finds its --csv, --ranks-csv and --json outputs equal to
#     the expectation.
# Each case keeps its files under $BUILD/test/mpi/<flavour>/<test>-<N>/.
#
# A test may instead be a script test/mpi/NAME.sh (other than this one) that
# checks a program nobody here wrote. It runs once per flavour as
#   bash NAME.sh FLAVOUR LIBRARY OUTDIR
# with the environment below and MERGE, CHECK_DIR exported; exit 0 passes,
# 77 skips (its last line of output says why), anything else fails.
#
# mpi4py tests (NAME.py) run with the first of $PYTHON_MPI4PY, /usr/bin/python3
# and python3 that imports mpi4py, and are skipped when none does.
#
# Environment (set by `make mpi-tests`): BUILD, MPICC_MPICH, MPIEXEC_MPICH,
# MPIF90_MPICH, MPICC_OPENMPI, MPIRUN_OPENMPI, MPIF90_OPENMPI; TEST_RANKS and
# TEST_TIMEOUT (seconds per run, default 120) for debugging;
# TEST_RANKS_DEFAULT: the rank counts of the tests that name none of their
# own (TEST_RANKS when unset), leaving the others at theirs. TEST_MODE: the
# modes the programs are recorded in, "trace" (the default), "summary"
# (MPISCOPE_MODE=summary, cases under $BUILD/test/mpi-summary/: the same
# expectations must hold, and the text report must say the mode) or both,
# "trace summary": each program is then compiled once and run once without
# the preload library per rank count, and that run is compared with the
# profiled run of each mode. TEST_RANKS_DEFAULT_SUMMARY: the rank counts
# of summary mode's tests that name none of their own (TEST_RANKS_DEFAULT
# when unset; TEST_RANKS overrides it).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. test/sanitizer_env.sh

BUILD=${BUILD:-build}
MPICC_MPICH=${MPICC_MPICH:-mpicc.mpich}
MPIEXEC_MPICH=${MPIEXEC_MPICH:-mpiexec.mpich}
MPIF90_MPICH=${MPIF90_MPICH:-mpif90.mpich}
MPICC_OPENMPI=${MPICC_OPENMPI:-mpicc.openmpi}
MPIRUN_OPENMPI=${MPIRUN_OPENMPI:-mpirun.openmpi}
MPIF90_OPENMPI=${MPIF90_OPENMPI:-mpif90.openmpi}
test_ranks_set=${TEST_RANKS+set}
TEST_RANKS=${TEST_RANKS:-${TEST_RANKS_DEFAULT:-1 2 4}}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
PYTHON=${PYTHON:-python3}
export PYTHONDONTWRITEBYTECODE=1

case "$BUILD" in
    /*) build_abs=$BUILD ;;
    *) build_abs=$PWD/$BUILD ;;
esac
merge=$build_abs/bin/mpiscope-merge
src=test/mpi
TEST_MODE=${TEST_MODE:-trace}
modes=()
for m in $TEST_MODE; do
    case "$m" in
        trace | summary) modes+=("$m") ;;
        *) echo "run.sh: TEST_MODE must be trace, summary or both" >&2; exit 2 ;;
    esac
done
[ ${#modes[@]} -gt 0 ] || { echo "run.sh: TEST_MODE must be trace, summary or both" >&2; exit 2; }
# out_of MODE: where the cases of MODE keep their files.
out_of() {
    case "$1" in
        trace) echo "$build_abs/test/mpi" ;;
        summary) echo "$build_abs/test/mpi-summary" ;;
    esac
}
# The programs, the expectations' configuration and the script tests' files
# go under the first mode's directory.
out=$(out_of "${modes[0]}")
for m in "${modes[@]}"; do mkdir -p "$(out_of "$m")"; done

# Test programs may pass MPI_STATUSES_IGNORE, which GCC 12 flags wrongly
# against MPICH's prototypes (-Wstringop-overflow).
CFLAGS_TEST="-std=c11 -O2 -g -Wall -Wextra -Werror -Wno-stringop-overflow"
FFLAGS_TEST="-O2 -g -Wall -Werror"

# The configuration must come from this runner, not from the caller.
for v in $(env | sed -n 's/^\(MPISCOPE_[A-Z_]*\)=.*/\1/p'); do
    unset "$v"
done

passed=0
failed=0
skipped=0
pass() {
    echo "ok: $1"
    passed=$((passed + 1))
}
skip() {
    echo "skip: $1: $2"
    skipped=$((skipped + 1))
}
# fail LABEL REASON [DETAILS_FILE]
fail() {
    echo "FAIL: $1: $2"
    if [ -n "${3:-}" ] && [ -s "$3" ]; then
        head -40 "$3" | sed 's/^/    /'
        [ "$(wc -l <"$3")" -le 40 ] || echo "    ... (all of it in $3)"
    fi
    failed=$((failed + 1))
}

if [ $# -gt 0 ]; then
    tests=("$@")
else
    tests=()
    for f in "$src"/*.c "$src"/*.f90 "$src"/*.py "$src"/*.sh; do
        [ -e "$f" ] || continue
        name=$(basename "$f")
        case "$name" in
            run.sh | *.expect.py) continue ;;
            *.py) [ -e "$src/${name%.py}.expect.py" ] || continue ;;
        esac
        tests+=("${name%.*}")
    done
fi

# An interpreter that has mpi4py, or nothing.
python_mpi4py=
for p in ${PYTHON_MPI4PY:-} /usr/bin/python3 python3; do
    if "$p" -c 'import mpi4py' >/dev/null 2>&1; then
        python_mpi4py=$p
        break
    fi
done

# launch FLAVOUR N PRELOAD DIR MODE PROGRAM [ARG...]: runs PROGRAM at N
# ranks, with the preload library, MPISCOPE_DIR and MPISCOPE_MODE when
# PRELOAD is not empty.
launch() {
    local flavour=$1 n=$2 preload=$3 dir=$4 mode=$5
    shift 5
    local args=()
    if [ "$flavour" = mpich ]; then
        [ -z "$preload" ] || args=(-genv LD_PRELOAD "$preload" -genv MPISCOPE_DIR "$dir" -genv MPISCOPE_MODE "$mode")
        timeout -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n "$n" ${args[@]+"${args[@]}"} "$@"
    else
        [ -z "$preload" ] || args=(-x "LD_PRELOAD=$preload" -x "MPISCOPE_DIR=$dir" -x "MPISCOPE_MODE=$mode")
        timeout -k 10 "$TEST_TIMEOUT" "$MPIRUN_OPENMPI" --allow-run-as-root --oversubscribe -np "$n" \
            ${args[@]+"${args[@]}"} "$@"
    fi
}

# command TEST FLAVOUR: the command line that runs the test's program.
command_of() {
    if [ -e "$src/$1.py" ]; then
        cmd=("$python_mpi4py" "$PWD/$src/$1.py")
    else
        cmd=("$out/$2/bin/$1")
    fi
}

# compile FLAVOUR TEST: builds the program into $out/FLAVOUR/bin/TEST.
compile() {
    local flavour=$1 t=$2 bin=$out/$1/bin/$2 log=$out/$1/bin/$2.log
    mkdir -p "$out/$flavour/bin"
    if [ -e "$src/$t.c" ]; then
        local cc=$MPICC_MPICH
        [ "$flavour" = mpich ] || cc=$MPICC_OPENMPI
        # shellcheck disable=SC2086
        "$cc" $CFLAGS_TEST -I"$src" -o "$bin" "$src/$t.c" -lm >"$log" 2>&1
    elif [ -e "$src/$t.py" ]; then
        "$python_mpi4py" -c 'import ast, pathlib, sys; ast.parse(pathlib.Path(sys.argv[1]).read_text(), sys.argv[1])' \
            "$src/$t.py" >"$log" 2>&1
    elif [ -e "$src/$t.f90" ]; then
        local fc=$MPIF90_MPICH
        [ "$flavour" = mpich ] || fc=$MPIF90_OPENMPI
        # shellcheck disable=SC2086
        "$fc" $FFLAGS_TEST -J "$out/$flavour/bin" -o "$bin" "$src/$t.f90" >"$log" 2>&1
    else
        echo "no program $src/$t.c, $src/$t.f90 or $src/$t.py" >"$log"
        false
    fi
}

# run_plain FLAVOUR TEST N DIR: the run without the preload library, its
# output in DIR/plain.out and DIR/plain.err.
run_plain() {
    local flavour=$1 t=$2 n=$3 dir=$4 cmd
    command_of "$t" "$flavour"
    mkdir -p "$dir"
    launch "$flavour" "$n" "" "" "" "${cmd[@]}" >"$dir/plain.out" 2>"$dir/plain.err"
}

# run_case FLAVOUR LIB TEST N MODE PLAIN: the profiled run in MODE, against
# the run without the library in the directory PLAIN (run_plain).
run_case() {
    local flavour=$1 lib=$2 t=$3 n=$4 mode=$5 plain=$6 cmd
    local label="$flavour $t -n $n" dir
    dir=$(out_of "$mode")/$flavour/$t-$n
    [ ${#modes[@]} = 1 ] || label="$label ($mode)"
    command_of "$t" "$flavour"
    [ "$plain" = "$dir" ] || { rm -rf "$dir"; mkdir -p "$dir"; cp "$plain/plain.out" "$plain/plain.err" "$dir/"; }

    launch "$flavour" "$n" "$lib" "$dir/logs" "$mode" "${cmd[@]}" >"$dir/profiled.out" 2>"$dir/profiled.err"
    local rc=$?
    if [ $rc -ne 0 ]; then
        fail "$label" "exits $rc with the preload library (0 without)" "$dir/profiled.err"
        return
    fi
    if ! diff "$dir/plain.out" "$dir/profiled.out" >"$dir/stdout.diff"; then
        fail "$label" "stdout differs with the preload library (< without, > with)" "$dir/stdout.diff"
        return
    fi
    if grep 'mpiscope:' "$dir/profiled.err" >"$dir/diagnostics"; then
        fail "$label" "the preload library printed diagnostics" "$dir/diagnostics"
        return
    fi

    local want got
    want=$(for ((r = 0; r < n; r++)); do printf 'rank-%06d.zst\n' "$r"; done)
    got=$(cd "$dir/logs" 2>/dev/null && ls -1 rank-*.zst 2>/dev/null)
    if [ "$got" != "$want" ]; then
        fail "$label" "logs in $dir/logs are [${got//$'\n'/ }], expected [${want//$'\n'/ }]"
        return
    fi
    if ! zstd -tq "$dir"/logs/rank-*.zst >"$dir/zstd.err" 2>&1; then
        fail "$label" "a log is not a valid zstd stream" "$dir/zstd.err"
        return
    fi

    "$merge" "$dir/logs" >"$dir/report.txt" 2>"$dir/merge.err"
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$dir/merge.err" ]; then
        fail "$label" "mpiscope-merge DIR exits $rc (stderr below)" "$dir/merge.err"
        return
    fi
    if [ ! -s "$dir/report.txt" ]; then
        fail "$label" "mpiscope-merge DIR printed no report"
        return
    fi
    if [ "$mode" = summary ] && ! grep -q '^  mode         summary (per-region aggregates' "$dir/report.txt"; then
        fail "$label" "the text report does not say the run was recorded in summary mode" "$dir/report.txt"
        return
    fi
    "$merge" --csv "$dir/regions.csv" --ranks-csv "$dir/ranks.csv" --json "$dir/report.json" "$dir/logs" \
        >"$dir/merge.out" 2>"$dir/merge.err"
    rc=$?
    if [ $rc -ne 0 ] || [ -s "$dir/merge.err" ]; then
        fail "$label" "mpiscope-merge --csv --ranks-csv --json exits $rc (stderr below)" "$dir/merge.err"
        return
    fi
    if ! "$PYTHON" "$src/check.py" "$src/$t.expect.py" "$n" "$dir/regions.csv" \
        --ranks-csv "$dir/ranks.csv" --json "$dir/report.json" >"$dir/check.out" 2>&1; then
        fail "$label" "merged profile differs from $src/$t.expect.py (files in $dir)" "$dir/check.out"
        return
    fi
    pass "$label"
}

# run_script FLAVOUR LIB TEST: a self-contained test script.
run_script() {
    local flavour=$1 lib=$2 t=$3 label="$1 $3" dir=$out/$1/$3
    rm -rf "$dir"
    mkdir -p "$dir"
    BUILD=$build_abs MERGE=$merge CHECK_DIR=$PWD/$src MPICC_MPICH=$MPICC_MPICH MPIEXEC_MPICH=$MPIEXEC_MPICH \
        MPICC_OPENMPI=$MPICC_OPENMPI MPIRUN_OPENMPI=$MPIRUN_OPENMPI TEST_TIMEOUT=$TEST_TIMEOUT PYTHON=$PYTHON \
        MPIF90_MPICH=$MPIF90_MPICH MPIF90_OPENMPI=$MPIF90_OPENMPI bash "$src/$t.sh" "$flavour" "$lib" "$dir" >"$dir/script.out" 2>&1
    local rc=$?
    if [ $rc -eq 0 ]; then
        pass "$label"
    elif [ $rc -eq 77 ]; then
        skip "$label" "$(tail -n 1 "$dir/script.out")"
    else
        fail "$label" "$src/$t.sh exits $rc (files in $dir)" "$dir/script.out"
    fi
}

flavours=()
lib_mpich=$build_abs/lib/libmpiscope-mpich.so
lib_openmpi=$build_abs/lib/libmpiscope-openmpi.so
if [ -e "$lib_mpich" ]; then
    flavours+=(mpich)
else
    fail "mpich" "$lib_mpich is missing (run make first)"
fi
if [ -e "$lib_openmpi" ]; then
    flavours+=(openmpi)
else
    echo "note: $lib_openmpi not built: Open MPI cases left out"
fi
if [ ! -x "$merge" ]; then
    fail "merge" "$merge is missing (run make first)"
    flavours=()
fi

# Each test's time (all its rank counts, its build included) goes to
# $CHECK_TIMES when set (`make check` reports the slowest): a line is written
# when the next test starts, and at the end.
timed_name=
timed_t0=
timed_end() {
    if [ -n "${CHECK_TIMES:-}" ] && [ -n "$timed_name" ]; then
        awk -v a="$timed_t0" -v b="$(date +%s.%N)" -v n="$timed_name" \
            'BEGIN { printf "%.1f\ttest\t%s\n", b - a, n }' >>"$CHECK_TIMES"
    fi
    timed_name=
}
timed_start() {
    timed_end
    timed_name="mpi ${TEST_MODE// /+} $1 $2"
    timed_t0=$(date +%s.%N)
}

for flavour in ${flavours[@]+"${flavours[@]}"}; do
    lib=$lib_mpich
    [ "$flavour" = mpich ] || lib=$lib_openmpi
    lib=$(sanitizer_preload "$lib")
    for t in "${tests[@]}"; do
        timed_start "$flavour" "$t"
        if [ -e "$src/$t.sh" ] && [ ! -e "$src/$t.c" ]; then
            run_script "$flavour" "$lib" "$t"
            continue
        fi
        if [ ! -e "$src/$t.expect.py" ]; then
            fail "$flavour $t" "no expectation $src/$t.expect.py"
            continue
        fi
        if ! "$PYTHON" "$src/check.py" --config "$src/$t.expect.py" "$flavour" >"$out/$t.config" 2>&1; then
            fail "$flavour $t" "bad expectation $src/$t.expect.py" "$out/$t.config"
            continue
        fi
        { read -r t_flavours; read -r t_ranks; } <"$out/$t.config"
        case " $t_flavours " in
            *" $flavour "*) ;;
            *)
                skip "$flavour $t" "runs under $t_flavours only"
                continue
                ;;
        esac
        if [ -e "$src/$t.py" ] && [ -z "$python_mpi4py" ]; then
            skip "$flavour $t" "no python3 with mpi4py (set PYTHON_MPI4PY)"
            continue
        fi
        # The rank counts of each mode, and all of them in order.
        declare -A mode_ranks=()
        ranks=
        for m in "${modes[@]}"; do
            r=$TEST_RANKS
            [ "$m" = summary ] && [ -z "$test_ranks_set" ] && r=${TEST_RANKS_DEFAULT_SUMMARY:-$r}
            if [ -n "$t_ranks" ]; then
                r=$t_ranks
                if [ -n "$test_ranks_set" ]; then
                    r=
                    for n in $t_ranks; do
                        case " $TEST_RANKS " in *" $n "*) r="$r $n" ;; esac
                    done
                fi
            fi
            mode_ranks[$m]=" $r "
            ranks="$ranks $r"
        done
        ranks=$(printf '%s\n' $ranks | sort -n -u | tr '\n' ' ')
        if [ -z "${ranks// /}" ]; then
            skip "$flavour $t" "runs at $t_ranks ranks only"
            unset mode_ranks
            continue
        fi
        if ! compile "$flavour" "$t"; then
            fail "$flavour $t" "does not compile" "$out/$flavour/bin/$t.log"
            unset mode_ranks
            continue
        fi
        for n in $ranks; do
            # One run without the library, in the first mode's case directory.
            plain=
            for m in "${modes[@]}"; do
                case "${mode_ranks[$m]}" in *" $n "*) plain=$(out_of "$m")/$flavour/$t-$n && break ;; esac
            done
            rm -rf "$plain"
            run_plain "$flavour" "$t" "$n" "$plain"
            rc=$?
            if [ $rc -ne 0 ]; then
                fail "$flavour $t -n $n" "exits $rc without the preload library" "$plain/plain.err"
                continue
            fi
            for m in "${modes[@]}"; do
                case "${mode_ranks[$m]}" in *" $n "*) run_case "$flavour" "$lib" "$t" "$n" "$m" "$plain" ;; esac
            done
        done
        unset mode_ranks
    done
done

timed_end
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
