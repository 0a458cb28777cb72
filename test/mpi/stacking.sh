#!/usr/bin/env bash
# Another PMPI tool preloaded with mpiscope (pmpi/stacking.h), here a
# minimal one of the test's own (stacking/tool.c), and mpiP where
# ../shared/peers/build-mpip.sh built it into $BUILD/mpip-FLAVOUR:
#   - the other tool first in LD_PRELOAD: the program's output is unchanged,
#     and rank 0 says once, naming the tool, that mpiscope records none of
#     the program's calls and how to order LD_PRELOAD (the other ranks say
#     nothing);
#   - mpiscope first, the other tool after it: both see every call; the
#     test's tool counts per function what mpiscope's merge counts per op
#     (mpiP: the calls its report counts, for the functions both record);
#   - the launcher (bin/mpiscope) with LD_PRELOAD naming the test's tool:
#     it puts mpiscope first and keeps the tool after it, which counts as
#     above;
#   - mpiscope alone: no such warning, and a log per rank; with mpiP first,
#     mpiP counts what mpiscope alone records;
#   - a Fortran program (test/mpi/fortran_mpifh.f90) with mpiP after
#     mpiscope: both count the same calls.
#
#   stacking.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh; exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich}
    launch=("${MPIEXEC_MPICH:-mpiexec.mpich}" -n 3)
    env_of() { local kv; for kv in "$@"; do printf '%s\n' -genv "${kv%%=*}" "${kv#*=}"; done; }
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi}
    launch=("${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe -np 3)
    env_of() { local kv; for kv in "$@"; do printf '%s\n' -x "$kv"; done; }
fi

fail() {
    echo "FAIL: $*"
    exit 1
}

$cc -O2 "$root/examples/halo.c" -o "$dir/halo" -lm || fail "cannot build halo.c"
$cc -O2 -shared -fPIC "$here/stacking/tool.c" -o "$dir/libtool.so" || fail "cannot build the test's tool"

# run NAME PRELOAD [VAR=VALUE...]: the program ${prog[@]} (halo unless
# set) at 3 ranks with LD_PRELOAD=PRELOAD (and the variables), logs in
# $dir/NAME.
prog=(./halo 10 200)
run() {
    local name=$1 preload=$2 envs
    shift 2
    rm -rf "${dir:?}/$name"
    mapfile -t envs < <(env_of "LD_PRELOAD=$preload" "MPISCOPE_DIR=$dir/$name" "$@")
    (cd "$dir" && timeout -k 10 "$TEST_TIMEOUT" "${launch[@]}" "${envs[@]}" "${prog[@]}") \
        >"$dir/$name.out" 2>"$dir/$name.err" || fail "$name: the run failed: $(tail -3 "$dir/$name.err")"
}

(cd "$dir" && timeout -k 10 "$TEST_TIMEOUT" "${launch[@]}" ./halo 10 200) >"$dir/plain.out" 2>/dev/null ||
    fail "halo does not run without the library"

# behind TOOL NAME: TOOL first in LD_PRELOAD, mpiscope second.
behind() {
    local tool=$1 name=$2
    shift 2
    run "$name" "$tool:$lib" "$@"
    # mpiP's own lines (its banner, where it stored its report) aside.
    cmp -s "$dir/plain.out" <(grep -v '^mpiP:' "$dir/$name.out") || fail "$name: the program's output changed"
    local n
    n=$(grep -c "^mpiscope: .*$(basename "$tool") defines the MPI functions ahead of mpiscope" "$dir/$name.err")
    [ "$n" = 1 ] || fail "$name: $n warnings naming $(basename "$tool"), not one (rank 0): $(cat "$dir/$name.err")"
    grep -q "put .*libmpiscope-$flavour.so first in LD_PRELOAD" "$dir/$name.err" ||
        fail "$name: the warning does not say how to order LD_PRELOAD"
    echo "ok: $name: one warning, from rank 0, naming $(basename "$tool")"
}

behind "$dir/libtool.so" tool-first

mpip=$BUILD/mpip-$flavour/$flavour/libmpiP.so
if [ -e "$mpip" ]; then
    rm -rf "$dir/mpip-first.reports" && mkdir -p "$dir/mpip-first.reports"
    behind "$mpip" mpip-first "MPIP=-f $dir/mpip-first.reports"
else
    echo "note: mpiP not built ($mpip); ../shared/peers/build-mpip.sh (make peers) builds it"
fi

# ops NAME: "op calls" lines, summed over ranks, from the merge of $dir/NAME.
ops() {
    "$MERGE" --csv "$dir/$1.csv" "$dir/$1" >/dev/null 2>"$dir/$1.merge.err" || fail "$1: the merge failed"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
             { n[$col["operation"]] += $col["calls"] }
             END { for (o in n) print o, n[o] }' "$dir/$1.csv" | sort
}

# ahead NAME: the test's tool after mpiscope sees every call mpiscope records.
ahead_tool() {
    local name=$1
    rm -f "$dir/$name.counts".*
    run "$name" "$lib:$dir/libtool.so" "STACKING_COUNTS=$dir/$name.counts"
    cmp -s "$dir/plain.out" "$dir/$name.out" || fail "$name: the program's output changed"
    grep -q "defines the MPI functions ahead" "$dir/$name.err" && fail "$name: a warning: $(cat "$dir/$name.err")"
    [ "$(ls "$dir/$name.counts".* 2>/dev/null | wc -l)" = 3 ] || fail "$name: the tool wrote no counts per rank"
    local theirs ours
    theirs=$(cat "$dir/$name.counts".* | awk '{ n[$1] += $2 } END { for (o in n) print o, n[o] }' | sort)
    ours=$(ops "$name" | awk 'NR == FNR { t[$1] = 1; next } ($1 in t)' <(echo "$theirs") -)
    [ -n "$theirs" ] && [ "$ours" = "$theirs" ] ||
        fail "$name: the tool after mpiscope counts [$(echo $theirs)], mpiscope [$(echo $ours)]"
    grep -q "^init 3$" <<<"$theirs" || fail "$name: the tool did not see MPI_Init on every rank: $(echo $theirs)"
    echo "ok: $name: the tool after mpiscope sees every call mpiscope records: $(echo $theirs)"
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

# same_counts NAME THEIRS OURS-RUN WHO: THEIRS equals what the merge of
# OURS-RUN counts, for the functions in THEIRS.
same_counts() {
    local name=$1 theirs=$2 run=$3 who=$4 ours
    ours=$(ops "$run" | awk 'NR == FNR { t[$1] = 1; next } ($1 in t)' <(echo "$theirs") -)
    [ -n "$theirs" ] && [ "$ours" = "$theirs" ] ||
        fail "$name: $who counts [$(echo $theirs)], mpiscope [$(echo $ours)]"
}

# ahead_mpip NAME: mpiP after mpiscope counts, for every function both
# record, the calls mpiscope records in the same run.
ahead_mpip() {
    local name=$1 theirs
    rm -rf "$dir/$name.reports" && mkdir -p "$dir/$name.reports"
    run "$name" "$lib:$mpip" "MPIP=-f $dir/$name.reports"
    grep -v '^mpiP:' "$dir/$name.out" | cmp -s "$dir/$name.plain" - || fail "$name: the program's output changed"
    theirs=$(mpip_counts "$dir/$name.reports") ||
        fail "$name: mpiP wrote no report (it did not initialize): $(tail -3 "$dir/$name.err")"
    same_counts "$name" "$theirs" "$name" "mpiP after mpiscope"
    echo "ok: $name: mpiP after mpiscope counts what mpiscope records: $(echo $theirs)"
}

# launched: the launcher with LD_PRELOAD=libtool.so in its environment.
launched() {
    local name=launched envs
    rm -rf "${dir:?}/$name" "$dir/$name.counts".*
    mapfile -t envs < <(env_of "STACKING_COUNTS=$dir/$name.counts")
    (cd "$dir" && LD_PRELOAD="$dir/libtool.so" timeout -k 10 "$TEST_TIMEOUT" "$launcher" --dir "$dir/$name" -- \
        "${launch[@]}" "${envs[@]}" ./halo 10 200) >"$dir/$name.out" 2>"$dir/$name.err" ||
        fail "$name: the run failed: $(tail -3 "$dir/$name.err")"
    [ "$(ls "$dir/$name"/rank-*.zst 2>/dev/null | wc -l)" = 3 ] || fail "$name: no log per rank"
    local theirs want
    theirs=$(cat "$dir/$name.counts".* 2>/dev/null | awk '{ n[$1] += $2 } END { for (o in n) print o, n[o] }' | sort)
    want=$(cat "$dir/tool-after.counts".* | awk '{ n[$1] += $2 } END { for (o in n) print o, n[o] }' | sort)
    [ "$theirs" = "$want" ] || fail "$name: the tool after the launcher's mpiscope counts [$(echo $theirs)], not [$(echo $want)]"
    echo "ok: $name: the launcher keeps LD_PRELOAD after mpiscope; the tool counts as before"
}

ahead_tool tool-after
if [ -e "$mpip" ]; then
    cp "$dir/plain.out" "$dir/mpip-after.plain"
    ahead_mpip mpip-after
fi
launcher=$BUILD/bin/mpiscope
case $launcher in /*) ;; *) launcher=$root/$launcher ;; esac
if [ -x "$launcher" ]; then
    launched
else
    echo "note: no launcher at $launcher"
fi

run alone "$lib"
grep -q "defines the MPI functions ahead" "$dir/alone.err" && fail "a warning without another tool: $(cat "$dir/alone.err")"
[ "$(ls "$dir/alone"/rank-*.zst 2>/dev/null | wc -l)" = 3 ] || fail "mpiscope alone wrote no log per rank"
"$MERGE" --csv "$dir/alone.csv" "$dir/alone" >/dev/null 2>"$dir/alone.merge.err" || fail "the merge failed"
ours=$(awk -F, '$2 == "isend" {s += $11} END {print s + 0}' "$dir/alone.csv")
theirs=$(sed -n 's/^tool: \([0-9]*\) isends$/\1/p' "$dir/tool-first.err")
[ "$ours" -gt 0 ] && [ "$ours" = "$theirs" ] ||
    fail "isends: mpiscope alone counts $ours, the test's tool (first) $theirs"
echo "ok: mpiscope alone: no warning, 3 logs, $ours isends as the other tool counted"

# mpiP first: mpiscope records nothing (it said so above), and mpiP counts
# what mpiscope alone counts of the same program.
if [ -e "$mpip" ]; then
    theirs=$(mpip_counts "$dir/mpip-first.reports") || fail "mpip-first: mpiP wrote no report"
    same_counts mpip-first "$theirs" alone "mpiP ahead of mpiscope"
    echo "ok: mpip-first: mpiP counts what mpiscope alone records: $(echo $theirs)"
fi

# A Fortran program (mpif.h: point-to-point, requests, collectives,
# communicators): mpiP after mpiscope sees every call mpiscope records
# there too, through mpiscope's Fortran entry points.
fc=${MPIF90_MPICH:-mpif90.mpich}
[ "$flavour" = openmpi ] && fc=${MPIF90_OPENMPI:-mpif90.openmpi}
if [ -e "$mpip" ] && command -v "$fc" >/dev/null; then
    "$fc" -O1 "$here/fortran_mpifh.f90" -o "$dir/fortran_mpifh" || fail "cannot build fortran_mpifh.f90"
    prog=(./fortran_mpifh)
    (cd "$dir" && timeout -k 10 "$TEST_TIMEOUT" "${launch[@]}" "${prog[@]}") >"$dir/fortran-after.plain" 2>/dev/null ||
        fail "fortran_mpifh does not run without the library"
    ahead_mpip fortran-after
fi
exit 0
