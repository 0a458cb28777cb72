#!/usr/bin/env bash
# Where the logs cannot be written, the application runs as without the
# preload library: same stdout, exit status 0, and at most one mpiscope:
# warning per rank. faults/progress.c (2000 calls of MPI_Iprobe per rank)
# runs at 2 and 4 ranks with MPISCOPE_DIR
#   missing    under a parent that does not exist: one warning per rank;
#   readonly   in a read-only file system (a read-only tmpfs mount; without
#              root, a directory of mode 0555): one warning per rank;
#   dirlink    a symbolic link to a directory: refused, one warning per
#              rank, nothing written through it;
#   filelink   a directory where rank-000001.zst is a symbolic link planted
#              to another file: rank 1 warns once and writes nothing, that
#              file is unchanged, the other ranks' logs are complete;
#   full       a tmpfs with N+1 free pages that fills mid-run (a filler file
#              takes the rest): two warnings per rank (no room; and no room
#              even for the summary of what did not fit), each
#              log valid zstd ending at a frame boundary, and the merge
#              reads them (exit 0, "truncated" warnings). Skipped (the only
#              skip) when no tmpfs can be mounted here.
# Also the run identity: every log of one run has the same run=<16 hex
# digits> string, and two runs have different ones.
#
#   fault_files.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
source "$(dirname "$0")/faults/common.sh"
build_progress
calls=2000
mounts=()
cleanup() {
    local m
    for m in ${mounts[@]+"${mounts[@]}"}; do umount "$m" 2>/dev/null; done
}
trap cleanup EXIT

# mount_tmpfs DIR OPTIONS: 0 when mounted.
mount_tmpfs() {
    mkdir -p "$1"
    mount -t tmpfs -o "$2" tmpfs "$1" 2>/dev/null || return 1
    mounts+=("$1")
}

# run_case NAME N LOGDIR WARNINGS: runs profiled with MPISCOPE_DIR=LOGDIR;
# requires stdout and status as without the library and WARNINGS lines of
# mpiscope: on stderr.
run_case() {
    local name=$1 n=$2 logdir=$3 warnings=$4 d=$dir/$1-$2
    mkdir -p "$d/pp" "$d/pq"
    launch "$n" "" "$dir/progress" finalize "$d/pp" $calls >"$d/plain.out" 2>"$d/plain.err"
    local plain_rc=$?
    launch "$n" "$logdir" "$dir/progress" finalize "$d/pq" $calls >"$d/profiled.out" 2>"$d/profiled.err"
    local rc=$?
    [ $rc = 0 ] && [ $plain_rc = 0 ] || problem "$name -n $n: exits $rc with the preload library, $plain_rc without"
    cmp -s "$d/plain.out" "$d/profiled.out" || problem "$name -n $n: stdout differs with the preload library"
    local got
    got=$(grep -c 'mpiscope:' "$d/profiled.err")
    echo "$name -n $n: $got warnings: $(grep -m1 'mpiscope:' "$d/profiled.err")"
    [ "$got" = "$warnings" ] || problem "$name -n $n: $got mpiscope: warnings, expected $warnings (files in $d)"
}

root=$dir/fs
mkdir -p "$root"
for n in 2 4; do
    run_case missing $n "$root/no/such/parent-$n" $n
    [ ! -e "$root/no" ] || problem "missing -n $n: a parent directory was created"

    ro=$root/ro-$n
    if mount_tmpfs "$ro" ro,size=64k; then
        run_case readonly $n "$ro/logs" $n
    else
        mkdir -p "$ro" && chmod 0555 "$ro"
        run_case readonly $n "$ro/logs" $n
    fi
    [ ! -e "$ro/logs" ] || problem "readonly -n $n: $ro/logs was created"

    mkdir -p "$root/target-$n"
    ln -sfn "$root/target-$n" "$root/dirlink-$n"
    run_case dirlink $n "$root/dirlink-$n" $n
    [ -z "$(ls -A "$root/target-$n")" ] || problem "dirlink -n $n: logs written through the link"

    fl=$root/filelink-$n
    mkdir -p "$fl"
    echo precious >"$root/victim-$n"
    ln -s "$root/victim-$n" "$fl/rank-000001.zst"
    run_case filelink $n "$fl" 1
    [ "$(cat "$root/victim-$n")" = precious ] || problem "filelink -n $n: the link's target was changed"
    # The merge refuses the planted file: read the other ranks' logs alone.
    mkdir -p "$dir/filelink-$n-others"
    for ((r = 0; r < n; r++)); do
        [ $r = 1 ] && continue
        cp "$(printf '%s/rank-%06d.zst' "$fl" $r)" "$dir/filelink-$n-others/"
    done
    for ((r = 0; r < n; r++)); do
        [ $r = 1 ] && continue
        got=$(recorded "$dir/filelink-$n-others" $r iprobe)
        [ "$got" = $calls ] || problem "filelink -n $n rank $r: $got calls recorded, $calls made"
    done

    full=$root/full-$n
    if mount_tmpfs "$full" size=64k; then
        dd if=/dev/zero of="$full/filler" bs=4k count=$((16 - n - 1)) status=none
        # A small buffer and flush interval: many blocks, so the disk fills mid-run.
        # Two warnings per rank: the disk is full, and (too small even for
        # the summary of what did not fit) those calls are lost.
        extra_env="MPISCOPE_BUFFER_KB=64 MPISCOPE_FLUSH_MS=5" run_case full $n "$full/logs" $((2 * n))
        [ "$(grep -c 'has no room (No space left on device)' "$dir/full-$n/profiled.err")" = $n ] ||
            problem "full -n $n: not one full-disk warning per rank"
        if ! zstd -tq "$full"/logs/rank-*.zst 2>"$dir/full-$n.zstd"; then
            problem "full -n $n: a log is not valid zstd up to its end"
        fi
        if ! "$MERGE" "$full/logs" >"$dir/full-$n.report" 2>"$dir/full-$n.merge"; then
            problem "full -n $n: mpiscope-merge fails on the logs"
        fi
        echo "full -n $n: $(ls "$full/logs" | wc -l) logs, $(du -sk "$full" | cut -f1) KiB," \
            "$(grep -c truncated "$dir/full-$n.merge") truncated"
    else
        full_skipped=1
    fi
done

# Run identity.
ids=()
for run in 1 2; do
    launch 3 "$dir/run-$run" "$dir/progress" finalize "$dir" 10 >/dev/null 2>&1 ||
        problem "run $run exits non-zero"
    id=$(for f in "$dir/run-$run"/rank-*.zst; do zstd -dc "$f" | grep -ao 'run=[0-9a-f]\{16\}' | head -1; done | sort -u)
    echo "run $run: ${id//$'\n'/ }"
    [ "$(echo "$id" | grep -c .)" = 1 ] || problem "run $run: the logs do not share one run= string: [$id]"
    ids+=("$id")
done
[ "${ids[0]}" != "${ids[1]}" ] || problem "two runs have the same ${ids[0]}"

if [ $status = 0 ] && [ -n "${full_skipped:-}" ]; then
    echo "no tmpfs can be mounted here: the full file system case was left out"
    exit 77
fi
exit $status
