#!/usr/bin/env bash
# Shared directories and a stalled writer (docs/RELIABILITY.md, "Writing
# logs"), 2 ranks of faults/progress.c (200 MPI_Iprobe calls a rank):
#
#   other-user  a log directory of another user (a throwaway one, made by
#               this test and removed on every exit): one warning per rank
#               that names its owner, no log, output and status unchanged
#   sticky-other  mode 1777 holding a file of that user: refused, naming it
#   sticky-own  mode 1777 holding only files of ours: the logs are written
#   launcher    the launcher (--dry-run) refuses the first two and a mode
#               0777 directory that is not sticky, saying which rule
#   planted     summary mode with a FIFO planted at rank-000000.zst.new and
#               a symbolic link at rank-000001.zst.new: no hang, the link's
#               target untouched, every call of both ranks in the logs
#   no-snapshot  a directory planted at rank-000000.zst.new (1 rank): the
#               warning says the log holds its header only, never that it
#               keeps a previous snapshot
#   stall       a writer stalled 10 s a block (1000 calls, a flush every
#               10 ms), MPISCOPE_WRITER_WAIT_S=1:
#               the rank ends within seconds, saying what is lost
#
#   shared_dirs.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
source "$(dirname "$0")/faults/common.sh"
build_progress
calls=200
mpiscope=${BUILD:-build}/bin/mpiscope

[ "$(id -u)" = 0 ] || { echo "skip: another user's directory needs root"; exit 0; }
user=mpst$$
useradd -M -N -r -s /usr/sbin/nologin "$user" >/dev/null 2>&1 || { echo "FAIL: useradd $user"; exit 1; }
trap 'userdel "$user" >/dev/null 2>&1' EXIT INT TERM
uid=$(id -u "$user")

# profiled NAME N LOGDIR: runs progress profiled into LOGDIR; output in $dir/NAME.*
profiled() {
    local name=$1 n=$2 logdir=$3
    mkdir -p "$dir/$name.p"
    launch "$n" "$logdir" "$dir/progress" finalize "$dir/$name.p" $calls >"$dir/$name.out" 2>"$dir/$name.err"
    echo $? >"$dir/$name.status"
}
status_ok() {
    [ "$(cat "$dir/$1.status")" = 0 ] || problem "$1: exit $(cat "$dir/$1.status"): $(head -3 "$dir/$1.err")"
}
warned() {   # warned NAME TEXT COUNT
    local got
    got=$(grep -cF -- "$2" "$dir/$1.err")
    [ "$got" = "$3" ] || problem "$1: $got warnings with \"$2\", expected $3: $(grep -m2 mpiscope: "$dir/$1.err")"
}

# ---- the library ----
d=$dir/other-user.logs
mkdir -m 0777 "$d" && chown "$user" "$d"
profiled other-user 2 "$d"
status_ok other-user
warned other-user "belongs to uid $uid, not to this user (uid 0)" 2
[ -z "$(ls -A "$d")" ] || problem "other-user: files written into another user's directory: $(ls "$d")"

d=$dir/sticky-other.logs
mkdir -m 1777 "$d" && touch "$d/theirs" && chown "$user" "$d/theirs"
profiled sticky-other 2 "$d"
status_ok sticky-other
warned sticky-other "others can write it (mode 1777, sticky) and it holds \"theirs\" of uid $uid" 2

d=$dir/sticky-own.logs
mkdir -m 1777 "$d" && touch "$d/ours"
profiled sticky-own 2 "$d"
status_ok sticky-own
[ -s "$d/rank-000000.zst" ] && [ -s "$d/rank-000001.zst" ] || problem "sticky-own: the logs are missing"
grep -q mpiscope: "$dir/sticky-own.err" && problem "sticky-own: warned: $(grep -m1 mpiscope: "$dir/sticky-own.err")"

# ---- the launcher ----
if [ "$flavour" = mpich ]; then cmd=("$MPIEXEC_MPICH" -n 2 "$dir/progress"); else
    cmd=("$MPIRUN_OPENMPI" --allow-run-as-root --oversubscribe -np 2 "$dir/progress"); fi
mkdir -m 0777 "$dir/open.logs"
for c in "other-user.logs:belongs to uid $uid, not to you" "sticky-other.logs:holds $dir/sticky-other.logs/theirs of another user" \
         "open.logs:can be written by others (mode 777) and is not sticky"; do
    "$mpiscope" --dry-run --dir "$dir/${c%%:*}" -- "${cmd[@]}" finalize "$dir" 1 >"$dir/launcher.out" 2>"$dir/launcher.err"
    rc=$?
    [ $rc -ne 0 ] && grep -qF -- "${c#*:}" "$dir/launcher.err" ||
        problem "launcher: --dir ${c%%:*}: exit $rc, $(head -2 "$dir/launcher.err"); expected \"${c#*:}\""
done
ln -s "$dir/sticky-own.logs" "$dir/link.logs"
"$mpiscope" --dry-run --dir "$dir/link.logs" -- "${cmd[@]}" finalize "$dir" 1 >/dev/null 2>"$dir/launcher.err" &&
    problem "launcher: a symbolic link as --dir is accepted"

# ---- summary mode: what is planted at the snapshot's temporary name ----
d=$dir/planted.logs
mkdir "$d" && mkfifo "$d/rank-000000.zst.new" && echo precious >"$dir/victim" && ln -s "$dir/victim" "$d/rank-000001.zst.new"
extra_env="MPISCOPE_MODE=summary" profiled planted 2 "$d"
status_ok planted
[ "$(cat "$dir/victim")" = precious ] || problem "planted: the link's target was written"
for r in 0 1; do
    got=$(recorded "$d" $r iprobe)
    [ "$got" = $calls ] || problem "planted: rank $r: $got iprobe calls in its log, expected $calls"
done
grep -q mpiscope: "$dir/planted.err" && problem "planted: warned: $(grep -m1 mpiscope: "$dir/planted.err")"

d=$dir/no-snapshot.logs
mkdir -p "$d/rank-000000.zst.new"
extra_env="MPISCOPE_MODE=summary" profiled no-snapshot 1 "$d"
status_ok no-snapshot
warned no-snapshot "the log holds its header only (no snapshot was written yet)" 1
warned no-snapshot "previous snapshot" 0

# ---- a writer that stalls: finalize waits a bounded time ----
start=$(date +%s%N)
calls=1000 extra_env="MPISCOPE_TEST_WRITER_DELAY_MS=10000 MPISCOPE_WRITER_WAIT_S=1 MPISCOPE_FLUSH_MS=10" \
    profiled stall 1 "$dir/stall.logs"
took=$((($(date +%s%N) - start) / 1000000))
status_ok stall
warned stall "did not finish its write within 1 s" 1
[ "$took" -lt 8000 ] || problem "stall: the run took $took ms with a 1 s bound on the writer"
echo "shared_dirs ($flavour): stall ended after $took ms"
exit $status
