#!/usr/bin/env bash
# Dynamic processes: a parent world of 2 ranks spawns 2 children
# (MPI_Comm_spawn over MPI_COMM_WORLD, test/mpi/spawn/parent.c); parent r and
# child r exchange a message each way over the intercommunicator, the
# children allreduce among themselves (spawn/child.c), child 1 answers 300 ms
# late. With the preload library the program must print what it prints
# without it and exit 0; the parents log rank-000000..1 into DIR, the
# children, a world of their own, into DIR/spawn-1; the merge of DIR counts
# the parents' calls exactly and names spawn-1 in one line that says how to
# take it in (text report; --json "spawned_worlds"), the merge of
# DIR/spawn-1 the children's. The merge of DIR --with-spawned reads both
# worlds as one run: ranks 0:0, 0:1, 1:0, 1:1, the four messages between
# the worlds in the matrix with their bytes, parent 1 waiting (late
# sender) for child 1:1, and the MPI merge (mpiscope-merge-mpich, where
# built) writes the same bytes. Without MPISCOPE_DIR the children log into
# spawn-1 of their parents' default directory (the only directory the run
# makes). Skipped (77) where spawning fails under this MPI without the
# library.
#
#   spawn.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$root/build}
MERGE=${MERGE:-$BUILD/bin/mpiscope-merge}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
PYTHON=${PYTHON:-python3}
if [ "$flavour" = mpich ]; then
    cc=${MPICC_MPICH:-mpicc.mpich}
else
    cc=${MPICC_OPENMPI:-mpicc.openmpi}
fi

fail() {
    echo "FAIL: $*"
    exit 1
}

for p in parent child; do
    $cc -std=c11 -O1 -g -Wall -Wextra -Werror "$root/test/mpi/spawn/$p.c" -o "$dir/$p" || fail "cannot build $p.c"
done

