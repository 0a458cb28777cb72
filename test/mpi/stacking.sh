#!/usr/bin/env bash
# Another PMPI tool preloaded with mpiscope (pmpi/stacking.h), here a
# minimal one of the test's own (stacking/tool.c), and mpiP where
# ../shared/peers/build-mpip.sh built it into $BUILD/mpip-FLAVOUR. In both
# orders of LD_PRELOAD (the other tool first: mpiscope records in its
# PMPI_X; mpiscope first: the other tool after it), in the same run:
#   - the program's output is unchanged and mpiscope says nothing;
#   - the test's tool counts, per function, exactly the calls mpiscope
#     records (MPI_Init and MPI_Finalize too; the PMPI_Reduce the tool makes
#     on its own in its MPI_Finalize is not the program's, and mpiscope
#     leaves it out);
#   - mpiP counts what mpiscope records, for every function both record, in
#     C (examples/halo.c) and in Fortran (test/mpi/fortran_mpifh.f90; Open
#     MPI's Fortran bindings call PMPI_X directly);
#   - the launcher (bin/mpiscope) with LD_PRELOAD naming the test's tool
#     puts mpiscope first and keeps the tool after it, which counts as
#     above.
#
#   stacking.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich} fc=${MPIF90_MPICH:-mpif90.mpich}
    launch=("${MPIEXEC_MPICH:-mpiexec.mpich}" -n 2)
    env_of() { local kv; for kv in "$@"; do printf '%s\n' -genv "${kv%%=*}" "${kv#*=}"; done; }
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi} fc=${MPIF90_OPENMPI:-mpif90.openmpi}
    launch=("${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe -np 2)
    env_of() { local kv; for kv in "$@"; do printf '%s\n' -x "$kv"; done; }
fi

fail() {
    echo "FAIL: $*"
    exit 1
}

$cc -O2 "$root/examples/halo.c" -o "$dir/halo" -lm || fail "cannot build halo.c"
$cc -O2 -shared -fPIC "$here/stacking/tool.c" -o "$dir/libtool.so" || fail "cannot build the test's tool"

# run NAME PRELOAD [VAR=VALUE...]: the program ${prog[@]} at 2 ranks with
# LD_PRELOAD=PRELOAD (and the variables), logs in $dir/NAME; its output,
# mpiP's lines aside, must be the program's alone, and mpiscope silent.
prog=(./halo 10 200)
run() {
    local name=$1 preload=$2 envs
    shift 2
    rm -rf "${dir:?}/$name" "$dir/$name.counts".*
    mapfile -t envs < <(env_of "LD_PRELOAD=$preload" "MPISCOPE_DIR=$dir/$name" "$@")
    (cd "$dir" && timeout -k 10 "$TEST_TIMEOUT" "${launch[@]}" "${envs[@]}" "${prog[@]}") \
        >"$dir/$name.out" 2>"$dir/$name.err" || fail "$name: the run failed: $(tail -3 "$dir/$name.err")"
    grep -v '^mpiP:' "$dir/$name.out" | cmp -s "$dir/plain.out" - || fail "$name: the program's output changed"
    grep -q "^mpiscope: " "$dir/$name.err" && fail "$name: mpiscope spoke: $(grep "^mpiscope: " "$dir/$name.err")"
    [ "$(ls "$dir/$name"/rank-*.zst 2>/dev/null | wc -l)" = 2 ] || fail "$name: no log per rank"
}
plain() {
    (cd "$dir" && timeout -k 10 "$TEST_TIMEOUT" "${launch[@]}" "${prog[@]}") >"$dir/plain.out" 2>/dev/null ||
        fail "${prog[0]} does not run without the library"
}

# ops NAME: "op calls" lines, summed over ranks, from the merge of $dir/NAME.
ops() {
    "$MERGE" --csv "$dir/$1.csv" "$dir/$1" >/dev/null 2>"$dir/$1.merge.err" || fail "$1: the merge failed"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
             { n[$col["operation"]] += $col["calls"] }
             END { for (o in n) print o, n[o] }' "$dir/$1.csv" | sort
}

# same NAME THEIRS WHO: THEIRS ("function calls" lines) equals what the
# merge of $dir/NAME counts, for the functions in THEIRS.
same() {
    local name=$1 theirs=$2 who=$3 ours
    ours=$(ops "$name" | awk 'NR == FNR { t[$1] = 1; next } ($1 in t)' <(echo "$theirs") -)
    [ -n "$theirs" ] && [ "$ours" = "$theirs" ] || fail "$name: $who counts [$(echo $theirs)], mpiscope [$(echo $ours)]"
    echo "ok: $name: $who and mpiscope count the same calls: $(echo $theirs)"
}

# tool_counts NAME: the test's tool's counts, summed over ranks.
tool_counts() {
    [ "$(ls "$dir/$1.counts".* 2>/dev/null | wc -l)" = 2 ] || fail "$1: the tool wrote no counts per rank"
    cat "$dir/$1.counts".* | awk '{ n[$1] += $2 } END { for (o in n) print o, n[o] }' | sort
}

# mpip_counts DIR: "function calls" lines from the one mpiP report in DIR
# (its callsite statistics, the "*" rows of all ranks, summed per function).
mpip_counts() {
    local report
    report=$(ls "$1"/*.mpiP 2>/dev/null | head -1)
    [ -n "$report" ] || return 1
    awk '/^@--- Callsite Time statistics/ { on = 1; next } /^@---/ { on = 0 }
         on && NF >= 4 && $3 == "*" { n[tolower($1)] += $4 }
         END { for (o in n) print o, n[o] }' "$report" | sort
}

# with_tool NAME PRELOAD: the test's tool and mpiscope in the order PRELOAD
# gives count the same calls, init and finalize included.
with_tool() {
    local name=$1 theirs
    run "$name" "$2" "STACKING_COUNTS=$dir/$name.counts"
    theirs=$(tool_counts "$name")
    grep -q "^init 2$" <<<"$theirs" && grep -q "^finalize 2$" <<<"$theirs" ||
        fail "$name: the tool did not see MPI_Init and MPI_Finalize on every rank: $(echo $theirs)"
    same "$name" "$theirs" "the test's tool"
}

# with_mpip NAME PRELOAD: mpiP and mpiscope count the same calls.
with_mpip() {
    local name=$1 theirs
    rm -rf "$dir/$name.reports" && mkdir -p "$dir/$name.reports"
    run "$name" "$2" "MPIP=-f $dir/$name.reports"
    theirs=$(mpip_counts "$dir/$name.reports") ||
        fail "$name: mpiP wrote no report (it did not initialize): $(tail -3 "$dir/$name.err")"
    same "$name" "$theirs" "mpiP"
}

plain
with_tool tool-first "$dir/libtool.so:$lib"
with_tool tool-after "$lib:$dir/libtool.so"

mpip=$BUILD/mpip-$flavour/$flavour/libmpiP.so
if [ -e "$mpip" ]; then
    with_mpip mpip-first "$mpip:$lib"
    with_mpip mpip-after "$lib:$mpip"
else
    echo "note: mpiP not built ($mpip); ../shared/peers/build-mpip.sh (make peers) builds it"
fi

# The launcher with LD_PRELOAD=libtool.so in its environment.
launcher=$BUILD/bin/mpiscope
case $launcher in /*) ;; *) launcher=$root/$launcher ;; esac
if [ -x "$launcher" ]; then
    name=launched
    rm -rf "${dir:?}/$name" "$dir/$name.counts".*
    mapfile -t envs < <(env_of "STACKING_COUNTS=$dir/$name.counts")
    (cd "$dir" && LD_PRELOAD="$dir/libtool.so" timeout -k 10 "$TEST_TIMEOUT" "$launcher" --dir "$dir/$name" -- \
        "${launch[@]}" "${envs[@]}" ./halo 10 200) >"$dir/$name.out" 2>"$dir/$name.err" ||
        fail "$name: the run failed: $(tail -3 "$dir/$name.err")"
    [ "$(ls "$dir/$name"/rank-*.zst 2>/dev/null | wc -l)" = 2 ] || fail "$name: no log per rank"
    [ "$(tool_counts "$name")" = "$(tool_counts tool-after)" ] ||
        fail "$name: the tool after the launcher's mpiscope counts [$(echo $(tool_counts "$name"))]"
    echo "ok: $name: the launcher keeps LD_PRELOAD after mpiscope; the tool counts as before"
else
    echo "note: no launcher at $launcher"
fi

# Fortran (mpif.h: point-to-point, requests, collectives, communicators),
# mpiP in both orders.
if [ -e "$mpip" ] && command -v "$fc" >/dev/null; then
    "$fc" -O1 "$here/fortran_mpifh.f90" -o "$dir/fortran_mpifh" || fail "cannot build fortran_mpifh.f90"
    prog=(./fortran_mpifh)
    plain
    with_mpip fortran-mpip-first "$mpip:$lib"
    with_mpip fortran-mpip-after "$lib:$mpip"
fi
exit 0
