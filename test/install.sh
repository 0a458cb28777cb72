#!/usr/bin/env bash
# `make install` as a site installs a tool: into a temporary prefix, then
# used from a fresh login-like shell through Environment Modules
# (`module use PREFIX/share/modulefiles; module load mpiscope`), which must
# put the launcher on PATH, set MPISCOPE_HOME and the pkg-config path and
# print its one-line hint; `pkg-config --cflags --libs mpiscope` must build
# an MPI program against include/mpiscope.h and libmpiscope-api.so, which
# then runs unchanged and, under the installed launcher, has its region
# recorded.
#
#   BUILD=build bash test/install.sh     (exit 77: Environment Modules missing)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
MPICC_MPICH=${MPICC_MPICH:-mpicc.mpich}
MPIEXEC_MPICH=${MPIEXEC_MPICH:-mpiexec.mpich}
init=/usr/share/modules/init/bash
[ -r "$init" ] || { echo "Environment Modules not found ($init; Debian environment-modules)"; exit 77; }
command -v pkg-config >/dev/null || { echo "pkg-config not found"; exit 77; }
t=$PWD/$BUILD/test/install
rm -rf "$t"
mkdir -p "$t"
prefix=$t/prefix
fail() {
    echo "FAIL: $*"
    exit 1
}
$MAKE -s BUILD="$BUILD" install PREFIX="$prefix" >"$t/install.log" 2>&1 || fail "make install: $(tail -3 "$t/install.log")"
version=$(sed -n 's/^VERSION *:= *//p' config.mk)
for f in bin/mpiscope bin/mpiscope-merge lib/libmpiscope-api.so include/mpiscope.h lib/pkgconfig/mpiscope.pc \
    "share/modulefiles/mpiscope/$version"; do
    [ -e "$prefix/$f" ] || fail "$prefix/$f is not installed"
done
cat >"$t/regions.c" <<'C'
#include <mpi.h>
#include <mpiscope.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, one = 1, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mpiscope_region_begin("installed");
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mpiscope_region_end("installed");
    if (rank == 0)
        printf("sum %d\n", sum);
    return MPI_Finalize();
}
C
# A fresh shell: nothing of this one's environment but what a login has.
env -i HOME="$t" PATH=/usr/local/bin:/usr/bin:/bin TERM=dumb LANG=C.UTF-8 \
    bash --noprofile --norc -c '
set -u
. '"$init"'
cd '"$t"'
module use '"$prefix"'/share/modulefiles
module load mpiscope 2>hint.txt || { echo "module load failed: $(cat hint.txt)"; exit 1; }
echo "which=$(command -v mpiscope)"
echo "home=${MPISCOPE_HOME:-}"
echo "pc=$(pkg-config --cflags --libs mpiscope | sed "s/ *$//")"
echo "pcversion=$(pkg-config --modversion mpiscope)"
'"$MPICC_MPICH"' -o regions regions.c $(pkg-config --cflags --libs mpiscope) || exit 1
./regions >plain.out || exit 1
mpiscope --dir logs -- '"$MPIEXEC_MPICH"' -n 2 ./regions >profiled.out 2>profiled.err || exit 1
module unload mpiscope
echo "after=$(command -v mpiscope || echo none)"
' >"$t/shell.out" 2>"$t/shell.err" || fail "the fresh shell: $(tail -3 "$t/shell.out" "$t/shell.err")"
grep -qx "which=$prefix/bin/mpiscope" "$t/shell.out" || fail "module load does not put bin/ on PATH: $(cat "$t/shell.out")"
grep -qx "home=$prefix" "$t/shell.out" || fail "MPISCOPE_HOME is not $prefix"
grep -qx "pc=-I$prefix/include -L$prefix/lib -lmpiscope-api" "$t/shell.out" || fail "pkg-config says: $(grep ^pc= "$t/shell.out")"
grep -qx "pcversion=$version" "$t/shell.out" || fail "pkg-config --modversion: $(grep ^pcversion= "$t/shell.out")"
grep -qx "after=none" "$t/shell.out" || fail "module unload leaves mpiscope on PATH"
[ "$(grep -c '^mpiscope: profile a run with' "$t/hint.txt")" = 1 ] || fail "module load prints no one-line hint: $(cat "$t/hint.txt")"
grep -qx "sum 1" "$t/plain.out" || fail "the program without the tool: $(cat "$t/plain.out")"
grep -qx "sum 2" "$t/profiled.out" || fail "the program under the installed launcher: $(head -3 "$t/profiled.out")"
python3 - "$t/logs/regions.csv" <<'PY' || fail "the region is not recorded on 2 ranks"
import csv, sys
rows = {r["name"]: r for r in csv.DictReader(open(sys.argv[1]))}
r = rows.get("installed")
assert r and r["calls"] == "2" and r["ranks"] == "2", rows.keys()
PY
echo "install: passed (module load, pkg-config, the region API from $prefix)"
rm -rf "$t"