# run NAME [LIBRARY [nodir]]: the parent world at 2 ranks, stdout, stderr and
# status in $dir/NAME.*; with LIBRARY preloaded and MPISCOPE_DIR=$dir/NAME-logs
# (nodir: without MPISCOPE_DIR, in the working directory $dir/NAME-cwd).
run() {
    local name=$1 preload=${2:-} nodir=${3:-} args=()
    mkdir -p "$dir/$name-cwd"
    if [ "$flavour" = mpich ]; then
        [ -z "$preload" ] || args=(-genv LD_PRELOAD "$preload")
        [ -z "$preload" ] || [ -n "$nodir" ] || args+=(-genv MPISCOPE_DIR "$dir/$name-logs")
        (cd "$dir/$name-cwd" && env -u MPISCOPE_DIR timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" \
            -n 2 ${args[@]+"${args[@]}"} "$dir/parent" "$dir/child" >"$dir/$name.out" 2>"$dir/$name.err")
    else
        [ -z "$preload" ] || args=(-x "LD_PRELOAD=$preload")
        [ -z "$preload" ] || [ -n "$nodir" ] || args+=(-x "MPISCOPE_DIR=$dir/$name-logs")
        (cd "$dir/$name-cwd" && env -u MPISCOPE_DIR timeout -k 10 "$TEST_TIMEOUT" \
            "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root --oversubscribe \
            -np 2 ${args[@]+"${args[@]}"} "$dir/parent" "$dir/child" >"$dir/$name.out" 2>"$dir/$name.err")
    fi
    echo $? >"$dir/$name.status"
}

run plain
if [ "$(cat "$dir/plain.status")" != 0 ]; then
    cat "$dir/plain.err"
    # The parent prints only after the spawn: no output, the spawn failed
    # (MPICH 4.0 with ch4:ucx cannot spawn: "Error in spawn call"; its
    # abort message is sometimes lost).
    why=$(grep -i -E 'spawn' "$dir/plain.err" | tail -n 1 | sed 's/^ *//' | cut -c1-160)
    if [ ! -s "$dir/plain.out" ]; then
        echo "MPI_Comm_spawn fails under $flavour on this machine without the library" \
            "(exit $(cat "$dir/plain.status"): ${why:-no message})"
        exit 77
    fi
    fail "the program exits $(cat "$dir/plain.status") without the library"
fi
grep -q '^rank 1 got 31$' "$dir/plain.out" || fail "unexpected output without the library: $(cat "$dir/plain.out")"

run profiled "$lib"
[ "$(cat "$dir/profiled.status")" = 0 ] ||
    fail "exit status $(cat "$dir/profiled.status") with the library (0 without): $(head -20 "$dir/profiled.err")"
diff "$dir/plain.out" "$dir/profiled.out" >"$dir/stdout.diff" ||
    fail "stdout differs with the library (< without, > with): $(cat "$dir/stdout.diff")"
! grep 'mpiscope:' "$dir/profiled.err" || fail "the library printed diagnostics"

logs=$dir/profiled-logs
want=$'rank-000000.zst\nrank-000001.zst'
for d in "$logs" "$logs/spawn-1"; do
    got=$(cd "$d" 2>/dev/null && ls -1 rank-*.zst 2>/dev/null)
    [ "$got" = "$want" ] || fail "logs in $d are [${got//$'\n'/ }], expected [${want//$'\n'/ }]"
    zstd -tq "$d"/rank-*.zst || fail "a log in $d is not a valid zstd stream"
done
others=$(cd "$logs" && ls -1 | grep -v -x -E 'rank-00000[01]\.zst|spawn-1')
[ -z "$others" ] || fail "unexpected entries in $logs: $others"

# merge NAME DIR: text report, --csv and --json of DIR into $dir/NAME.*
merge() {
    "$MERGE" "$2" >"$dir/$1.txt" 2>"$dir/$1.merge.err" && [ ! -s "$dir/$1.merge.err" ] ||
        fail "mpiscope-merge $2 fails or complains: $(cat "$dir/$1.merge.err")"
    "$MERGE" --csv "$dir/$1.csv" --json "$dir/$1.json" "$2" >/dev/null 2>"$dir/$1.merge.err" &&
        [ ! -s "$dir/$1.merge.err" ] ||
        fail "mpiscope-merge --csv --json $2 fails or complains: $(cat "$dir/$1.merge.err")"
}
merge parent "$logs"
merge child "$logs/spawn-1"

grep -q "spawn-1/ (2 ranks): world this run spawned, left out of this report" "$dir/parent.txt" ||
    fail "the parent's report does not name spawn-1: $(head -20 "$dir/parent.txt")"
grep -qF "mpiscope-merge --with-spawned $logs takes it in" "$dir/parent.txt" ||
    fail "the parent's report does not say how to take spawn-1 in"
! grep -q "spawned  " "$dir/child.txt" || fail "the children's report names spawned worlds"

$PYTHON - "$dir" <<'PY' || fail "the merged counts are not as expected (files in $dir)"
import csv, json, sys
d = sys.argv[1]

def calls(name):
    out = {}
    for r in csv.DictReader(open(f"{d}/{name}.csv")):
        if r["name"].startswith("mpi:"):
            op = r["operation"]
            out.setdefault(op, []).append(r)
    return out

def total(rows, op):
    return sum(int(r["calls"]) for r in rows.get(op, []))

def comms(rows, op):
    return {r["comm"] for r in rows.get(op, [])}

p, c = calls("parent"), calls("child")
want_p = {"comm_spawn": 2, "send": 2, "recv": 2, "allreduce": 0, "gather": 2, "comm_free": 2}
want_c = {"comm_spawn": 0, "send": 2, "recv": 2, "allreduce": 2, "gather": 0, "comm_free": 2}
for world, rows, want in (("parent", p, want_p), ("child", c, want_c)):
    for op, n in want.items():
        assert total(rows, op) == n, f"{world}: {op} calls {total(rows, op)}, expected {n}"
spawn = p["comm_spawn"]
assert len(spawn) == 1 and spawn[0]["root"] == "0" and spawn[0]["comm"] == "0" \
    and spawn[0]["kind"] == "collective" and spawn[0]["ranks"] == "2", spawn
for world, rows in (("parent", p), ("child", c)):
    ids = comms(rows, "send") | comms(rows, "recv") | comms(rows, "comm_free")
    assert len(ids) == 1 and int(ids.pop()) > 1, f"{world}: the intercommunicator's ids {ids}"
assert comms(c, "allreduce") == {"0"}, comms(c, "allreduce")
jp = json.load(open(f"{d}/parent.json"))
assert jp.get("spawned_worlds") == [{"dir": "spawn-1", "ranks": 2}], jp.get("spawned_worlds")
assert jp["run"]["ranks"] == 2, jp["run"]
jc = json.load(open(f"{d}/child.json"))
assert "spawned_worlds" not in jc and jc["run"]["ranks"] == 2, jc["run"]
PY
# Both worlds as one run.
both=(--with-spawned --text "$dir/both.txt" --json "$dir/both.json" --matrix-csv "$dir/both.matrix.csv"
    --waits-csv "$dir/both.waits.csv")
"$MERGE" "${both[@]}" "$logs" 2>"$dir/both.err" && [ ! -s "$dir/both.err" ] ||
    fail "mpiscope-merge --with-spawned fails or complains: $(cat "$dir/both.err")"
grep -qF "worlds       0: . (2 ranks), 1: spawn-1/ (2 ranks); ranks named world:rank" "$dir/both.txt" ||
    fail "the report of both worlds does not name them: $(head -14 "$dir/both.txt")"
grep -q "^  rank 0:1 · MPI_Recv at parent.c:[0-9]* · late sender · 1 call · .* · waited for rank 1:1$" "$dir/both.txt" ||
    fail "the report of both worlds does not have parent 1 wait for child 1:1: $(grep -A6 '^Wait states' "$dir/both.txt")"
$PYTHON - "$dir" <<'PY' || fail "the merge of both worlds is not as expected (files in $dir)"
import csv, json, sys
d = sys.argv[1]
rows = {(r["src"], r["dst"]): (int(r["messages"]), int(r["bytes"])) for r in csv.DictReader(open(f"{d}/both.matrix.csv"))}
# parent r sends child r one int (tag 1), child r answers parent r (tag 2)
want = {("0:0", "1:0"): (1, 4), ("0:1", "1:1"): (1, 4), ("1:0", "0:0"): (1, 4), ("1:1", "0:1"): (1, 4)}
assert rows == want, rows
late = [r for r in csv.DictReader(open(f"{d}/both.waits.csv"))
        if r["pattern"] == "late_sender" and r["rank"] == "0:1" and r["region"].startswith("mpi:recv ")]
assert len(late) == 1 and late[0]["cause_rank"] == "1:1", late
# child 1 answers 300 ms late; parent 1 waits for it (less what its own
# send and receive took first)
assert 0.2 <= float(late[0]["wait_s"]) <= 2.0, late
j = json.load(open(f"{d}/both.json"))
assert j["run"]["ranks"] == 4, j["run"]
assert j["worlds"] == [{"world": 0, "dir": "", "first_rank": 0, "ranks": 2, "parent": None},
                       {"world": 1, "dir": "spawn-1", "first_rank": 2, "ranks": 2, "parent": 0}], j["worlds"]
assert "spawned_worlds" not in j
PY
mpi_merge=${MERGE_MPI:-$BUILD/bin/mpiscope-merge-mpich}
if [ -x "$mpi_merge" ]; then
    mkdir -p "$dir/both-mpi"
    both_mpi=(--with-spawned --text "$dir/both-mpi/both.txt" --json "$dir/both-mpi/both.json"
        --matrix-csv "$dir/both-mpi/both.matrix.csv" --waits-csv "$dir/both-mpi/both.waits.csv")
    timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n 2 "$mpi_merge" "${both_mpi[@]}" "$logs" \
        2>"$dir/both-mpi.err" || fail "mpiscope-merge-mpich --with-spawned fails: $(cat "$dir/both-mpi.err")"
    for f in both.txt both.json both.matrix.csv both.waits.csv; do
        cmp -s "$dir/$f" "$dir/both-mpi/$f" || fail "mpiscope-merge-mpich --with-spawned writes another $f"
    done
fi

# Without MPISCOPE_DIR: one default directory, the children in its spawn-1.
rm -rf "$dir/nodir-cwd"
run nodir "$lib" nodir
[ "$(cat "$dir/nodir.status")" = 0 ] || fail "exit status $(cat "$dir/nodir.status") without MPISCOPE_DIR"
! grep 'mpiscope:' "$dir/nodir.err" || fail "the library printed diagnostics without MPISCOPE_DIR"
made=$(cd "$dir/nodir-cwd" && ls -1)
case "$made" in
mpiscope-*) ;;
*) fail "without MPISCOPE_DIR the run made [${made//$'\n'/ }], not one default directory" ;;
esac
for d in "$dir/nodir-cwd/$made" "$dir/nodir-cwd/$made/spawn-1"; do
    got=$(cd "$d" 2>/dev/null && ls -1 rank-*.zst 2>/dev/null)
    [ "$got" = "$want" ] || fail "without MPISCOPE_DIR, logs in $d are [${got//$'\n'/ }], expected [${want//$'\n'/ }]"
done
echo "ok: parents in $logs, children in $logs/spawn-1; without MPISCOPE_DIR in $made/spawn-1"
