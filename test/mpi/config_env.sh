#!/usr/bin/env bash
# The run's configuration (DESIGN section 3), at 4 ranks under this
# flavour's launcher with the preload library: a value that is not valid
# gives exactly one warning for the whole run, as does an unknown variable
# (naming the closest known one) and a variable that only one rank sees (its
# own); booleans take yes/no, true/false, on/off in any case
# (MPISCOPE_DISABLE=yes writes no log); and every MPISCOPE_ variable the
# project's sources read or set is known to the library.
#
#   config_env.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich}
    launch=("${MPIEXEC_MPICH:-mpiexec.mpich}")
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi}
    launch=("${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe)
fi
# The configuration must come from this test, not from the caller's environment.
for v in $(env | sed -n 's/^\(MPISCOPE_[A-Z0-9_]*\)=.*/\1/p'); do
    unset "$v"
done

fail() {
    echo "FAIL: $*"
    exit 1
}

prog=$dir/exit_status
$cc -O1 "$root/test/mpi/launcher/exit_status.c" -o "$prog" || fail "cannot build the program"

# One application context of N ranks, with the preload library, the log
# directory $dir/NAME and the variables NAME=VALUE given.
context() {
    local name=$1 n=$2
    shift 2
    if [ "$flavour" = mpich ]; then
        ctx=(-n "$n" -env LD_PRELOAD "$lib" -env MPISCOPE_DIR "$dir/$name")
        for kv in "$@"; do
            ctx+=(-env "${kv%%=*}" "${kv#*=}")
        done
    else
        ctx=(-np "$n" -x "LD_PRELOAD=$lib" -x "MPISCOPE_DIR=$dir/$name")
        for kv in "$@"; do
            ctx+=(-x "$kv")
        done
    fi
    ctx+=("$prog")
}
# run NAME N VAR=VALUE...: N ranks; stdout, stderr and its mpiscope: lines
# in $dir/NAME.{out,err,warn}.
run() {
    local name=$1 n=$2
    shift 2
    context "$name" "$n" "$@"
    timeout -k 10 "$TEST_TIMEOUT" "${launch[@]}" "${ctx[@]}" >"$dir/$name.out" 2>"$dir/$name.err" ||
        fail "$name: the run fails: $(cat "$dir/$name.err")"
    grep '^mpiscope: ' "$dir/$name.err" >"$dir/$name.warn"
    grep -q "^ranks $n\$" "$dir/$name.out" || fail "$name: the program's output is missing"
}
# one NAME TEXT: exactly one warning, and it holds TEXT.
one() {
    [ "$(wc -l <"$dir/$1.warn")" = 1 ] && grep -qF -- "$2" "$dir/$1.warn" ||
        fail "$1: not exactly one warning with \"$2\": $(cat "$dir/$1.err")"
}
logs() {
    [ "$(ls "$dir/$1" 2>/dev/null | grep -c '^rank-.*\.zst$')" = "$2" ] || fail "$1: not $2 logs: $(ls "$dir/$1" 2>&1)"
}

run bad_value 4 MPISCOPE_BUFFER_KB=7
one bad_value 'MPISCOPE_BUFFER_KB="7" is not valid'
logs bad_value 4

run misspelt 4 MPISCOPE_MDOE=summary
one misspelt "MPISCOPE_MDOE is not a variable of mpiscope and is ignored: did you mean MPISCOPE_MODE?"
logs misspelt 4

run disabled 4 MPISCOPE_DISABLE=yes
[ -s "$dir/disabled.warn" ] && fail "disabled: warnings: $(cat "$dir/disabled.err")"
[ -e "$dir/disabled" ] && fail "MPISCOPE_DISABLE=yes wrote $dir/disabled"

# Booleans in any case; the effective configuration shows them as 0 and 1.
run booleans 1 MPISCOPE_VERBOSE=True MPISCOPE_DISABLE=OFF MPISCOPE_CUPTI=no
grep -q "not valid" "$dir/booleans.warn" && fail "booleans: $(cat "$dir/booleans.err")"
for want in MPISCOPE_VERBOSE=1 MPISCOPE_DISABLE=0 MPISCOPE_CUPTI=0; do
    grep -qx "  $want" "$dir/booleans.err" || fail "booleans: the configuration lacks $want: $(cat "$dir/booleans.err")"
done
logs booleans 1

# A variable that rank 3 alone sees: rank 3 warns, once.
context one_rank 3
first=("${ctx[@]}")
context one_rank 1 MPISCOPE_FLUSH_MS=0
timeout -k 10 "$TEST_TIMEOUT" "${launch[@]}" "${first[@]}" : "${ctx[@]}" >"$dir/one_rank.out" 2>"$dir/one_rank.err" ||
    fail "one_rank: the run fails: $(cat "$dir/one_rank.err")"
grep '^mpiscope: ' "$dir/one_rank.err" >"$dir/one_rank.warn"
one one_rank 'MPISCOPE_FLUSH_MS="0" is not valid'

# Every MPISCOPE_ variable the sources read (getenv) or the scripts, tests,
# benchmarks and the modulefile set or read is known: no warning names one.
names=$(cd "$root" && {
    grep -rhoE 'getenv\("MPISCOPE_[A-Z0-9_]+"' preload pmpi likwid cupti common api
    grep -rhoE --include='*.sh' --include='*.py' --include='*.in' --include='*.mk' --include=Makefile \
        --exclude=config_env.sh --exclude=smoke.sh --exclude=collector_null.sh 'MPISCOPE_[A-Z0-9_]*[A-Z0-9]' scripts test bench config Makefile
} | grep -oE 'MPISCOPE_[A-Z0-9_]+' | grep -v '_H$' | grep -vx MPISCOPE_DIR | sort -u)
[ "$(echo "$names" | wc -w)" -ge 10 ] || fail "too few MPISCOPE_ variables found in the sources: $names"
all=()
for name in $names; do
    all+=("$name=")
done
run known 1 "${all[@]}"
grep "is not a variable of mpiscope" "$dir/known.warn" && fail "known: a variable of the project is unknown to the library"
echo "ok: $(echo "$names" | wc -w) variables known"
exit 0
