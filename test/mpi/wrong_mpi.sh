#!/usr/bin/env bash
# The other MPI's library preloaded into this flavour's programs
# (pmpi/mpi_match.h): libmpiscope-openmpi.so into MPICH programs and
# libmpiscope-mpich.so into Open MPI ones (before, a segfault, exit 139, or
# MPICH's "Invalid communicator", exit 5). Each program (examples/halo.c;
# launcher/exit_status.c, which exits with status 3) must print what it
# prints without the library and end with the same exit status; rank 0
# says once, in one line, that nothing is recorded and which library to
# preload, and no log directory is made.
#
#   wrong_mpi.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
if [ "$flavour" = mpich ]; then
    other=openmpi cc=${MPICC_MPICH:-mpicc.mpich}
    launch=("${MPIEXEC_MPICH:-mpiexec.mpich}" -n 2)
    env_of() { printf '%s\n' -genv "${1%%=*}" "${1#*=}"; }
else
    other=mpich cc=${MPICC_OPENMPI:-mpicc.openmpi}
    launch=("${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe -np 2)
    env_of() { printf '%s\n' -x "$1"; }
fi
wrong=$(dirname "$lib")/libmpiscope-$other.so
if [ ! -e "$wrong" ]; then
    echo "skipped: no $wrong"
    exit 77
fi

fail() {
    echo "FAIL: $*"
    exit 1
}

$cc -O2 "$root/examples/halo.c" -o "$dir/halo" -lm || fail "cannot build halo.c"
$cc -O1 "$here/launcher/exit_status.c" -o "$dir/exit_status" || fail "cannot build exit_status.c"

# case NAME PROGRAM...: without the library, then with the other MPI's.
case_of() {
    local name=$1 envs
    shift
    (cd "$dir" && timeout -k 10 "$TEST_TIMEOUT" "${launch[@]}" "$@") >"$dir/$name.plain" 2>/dev/null
    local want=$?
    rm -rf "${dir:?}/$name.logs"
    mapfile -t envs < <(env_of "LD_PRELOAD=$wrong"; env_of "MPISCOPE_DIR=$dir/$name.logs")
    (cd "$dir" && timeout -k 10 "$TEST_TIMEOUT" "${launch[@]}" "${envs[@]}" "$@") >"$dir/$name.out" 2>"$dir/$name.err"
    local got=$?
    [ "$got" = "$want" ] || fail "$name: exit status $got, $want without the library: $(tail -3 "$dir/$name.err")"
    cmp -s "$dir/$name.plain" "$dir/$name.out" || fail "$name: the program's output changed"
    [ "$(grep -c '^mpiscope: ' "$dir/$name.err")" = 1 ] ||
        fail "$name: not one mpiscope line: $(cat "$dir/$name.err")"
    grep -q "^mpiscope: this program runs .*libmpiscope-$other.so is mpiscope's library for $other: nothing is recorded.*Preload $lib instead" "$dir/$name.err" ||
        fail "$name: the message does not name the library to use: $(cat "$dir/$name.err")"
    [ ! -e "$dir/$name.logs" ] || fail "$name: a log directory was made"
    echo "ok: $name: libmpiscope-$other.so in a $flavour program: status $got and output as without it, one message"
}
case_of halo ./halo 10 200
case_of exit_status ./exit_status 3
exit 0
