#!/usr/bin/env bash
# The MPI merge against the serial merge: for each run directory below,
# `mpiexec.mpich -n P mpiscope-merge-mpich` for P = 1, 2 and 4, and the
# program started without mpiexec (singleton), must give exactly what
# mpiscope-merge gives: --csv, --ranks-csv, --json, --matrix-csv, --waits-csv,
# --callsites-csv, --sites-csv, --roofline-csv, --events-csv, --files-csv, --trace, --html and the text
# report byte for byte, the same stderr (the program name aside) and the same exit
# status. Directories:
#   halo-4      examples/halo.c at 4 ranks (point-to-point, collectives)
#   coll-4/-8   test/mpi/coll_global.c at 4 and 8 ranks (many collectives)
#   rma-4       test/mpi/rma_active.c at 4 ranks (one-sided)
#   io-4        test/mpi/io_calls.c at 4 ranks (MPI-IO: file records)
#   sites-3     test/mpi/callsites at 3 ranks: call sites, a library's own
#   counters-2  test/mpi/likwid/markers.c with the fake liblikwid: hardware
#               counters (when LIKWID support is built); 4 processes on 2 logs
#   golden-*    the golden logs of versions 1 to 4 (2 logs each from v3 on,
#               so 4 processes on 2 logs) and of version 8 (communicators
#               made, named and labelled: 4 logs)
#   summary-4   test/mpi/callsites at 4 ranks in summary mode (aggregates,
#               call sites; the timeline outputs are refused, exit 1)
#   skew-4      examples/halo.c at 4 ranks with clocks made to disagree by
#               50 ms and 200 ppm per rank (clock alignment)
#   gpu-2       test/mpi/cupti.sh's 2-rank run with the fake libcupti: GPU
#               streams, attribution, dropped records (when CUPTI is built)
#   synth-300   300 synthesized ranks of 3 threads (test/scale/synth_logs.c)
#   warn        coll-8 with rank 3's log cut short and rank 4's log twice
#               (warnings, exit 0)
#   corrupt     halo-4 with bytes of rank 2's log overwritten (exit 2)
#   empty, missing  no logs, no directory (exit 1)
# and a bad option (exit 1), -j 1, a timeline window of halo-4 (--from,
# --to, --ranks) and a bad one (exit 1), and the memory guard (--mem-limit
# below what halo-4's wait-state analysis needs: left out, said so; a bad
# size, exit 1). When built, a copy of the program that
# sends its packets in pieces of 4093 bytes runs at P = 4 on each directory too
# (packets of several pieces, pieces that end inside a struct).
#
#   BUILD=build bash test/merge_parallel.sh    (exit 77: mpiscope-merge-mpich not built)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. test/sanitizer_env.sh

