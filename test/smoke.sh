#!/usr/bin/env bash
# Smoke test: programs that never call MPI_Init must behave exactly as without
# the preload library: same exit code, same stdout, empty stderr, and nothing
# created in the working directory; also with eager binding, and with a
# configuration that a rank would warn about (an unknown variable, values
# that are not valid). Run by `make smoke-tests` (BUILD in env).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. test/sanitizer_env.sh

BUILD=${BUILD:-build}
case "$BUILD" in
    /*) build_abs=$BUILD ;;
    *) build_abs=$PWD/$BUILD ;;
esac

libs=()
for flavour in mpich openmpi; do
    lib=$build_abs/lib/libmpiscope-$flavour.so
    [ -e "$lib" ] && libs+=("$(sanitizer_preload "$lib")")
done

passed=0
failed=0
fail() {
    echo "FAIL: $*"
    failed=$((failed + 1))
}
# A problem of the current case; the case counts as one failure.
problem() {
    echo "FAIL: $*"
    ok=0
}

if [ ${#libs[@]} -eq 0 ]; then
    fail "no preload library under $build_abs/lib (run make first)"
    echo "$passed passed, $failed failed"
    exit 1
fi

# The configuration must come from this test, not from the caller's environment.
for v in $(env | sed -n 's/^\(MPISCOPE_[A-Z_]*\)=.*/\1/p'); do
    unset "$v"
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

commands=("true" "ls" "sh -c 'echo hi'" "sh -c 'exit 3'")
# What each command also runs under, besides the library alone.
variants=("LD_BIND_NOW=1" "MPISCOPE_MDOE=summary MPISCOPE_MODE=sumary MPISCOPE_DISABLE=maybe")

# run_in DIR ENV... -- CMD: runs CMD (shell words) in DIR with extra env;
# leaves stdout, stderr and exit code in $scratch/{out,err,rc}.
run_in() {
    local dir=$1
    shift
    local envs=()
    while [ "$1" != "--" ]; do
        envs+=("$1")
        shift
    done
    shift
    (cd "$dir" && eval "exec env \${envs[@]+\"\${envs[@]}\"} $1" >"$scratch/out" 2>"$scratch/err")
    echo $? >"$scratch/rc"
}

for cmd in "${commands[@]}"; do
    base=$scratch/base
    rm -rf "$base" && mkdir "$base"
    run_in "$base" -- "$cmd"
    want_rc=$(cat "$scratch/rc")
    cp "$scratch/out" "$scratch/want_out"

    for lib in "${libs[@]}"; do
        for variant in "" "${variants[@]}"; do
            label="$(basename "$lib")${variant:+ $variant}: $cmd"
            work=$scratch/work
            rm -rf "$work" && mkdir "$work"
            # shellcheck disable=SC2086 # a variant is VAR=VALUE words
            run_in "$work" "LD_PRELOAD=$lib" $variant -- "$cmd"
            ok=1
            got_rc=$(cat "$scratch/rc")
            if [ "$got_rc" != "$want_rc" ]; then
                problem "$label: exit code $got_rc, expected $want_rc"
            fi
            if [ -s "$scratch/err" ]; then
                problem "$label: stderr not empty:"
                sed 's/^/    /' "$scratch/err" | head -20
            fi
            if ! cmp -s "$scratch/out" "$scratch/want_out"; then
                problem "$label: stdout differs from the run without preload:"
                diff "$scratch/want_out" "$scratch/out" | sed 's/^/    /' | head -20
            fi
            created=$(ls -A "$work")
            if [ -n "$created" ]; then
                problem "$label: created in the working directory: $(echo "$created" | tr '\n' ' ')"
            fi
            if [ $ok = 1 ]; then
                echo "ok: $label"
                passed=$((passed + 1))
            else
                failed=$((failed + 1))
            fi
        done
    done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
