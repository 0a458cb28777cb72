#!/usr/bin/env bash
# The real GPU check (README, "GPU activity"): builds scripts/gpu_check.cu
# with nvcc (a known number of launches of two kernels, a known copy
# pattern, CUDA-event timings of every launch), runs it under the preload
# library in single-process mode (no MPI_Init, so no MPI is needed), merges,
# and asserts:
#   - exactly 40 launches of scale and 25 of add, 3 HtoD, 2 DtoH and 1 DtoD
#     copies of 16 MiB;
#   - the summed kernel durations do not exceed the wall time;
#   - each kernel's summed duration is within 20 % of the program's own
#     CUDA-event timings.
#
#   scripts/gpu-check.sh [BUILD]      (BUILD: the build directory, default build)
#
# Exit 0: passed; 77: skipped (no nvcc, or no usable GPU), with a one-line
# reason; anything else: failed. Environment: NVCC (default
# $CUDA_HOME/bin/nvcc, CUDA_HOME default /usr/local/cuda), PRELOAD (default
# BUILD/lib/libmpiscope-mpich.so), PYTHON. The MPICH preload library needs
# no MPI in a process that never calls MPI_Init: only libzstd.so.1 (and
# libcupti, found in CUDA_HOME/lib64); on a machine without libzstd, put a
# copy on LD_LIBRARY_PATH.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${1:-build}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=${NVCC:-$CUDA_HOME/bin/nvcc}
PRELOAD=${PRELOAD:-$BUILD/lib/libmpiscope-mpich.so}
MERGE=${MERGE:-$BUILD/bin/mpiscope-merge}
PYTHON=${PYTHON:-python3}
out=$BUILD/gpu-check

fail() {
    echo "gpu-check: FAIL: $*"
    exit 1
}

command -v "$NVCC" >/dev/null 2>&1 || { echo "gpu-check: skipped: nvcc not found ($NVCC)"; exit 77; }
[ -f "$PRELOAD" ] || fail "no preload library $PRELOAD (run make)"
[ -x "$MERGE" ] || fail "no merge program $MERGE (run make)"
nm -D "$PRELOAD" 2>/dev/null | grep ' T InitializeInjection' >/dev/null || fail "$PRELOAD was built without CUPTI support"
if ldd "$PRELOAD" | grep 'not found' >/dev/null; then
    fail "$PRELOAD misses libraries: $(ldd "$PRELOAD" | grep 'not found' | tr -s ' \t\n' ' ')"
fi
rm -rf "$out"
mkdir -p "$out"
"$NVCC" -O2 -o "$out/gpu_check" scripts/gpu_check.cu >"$out/nvcc.log" 2>&1 ||
    fail "nvcc cannot build scripts/gpu_check.cu: $(tail -3 "$out/nvcc.log")"
if ! "$out/gpu_check" --probe 2>"$out/probe.err"; then
    echo "gpu-check: skipped: $(head -1 "$out/probe.err")"
    exit 77
fi

# Modules loaded at startup: no lazy loading inside the first timed launch.
env CUDA_MODULE_LOADING=EAGER MPISCOPE_DIR="$out/logs" MPISCOPE_CUPTI=1 LD_PRELOAD="$PRELOAD" \
    timeout -k 10 300 "$out/gpu_check" >"$out/run.out" 2>"$out/run.err" ||
    fail "the program exits $? under the preload library (see $out/run.err)"
if grep -q '^mpiscope:' "$out/run.err"; then
    fail "$(grep '^mpiscope:' "$out/run.err" | head -3)"
fi
[ -f "$out/logs/rank-000000.zst" ] || fail "no log $out/logs/rank-000000.zst"
"$MERGE" --json "$out/merge.json" --csv "$out/merge.csv" --text "$out/merge.txt" "$out/logs" 2>"$out/merge.err" ||
    fail "the merge exits $? (see $out/merge.err)"

"$PYTHON" - "$out" <<'PY'
import csv, json, sys
out = sys.argv[1]
doc = json.load(open(out + "/merge.json"))
rows = {r["name"]: r for r in csv.DictReader(open(out + "/merge.csv"))}
events = {}
for line in open(out + "/run.out"):
    f = line.split()
    if f and f[0] == "launches":
        events[f[1]] = (int(f[2]), float(f[3]) / 1e3)
bad = []
def find(prefix):
    m = [r for n, r in rows.items() if n.startswith(prefix)]
    return m[0] if len(m) == 1 else None
kernel_total = 0.0
for name, want in (("scale", 40), ("add", 25)):
    r = find("cuda:kernel %s(" % name)
    if r is None:
        bad.append("no single region cuda:kernel %s(...): %s" % (name, sorted(n for n in rows if n.startswith("cuda:"))))
        continue
    if int(r["calls"]) != want or events.get(name, (0,))[0] != want:
        bad.append("%s: %s launches recorded, %d made (program: %r)" % (name, r["calls"], want, events.get(name)))
    total = float(r["total_s"])
    kernel_total += total
    ev = events.get(name, (0, 0.0))[1]
    if not (abs(total - ev) <= 0.2 * ev):
        bad.append("%s: %.6f s from CUPTI, %.6f s from CUDA events (more than 20 %% apart)" % (name, total, ev))
    print("gpu-check: %-5s %3s launches, CUPTI %.3f ms, CUDA events %.3f ms" % (name, r["calls"], total * 1e3, ev * 1e3))
copies = {n: int(r["calls"]) for n, r in rows.items() if n.startswith("cuda:memcpy ")}
for kind, want in (("HtoD", 3), ("DtoH", 2), ("DtoD", 1)):
    got = copies.get("cuda:memcpy %s bytes=%d" % (kind, (1 << 22) * 4), 0)
    if got != want:
        bad.append("memcpy %s: %d recorded, %d made" % (kind, got, want))
if sum(copies.values()) != 6:
    bad.append("copies recorded: %r (expected 3 HtoD, 2 DtoH, 1 DtoD of 16 MiB)" % copies)
wall = doc["ranks"][0]["wall_s"]
if kernel_total > wall:
    bad.append("kernels sum to %.6f s, more than the wall time %.6f s" % (kernel_total, wall))
print("gpu-check: kernels %.3f ms of %.3f ms wall time; busy %.1f %%" % (kernel_total * 1e3, wall * 1e3,
      doc["gpu"]["ranks"][0]["busy_pct"] if doc.get("gpu") else 0))
for b in bad:
    print("gpu-check: FAIL: " + b)
sys.exit(1 if bad else 0)
PY
rc=$?
[ $rc -eq 0 ] || exit 1
echo "gpu-check: passed"