BUILD=${BUILD:-build}
MPICC_MPICH=${MPICC_MPICH:-mpicc.mpich}
MPIEXEC_MPICH=${MPIEXEC_MPICH:-mpiexec.mpich}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
PYTHON=${PYTHON:-python3}
case "$BUILD" in
    /*) build_abs=$BUILD ;;
    *) build_abs=$PWD/$BUILD ;;
esac
merge=$build_abs/bin/mpiscope-merge
pmerge=$build_abs/bin/mpiscope-merge-mpich
# The same program sending its packets in pieces of 4093 bytes (make merge-parallel-tests builds it).
pieces=$build_abs/test/merge/mpiscope-merge-mpich-pieces
[ -x "$pieces" ] || pieces=
lib=$build_abs/lib/libmpiscope-mpich.so
out=$build_abs/test/merge_parallel
if [ ! -x "$pmerge" ]; then
    echo "merge_parallel: $pmerge not built ($MPICC_MPICH missing): skipped"
    exit 77
fi
rm -rf "$out"
mkdir -p "$out/data" "$out/bin"
data=$out/data
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
die() {
    echo "FAIL: $*"
    exit 1
}

# ---- the run directories ----
preload=$(sanitizer_preload "$lib")
# profile NAME N PROGRAM [ENV=VALUE...]
profile() {
    local name=$1 n=$2 exe=$3 args=(-genv LD_PRELOAD "$preload" -genv MPISCOPE_DIR "$data/$1")
    shift 3
    for kv in "$@"; do args+=(-genv "${kv%%=*}" "${kv#*=}"); done
    timeout -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n "$n" "${args[@]}" "$exe" >"$data/$name.out" 2>"$data/$name.err" ||
        die "$name: the program exits $? (see $data/$name.err)"
    [ -e "$data/$name/rank-000000.zst" ] || die "$name: no logs"
}
cflags="-std=c11 -O1 -g -Wno-error"
"$MPICC_MPICH" $cflags -o "$out/bin/halo" examples/halo.c -lm || die "cannot build halo"
"$MPICC_MPICH" $cflags -Itest/mpi -o "$out/bin/coll_global" test/mpi/coll_global.c -lm || die "cannot build coll_global"
"$MPICC_MPICH" $cflags -Itest/mpi -o "$out/bin/rma_active" test/mpi/rma_active.c -lm || die "cannot build rma_active"
"$MPICC_MPICH" $cflags -Itest/mpi -o "$out/bin/io_calls" test/mpi/io_calls.c -lm || die "cannot build io_calls"
"$MPICC_MPICH" -g -O1 -fPIC -shared test/mpi/callsites/helper.c -o "$out/bin/libhelper.so" || die "cannot build libhelper"
"$MPICC_MPICH" -g -O1 -Itest/mpi/callsites test/mpi/callsites/main.c -L"$out/bin" -lhelper \
    -Wl,-rpath,"$out/bin" -o "$out/bin/callsites" || die "cannot build callsites"
profile halo-4 4 "$out/bin/halo"
profile coll-4 4 "$out/bin/coll_global"
profile coll-8 8 "$out/bin/coll_global"
profile rma-4 4 "$out/bin/rma_active"
profile io-4 4 "$out/bin/io_calls"
profile sites-3 3 "$out/bin/callsites"
profile summary-4 4 "$out/bin/callsites" MPISCOPE_MODE=summary
profile skew-4 4 "$out/bin/halo" MPISCOPE_TEST_CLOCK_SKEW=50000000,200
dirs=(halo-4 coll-4 coll-8 rma-4 io-4 sites-3 summary-4 skew-4)

# Hardware counters from the fake liblikwid (as test/mpi/likwid.sh).
if printf '#include <likwid-marker.h>\n' | ${CC:-cc} -E -x c - >/dev/null 2>&1 &&
    nm -D "$lib" 2>/dev/null | grep ' T likwid_markerStartRegion' >/dev/null; then
    mkdir -p "$out/bin/fake"
    ${CC:-cc} -std=c11 -O2 -g -fPIC -shared -Wl,-soname,liblikwid.so.5.2 -o "$out/bin/fake/liblikwid.so.5.2" \
        test/mpi/likwid/fake_likwid.c -lpthread || die "cannot build the fake liblikwid"
    ln -sf liblikwid.so.5.2 "$out/bin/fake/liblikwid.so"
    "$MPICC_MPICH" -std=c11 -O2 -g -DLIKWID_PERFMON -o "$out/bin/markers-fake" test/mpi/likwid/markers.c \
        -L"$out/bin/fake" -llikwid -lpthread || die "cannot build markers.c"
    profile counters-2 2 "$out/bin/markers-fake" LD_LIBRARY_PATH="$out/bin/fake" MPISCOPE_LIKWID=FAKE_DP
    grep -q . "$data/counters-2.err" && die "counters-2: diagnostics: $(cat "$data/counters-2.err")"
    dirs+=(counters-2)
else
    echo "merge_parallel: no LIKWID support built: no counter directory"
fi

for v in v1 v2 v3 v4 v4-summary v4-gpu v8; do
    cp -r "test/golden/$v" "$data/golden-$v"
    dirs+=("golden-$v")
done

# GPU activity: the fake-CUPTI run of test/mpi/cupti.sh (2 ranks, several
# streams, attribution, dropped records).
if MERGE=$merge bash test/mpi/cupti.sh mpich "$preload" "$out/cupti" >"$out/cupti.log" 2>&1; then
    cp -r "$out/cupti/ranks" "$data/gpu-2"
    dirs+=(gpu-2)
else
    rc=$?
    [ "$rc" -eq 77 ] || die "test/mpi/cupti.sh failed: $(tail -3 "$out/cupti.log")"
    echo "merge_parallel: no CUPTI support built: no GPU directory"
fi

# Many files: 300 synthesized ranks with 3 threads each (test/scale/).
"$BUILD/test/scale/synth-logs" --ranks 300 --events 200000 --threads 3 --regions 5 "$data/synth-300" >/dev/null ||
    die "synth-logs failed"
dirs+=(synth-300)

mkdir -p "$data/warn"
cp "$data"/coll-8/rank-*.zst "$data/warn/"
size=$(stat -c %s "$data/warn/rank-000003.zst")
truncate -s $((size / 2)) "$data/warn/rank-000003.zst"
cp "$data/warn/rank-000004.zst" "$data/warn/rank-000009.zst"
dirs+=(warn)

mkdir -p "$data/corrupt"
cp "$data"/halo-4/rank-*.zst "$data/corrupt/"
size=$(stat -c %s "$data/corrupt/rank-000002.zst")
printf 'XXXXXXXXXXXXXXXX' | dd of="$data/corrupt/rank-000002.zst" bs=1 seek=$((size / 2)) conv=notrunc status=none
dirs+=(corrupt)

mkdir -p "$data/empty"
dirs+=(empty missing)

# ---- the comparison ----
# outputs PREFIX: the options that write every output file under PREFIX.
outputs() {
    local p=$1
    echo --csv "$p.csv" --ranks-csv "$p.ranks.csv" --json "$p.json" --matrix-csv "$p.matrix.csv" \
        --callsites-csv "$p.callsites.csv" --roofline-csv "$p.roofline.csv" --events-csv "$p.events.csv" \
        --trace "$p.trace.json" --text "$p.txt" --html "$p.html" --waits-csv "$p.waits.csv" --files-csv "$p.files.csv" \
        --sites-csv "$p.sites.csv"
}
files=(csv ranks.csv json matrix.csv callsites.csv roofline.csv events.csv trace.json txt html waits.csv files.csv sites.csv)

# compare NAME LABEL STATUS: LABEL's outputs, stderr and status against the serial merge's.
compare() {
    local name=$1 label=$2 st=$3 ref=$out/$1.serial got=$out/$1.$2
    [ "$st" = "$(cat "$ref.status")" ] || fail "$name $label: exit status $st, the serial merge's $(cat "$ref.status")"
    sed 's/mpiscope-merge-mpich/mpiscope-merge/g' "$got.err" >"$got.err.norm"
    cmp -s "$ref.err" "$got.err.norm" || fail "$name $label: stderr differs: $(diff "$ref.err" "$got.err.norm" | head -5)"
    for f in "${files[@]}"; do
        if [ -e "$ref.$f" ] || [ -e "$got.$f" ]; then
            cmp -s "$ref.$f" "$got.$f" || fail "$name $label: $f differs"
        fi
    done
}

for name in "${dirs[@]}"; do
    d=$data/$name
    # shellcheck disable=SC2046
    "$merge" $(outputs "$out/$name.serial") "$d" 2>"$out/$name.serial.err"
    echo $? >"$out/$name.serial.status"
    for p in 1 2 4; do
        # shellcheck disable=SC2046
        timeout -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n $p "$pmerge" $(outputs "$out/$name.p$p") "$d" \
            2>"$out/$name.p$p.err"
        compare "$name" p$p $?
    done
    # shellcheck disable=SC2046
    timeout -k 10 "$TEST_TIMEOUT" "$pmerge" $(outputs "$out/$name.single") "$d" 2>"$out/$name.single.err"
    compare "$name" single $?
    if [ -n "$pieces" ]; then
        # shellcheck disable=SC2046
        timeout -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n 4 "$pieces" $(outputs "$out/$name.pieces") "$d" \
            2>"$out/$name.pieces.err"
        compare "$name" pieces $?
    fi
    echo "merge_parallel: $name: serial exit $(cat "$out/$name.serial.status"); P = 1, 2, 4, singleton${pieces:+ and pieces} compared"
done

# The exit statuses the directories must give, so that the comparison is not
# between two merges that both fail the same wrong way.
expect_status() {
    [ "$(cat "$out/$1.serial.status")" = "$2" ] || fail "$1: the serial merge exits $(cat "$out/$1.serial.status"), not $2"
}
for name in halo-4 coll-4 coll-8 rma-4 sites-3 golden-v1 golden-v2 golden-v3 golden-v8 warn; do
    expect_status "$name" 0
done
expect_status corrupt 2
expect_status empty 1
expect_status missing 1
grep -q "duplicate log of rank 4" "$out/warn.serial.err" || fail "warn: no duplicate-rank warning"
grep -q "rank-000003.zst.*readable part is used" "$out/warn.serial.err" || fail "warn: no truncation warning"
[ "$(grep -c . "$out/sites-3.serial.callsites.csv")" -gt 1 ] || fail "sites-3: no call sites"
[ "$(grep -c . "$out/halo-4.serial.matrix.csv")" -gt 1 ] || fail "halo-4: an empty traffic matrix"
[ "$(grep -c . "$out/io-4.serial.files.csv")" -gt 60 ] || fail "io-4: too few rows of files"
# The planted imbalance of examples/halo.c (its last rank pauses 2 ms in
# every step): the analysis names rank 3 as the late sender its neighbours
# (ranks 2 and 0) wait for in MPI_Waitall, also when the clocks disagree
# (skew-4: aligned first). Who enters MPI_Allreduce last is left to the
# scheduler when 4 ranks poll on 2 cores, so that is not checked.
for name in halo-4 skew-4; do
    for r in 0 2; do
        awk -F, -v r=$r 'NR > 1 && $1 == "late_sender" && $2 == r && $6 == 3 { n++ } END { exit !(n >= 1) }' \
            "$out/$name.serial.waits.csv" ||
            fail "$name: rank $r has no late sender caused by rank 3: $(cat "$out/$name.serial.waits.csv")"
    done
done
if [ -e "$out/counters-2.serial.roofline.csv" ]; then
    [ "$(grep -c . "$out/counters-2.serial.roofline.csv")" -gt 1 ] || fail "counters-2: no roofline points"
fi

# Text report on stdout, -j 1, and usage errors: the same on both.
"$merge" -j 1 "$data/coll-4" >"$out/stdout.serial.txt" 2>"$out/stdout.serial.err"
echo $? >"$out/stdout.serial.status"
timeout -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n 3 "$pmerge" -j 1 "$data/coll-4" >"$out/stdout.p3.txt" 2>"$out/stdout.p3.err"
compare stdout p3 $?
"$merge" --no-such-option "$data/coll-4" >/dev/null 2>"$out/badopt.serial.err"
echo $? >"$out/badopt.serial.status"
timeout -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n 2 "$pmerge" --no-such-option "$data/coll-4" >/dev/null \
    2>"$out/badopt.p2.err"
compare badopt p2 $?
expect_status badopt 1

# A timeline window (--from, --to, --ranks): the same outputs, and a bad one
# the same usage error.
# The window: the middle third of halo-4's calls (after MPI_Init's end).
read -r from to < <(awk -F, 'NR > 1 { print $5 }' "$out/halo-4.serial.events.csv" | sort -g |
    awk '{ t[NR] = $1 } END { print t[int(NR / 3)], t[int(2 * NR / 3)] }')
win=(--from "$from" --to "$to" --ranks 0,2-3)
# shellcheck disable=SC2046
"$merge" "${win[@]}" $(outputs "$out/window.serial") "$data/halo-4" 2>"$out/window.serial.err"
echo $? >"$out/window.serial.status"
# shellcheck disable=SC2046
timeout -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n 3 "$pmerge" "${win[@]}" $(outputs "$out/window.p3") "$data/halo-4" \
    2>"$out/window.p3.err"
compare window p3 $?
expect_status window 0
rows=$(grep -c . "$out/window.serial.events.csv")
[ "$rows" -gt 1 ] && [ "$rows" -lt "$(grep -c . "$out/halo-4.serial.events.csv")" ] ||
    fail "window: $rows rows of --events-csv, not a part of halo-4's"
"$merge" --from 2 --to 1 "$data/coll-4" >/dev/null 2>"$out/badwin.serial.err"
echo $? >"$out/badwin.serial.status"
timeout -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n 2 "$pmerge" --from 2 --to 1 "$data/coll-4" >/dev/null \
    2>"$out/badwin.p2.err"
compare badwin p2 $?
expect_status badwin 1

# The memory guard: a --mem-limit below what the wait-state analysis of
# halo-4 would hold leaves it out, says so on stderr and in the reports, and
# the MPI merge decides the same (its process 0 holds the analysis); a size
# that is not one is a usage error. halo-4 above had its wait states under
# the default limit.
# shellcheck disable=SC2046
"$merge" --mem-limit 64K $(outputs "$out/memlimit.serial") "$data/halo-4" 2>"$out/memlimit.serial.err"
echo $? >"$out/memlimit.serial.status"
# shellcheck disable=SC2046
timeout -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n 2 "$pmerge" --mem-limit 64K $(outputs "$out/memlimit.p2") \
    "$data/halo-4" 2>"$out/memlimit.p2.err"
compare memlimit p2 $?
expect_status memlimit 0
grep -q "warning: the wait-state analysis would hold about .* over --mem-limit 64.0 KiB: .* left out" \
    "$out/memlimit.serial.err" || fail "memlimit: no warning: $(cat "$out/memlimit.serial.err")"
grep -q "^Wait states: left out, with the critical path: .*--mem-limit" "$out/memlimit.serial.txt" ||
    fail "memlimit: the text report does not say why the wait states are missing"
$PYTHON -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(d["wait_states"] is not None or "--mem-limit" not in d.get("wait_states_skipped", ""))' \
    "$out/memlimit.serial.json" || fail "memlimit: the JSON does not say why the wait states are missing"
grep -q '"skipped":"the wait-state analysis' "$out/memlimit.serial.html" || fail "memlimit: the HTML page does not say it"
"$merge" --mem-limit 12parsecs "$data/coll-4" >/dev/null 2>"$out/badlimit.serial.err"
echo $? >"$out/badlimit.serial.status"
timeout -k 10 "$TEST_TIMEOUT" "$MPIEXEC_MPICH" -n 2 "$pmerge" --mem-limit 12parsecs "$data/coll-4" >/dev/null \
    2>"$out/badlimit.p2.err"
compare badlimit p2 $?
expect_status badlimit 1

if [ "$failures" -ne 0 ]; then
    echo "merge_parallel: $failures failure(s)"
    exit 1
fi
echo "merge_parallel: all passed"
