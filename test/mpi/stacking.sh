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
#   - mpiscope alone: no such warning, and a log per rank.
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

# run NAME PRELOAD [VAR=VALUE...]: halo at 3 ranks with LD_PRELOAD=PRELOAD
# (and the variables), logs in $dir/NAME.
run() {
    local name=$1 preload=$2 envs
    shift 2
    rm -rf "${dir:?}/$name"
    mapfile -t envs < <(env_of "LD_PRELOAD=$preload" "MPISCOPE_DIR=$dir/$name" "$@")
    (cd "$dir" && timeout -k 10 "$TEST_TIMEOUT" "${launch[@]}" "${envs[@]}" ./halo 10 200) \
        >"$dir/$name.out" 2>"$dir/$name.err" || fail "$name: the run failed: $(tail -3 "$dir/$name.err")"
}

(cd "$dir" && timeout -k 10 "$TEST_TIMEOUT" "${launch[@]}" ./halo 10 200) >"$dir/plain.out" 2>/dev/null ||
    fail "halo does not run without the library"

# behind TOOL NAME: TOOL first in LD_PRELOAD, mpiscope second.
behind() {
    local tool=$1 name=$2
    run "$name" "$tool:$lib"
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
    behind "$mpip" mpip-first
else
    echo "note: mpiP not built ($mpip); ../shared/peers/build-mpip.sh builds it"
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

# ahead_mpip: mpiP after mpiscope counts, for every function both record,
# the calls mpiscope records (its report's callsite statistics, the "*"
# rows of all ranks, summed per function).
ahead_mpip() {
    local name=mpip-after report
    rm -f "$dir"/halo.*.mpiP
    run "$name" "$lib:$mpip" "MPIP=-f $dir"
    report=$(ls "$dir"/halo.*.mpiP 2>/dev/null | head -1)
    [ -n "$report" ] || fail "$name: mpiP wrote no report (it did not initialize): $(tail -3 "$dir/$name.err")"
    local theirs ours
    theirs=$(awk '/^@--- Callsite Time statistics/ { on = 1; next } /^@---/ { on = 0 }
                  on && NF >= 4 && $3 == "*" { n[tolower($1)] += $4 }
                  END { for (o in n) print o, n[o] }' "$report" | sort)
    ours=$(ops "$name" | awk 'NR == FNR { t[$1] = 1; next } ($1 in t)' <(echo "$theirs") -)
    [ -n "$theirs" ] && [ "$ours" = "$theirs" ] ||
        fail "$name: mpiP after mpiscope counts [$(echo $theirs)], mpiscope [$(echo $ours)]"
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
    ahead_mpip
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
exit 0
