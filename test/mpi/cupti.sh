#!/usr/bin/env bash
# CUPTI support without a GPU (run by run.sh): a fake libcupti and a fake
# libcuda.so.1 (cupti/fake_cupti.c, cupti/fake_cuda.c), built here from the
# real CUDA headers, drive the collector's real dlopen, callback and buffer
# path with activity records of the real CUPTI struct types.
#   ranks      cupti/gpu_ranks.c on 2 ranks, 4 records per buffer handed
#              back newest first (out-of-order completion): exact kernel,
#              copy and memset counts and durations per rank, attribution
#              to the user region, NVTX range and MPI call open at launch,
#              busy % against the union of the events, dropped records
#              reported, GPU streams as trace tracks, the HTML GPU section;
#   early      GPU work before MPI_Init, one record per buffer: kept until
#              recording starts (launch unknown), without a spinning thread;
#   subscribed another CUPTI subscriber: one warning per rank, no GPU data;
#   version    a libcupti of another major version: the same;
#   single     cupti/gpu_single.c without MPI_Init: rank-000000.zst in the
#              default directory; without GPU work (and `true`): nothing;
#              killed (SIGKILL) after its GPU work, its truncated log holds
#              that work (decoded and written every MPISCOPE_FLUSH_MS);
#   no device  cupti/plain.c with cuInit failing: silent under auto, one
#              warning per rank under 1, libcupti never loaded; under 0
#              not even libcuda is loaded; no libcuda.so.1 at all under 1:
#              one warning per rank.
# cupti_check.py holds the expected numbers.
#
#   cupti.sh FLAVOUR LIBRARY OUTDIR     (exit 77: skipped)
set -uo pipefail
flavour=$1 lib=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-python3}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
CUDA_INC=${CUDA_HOME:-/usr/local/cuda}/include
cc=${MPICC_MPICH:-mpicc.mpich}
[ "$flavour" = mpich ] || cc=${MPICC_OPENMPI:-mpicc.openmpi}
# Under SANITIZE=1 run.sh passes "<libasan>:<library>": the library is the last.
lib_file=${lib##*:}
build_lib=$(cd "$(dirname "$lib_file")" && pwd)

fail() {
    echo "FAIL: $*"
    exit 1
}

if ! nm -D "$lib_file" 2>/dev/null | grep ' T InitializeInjection' >/dev/null; then
    echo "the preload library was built without CUPTI support (cupti.h not found)"
    exit 77
fi
# The fakes are built from the real CUDA headers.
if [ ! -r "$CUDA_INC/cupti.h" ] || [ ! -r "$CUDA_INC/cuda.h" ]; then
    echo "the CUDA headers are not in $CUDA_INC (set CUDA_HOME): the fake libcupti cannot be built"
    exit 77
fi
mkdir -p "$dir/fake/lib64" "$dir/empty"
fake=$dir/fake/lib64
flags="-std=c11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE"
${CC:-cc} $flags -fPIC -shared -isystem "$CUDA_INC" -Wl,-soname,libcuda.so.1 -o "$fake/libcuda.so.1" \
    "$here/cupti/fake_cuda.c" -ldl -lpthread || fail "cannot build the fake libcuda"
${CC:-cc} $flags -fPIC -shared -isystem "$CUDA_INC" -Wl,-soname,libcupti.so -o "$fake/libcupti.so" \
    "$here/cupti/fake_cupti.c" -L"$fake" -l:libcuda.so.1 -lpthread || fail "cannot build the fake libcupti"
"$cc" $flags -I"$here/../../include" -I"$here/cupti" -o "$dir/gpu_ranks" "$here/cupti/gpu_ranks.c" \
    -L"$fake" -lcupti -l:libcuda.so.1 -L"$build_lib" -lmpiscope-api -Wl,-rpath,"$build_lib" ||
    fail "cannot build gpu_ranks.c"
"$cc" $flags -o "$dir/plain" "$here/cupti/plain.c" || fail "cannot build plain.c"
${CC:-cc} $flags -I"$here/cupti" -o "$dir/gpu_single" "$here/cupti/gpu_single.c" -L"$fake" -lcupti \
    -l:libcuda.so.1 || fail "cannot build gpu_single.c"

# run NAME PRELOAD(0|1) PROGRAM [ARG...] (environment: ENV_ARGS) -> $dir/NAME.{out,err}, logs in $dir/NAME
run() {
    local name=$1 pre=$2 d=$dir/$1
    shift 2
    rm -rf "$d"
    local envs=(MPISCOPE_DIR="$d" CUDA_HOME="$dir/fake" "${ENV_ARGS[@]}")
    [ "$pre" = 1 ] && envs+=(LD_PRELOAD="$lib")
    if [ "$flavour" = mpich ]; then
        local genv=()
        for kv in "${envs[@]}"; do genv+=(-genv "${kv%%=*}" "${kv#*=}"); done
        timeout -k 10 "$TEST_TIMEOUT" "${MPIEXEC_MPICH:-mpiexec.mpich}" -n 2 "${genv[@]}" "$@" \
            >"$d.out" 2>"$d.err" || fail "$name: the program exits $? (see $d.err)"
    else
        local xenv=()
        for kv in "${envs[@]}"; do xenv+=(-x "$kv"); done
        timeout -k 10 "$TEST_TIMEOUT" "${MPIRUN_OPENMPI:-mpirun.openmpi}" --allow-run-as-root \
            --oversubscribe --bind-to none -np 2 "${xenv[@]}" "$@" \
            >"$d.out" 2>"$d.err" || fail "$name: the program exits $? (see $d.err)"
    fi
}
merge() {
    local name=$1 d=$dir/$1
    "$MERGE" --csv "$d.csv" --json "$d.json" --text "$d.txt" --trace "$d.trace.json" --events-csv "$d.events.csv" \
        --html "$d.html" "$d" 2>"$d.merge.err" || fail "$name: the merge exits $? (see $d.merge.err)"
}
check() {
    "$PYTHON" "$here/cupti_check.py" "$@" || fail "cupti_check.py $*"
}

# ---- ranks ----
ENV_ARGS=(LD_LIBRARY_PATH="$fake" FAKE_CUPTI_RECORDS=4 FAKE_CUPTI_REVERSE=1 MPISCOPE_FLUSH_MS=20)
run ranks-plain 0 "$dir/gpu_ranks"
run ranks 1 "$dir/gpu_ranks"
sort "$dir/ranks-plain.out" >"$dir/a.out" && sort "$dir/ranks.out" >"$dir/b.out"
cmp -s "$dir/a.out" "$dir/b.out" || fail "ranks: stdout differs with the preload library"
merge ranks
check ranks "$dir/ranks"

# ---- GPU work before MPI_Init ----
ENV_ARGS=(LD_LIBRARY_PATH="$fake" FAKE_CUPTI_RECORDS=1)
run early 1 "$dir/gpu_ranks" early
merge early
check early "$dir/early"

# ---- another subscriber ----
ENV_ARGS=(LD_LIBRARY_PATH="$fake" FAKE_CUPTI_SUBSCRIBED=1)
run subscribed 1 "$dir/gpu_ranks"
merge subscribed
check subscribed "$dir/subscribed"

ENV_ARGS=(LD_LIBRARY_PATH="$fake" FAKE_CUPTI_VERSION=120000)
run version 1 "$dir/gpu_ranks"
merge version
check version "$dir/version"

# ---- no device, no driver, off ----
for mode in auto 1 0; do
    rm -f "$dir/nodev-$mode.loads"
    ENV_ARGS=(LD_LIBRARY_PATH="$fake" FAKE_CUDA_DEVICES=0 MPISCOPE_CUPTI=$mode FAKE_CUDA_LOADLOG="$dir/nodev-$mode.loads")
    run "nodev-$mode" 1 "$dir/plain"
    merge "nodev-$mode"
    check "nodev-$mode" "$dir/nodev-$mode"
done
rm -f "$dir/device-auto.loads"
ENV_ARGS=(LD_LIBRARY_PATH="$fake" MPISCOPE_CUPTI=auto FAKE_CUDA_LOADLOG="$dir/device-auto.loads")
run device-auto 1 "$dir/plain"
merge device-auto
check device-auto "$dir/device-auto"
ENV_ARGS=(MPISCOPE_CUPTI=1 LD_LIBRARY_PATH="$dir/empty")
run nodriver-1 1 "$dir/plain"
merge nodriver-1
check nodriver-1 "$dir/nodriver-1"

# ---- single process: no MPI_Init ----
for what in single single-nowork true; do
    w=$dir/$what
    rm -rf "$w" && mkdir -p "$w"
    prog=("$dir/gpu_single")
    [ "$what" = single-nowork ] && prog+=(nowork)
    [ "$what" = true ] && prog=(true)
    (cd "$w" && env CUDA_HOME="$dir/fake" LD_LIBRARY_PATH="$fake" FAKE_CUPTI_RECORDS=2 LD_PRELOAD="$lib" \
        timeout -k 10 "$TEST_TIMEOUT" "${prog[@]}" >"$w.out" 2>"$w.err") || fail "$what: exits $?"
    if [ "$what" = single ]; then
        (cd "$w" && env CUDA_HOME="$dir/fake" LD_LIBRARY_PATH="$fake" "${prog[@]}" >"$w.plain.out") ||
            fail "$what: exits $? without the preload library"
        cmp -s "$w.out" "$w.plain.out" || fail "$what: stdout differs with the preload library"
        logs=$(cd "$w" && ls -d mpiscope-*/ 2>/dev/null)
        [ "$(echo "$logs" | wc -w)" = 1 ] || fail "single: expected one log directory, found: $logs"
        [ "$(ls "$w/$logs")" = rank-000000.zst ] || fail "single: $(ls "$w/$logs") instead of rank-000000.zst"
        mv "$w/$logs" "$w.logs"
        merge single.logs
        check single "$w.logs"
    else
        [ -z "$(ls -A "$w")" ] || fail "$what: wrote $(ls -A "$w") without GPU work"
        [ ! -s "$w.err" ] || fail "$what: printed $(cat "$w.err")"
    fi
done
# ---- killed: what the periodic flush wrote ----
k=$dir/killed
rm -rf "$k"
env CUDA_HOME="$dir/fake" LD_LIBRARY_PATH="$fake" MPISCOPE_DIR="$k" MPISCOPE_FLUSH_MS=20 LD_PRELOAD="$lib" \
    "$dir/gpu_single" hang >"$k.out" 2>"$k.err" &
pid=$!
for _ in $(seq 100); do
    grep -q 'GPU work done' "$k.out" 2>/dev/null && break
    sleep 0.1
done
sleep 0.5
{ kill -KILL "$pid" && wait "$pid"; } 2>/dev/null
grep -q 'GPU work done' "$k.out" || fail "killed: the program did not get to its GPU work"
"$MERGE" --csv "$k.csv" --json "$k.json" "$k" >/dev/null 2>"$k.merge.err" || fail "killed: the merge exits $?"
grep -q truncated "$k.merge.err" || fail "killed: no truncated warning: $(cat "$k.merge.err")"
check killed "$k"
echo "cupti: fake-driven runs as expected"
