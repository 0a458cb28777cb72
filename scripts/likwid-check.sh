#!/usr/bin/env bash
# The real check of mpiscope's LIKWID counters, for a machine with counter
# access (likwid-perfctr works there): a STREAM-like triad, an MPI program of
# one rank instrumented with LIKWID's marker API, runs under
# likwid-perfctr -m -g MEM_DP with the preload library (MPICH flavour); mpiscope's per-region FLOP rate and memory bandwidth
# (mpiscope-merge --roofline-csv) must equal what likwid-perfctr prints for
# the same region within 1 %.
#
#   scripts/likwid-check.sh [BUILD]        (BUILD default: build)
# Environment: MPICC (default mpicc.mpich), LIKWID_PERFCTR (default likwid-perfctr),
# CHECK_CPU (the CPU to pin to, default 0), GROUP (default MEM_DP).
# Exit status: 0 agreed, 1 disagreed or failed, 77 no counter access here.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${1:-build}
MPICC=${MPICC:-mpicc.mpich}
PERFCTR=${LIKWID_PERFCTR:-likwid-perfctr}
CPU=${CHECK_CPU:-0}
GROUP=${GROUP:-MEM_DP}
lib=$PWD/$BUILD/lib/libmpiscope-mpich.so
merge=$PWD/$BUILD/bin/mpiscope-merge
work=$(mktemp -d /tmp/mpiscope-likwid-check-XXXXXX)

die() {
    echo "likwid-check: $*" >&2
    exit 1
}

[ -x "$merge" ] && [ -e "$lib" ] || die "build first: make BUILD=$BUILD"
nm -D "$lib" 2>/dev/null | grep ' T likwid_markerStartRegion' >/dev/null ||
    die "$lib was built without LIKWID support (likwid.h not found at build time)"
command -v "$PERFCTR" >/dev/null 2>&1 || die "$PERFCTR not found (Debian likwid)"
if ! "$PERFCTR" -C "$CPU" -g "$GROUP" true >"$work/probe.txt" 2>&1; then
    echo "likwid-check: no counter access here ($PERFCTR -g $GROUP fails):" >&2
    sed 's/^/  /' "$work/probe.txt" | head -5 >&2
    exit 77
fi

cat >"$work/stream.c" <<'SRC'
/* A STREAM-like triad a[i] = b[i] + s * c[i]: 2 FLOP and 24 bytes per element. */
#include <likwid-marker.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    MPI_Init(NULL, NULL);
    const size_t n = (size_t)1 << 25;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    if (!a || !b || !c)
        return 1;
    for (size_t i = 0; i < n; i++)
        a[i] = 0, b[i] = (double)i, c[i] = 1.0 / (double)(i + 1);
    LIKWID_MARKER_INIT;
    for (int k = 0; k < 10; k++) {
        LIKWID_MARKER_START("triad");
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] + 3.0 * c[i];
        LIKWID_MARKER_STOP("triad");
    }
    LIKWID_MARKER_CLOSE;
    printf("%g\n", a[n / 2]);
    free(a);
    free(b);
    free(c);
    MPI_Finalize();
    return 0;
}
SRC
"$MPICC" -O2 -DLIKWID_PERFMON -o "$work/stream" "$work/stream.c" -llikwid || die "cannot build the kernel"

MPISCOPE_DIR="$work/logs" LD_PRELOAD="$lib" "$PERFCTR" -C "$CPU" -g "$GROUP" -m "$work/stream" \
    >"$work/perfctr.txt" 2>"$work/perfctr.err" || die "$PERFCTR -m fails (see $work/perfctr.err)"
"$merge" --roofline-csv "$work/roofline.csv" "$work/logs" >/dev/null 2>"$work/merge.err" ||
    die "mpiscope-merge fails (see $work/merge.err)"

# LIKWID's printout: the metric rows of region triad, "| name | value |".
python3 - "$work/perfctr.txt" "$work/roofline.csv" <<'PY'
import csv, re, sys
text = open(sys.argv[1]).read()
start = text.find("Region triad")
if start < 0:
    sys.exit("likwid-check: no region triad in the likwid-perfctr output")
likwid = {}
for line in text[start:].splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) >= 2 and re.match(r"^-?[0-9.eE+-]+$", cells[1] or "x"):
        likwid.setdefault(cells[0], float(cells[1]))
    if line.startswith("Region ") and not line.startswith("Region triad"):
        break
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["region"] == "likwid:triad"]
if len(rows) != 1:
    sys.exit("likwid-check: %d roofline rows of likwid:triad, expected 1" % len(rows))
row = rows[0]
def unit(name):
    u = name[name.rfind("["):] if "[" in name else name
    return {"M": 1e-3, "G": 1.0, "k": 1e-6, "T": 1e3}.get(re.sub(r"^\[", "", u)[:1], 1e-9)
bad = 0
for col, metric in (("gflops", row["flops_metric"]), ("gbs", row["bandwidth_metric"])):
    if metric not in likwid:
        sys.exit("likwid-check: likwid-perfctr printed no %r for region triad" % metric)
    want = likwid[metric] * unit(metric)
    got = float(row[col])
    ok = abs(got - want) <= 0.01 * abs(want)
    bad += not ok
    print("%-40s likwid-perfctr %.6g, mpiscope %.6g: %s" % (metric, want, got, "ok" if ok else "DIFFERS by more than 1 %"))
sys.exit(1 if bad else 0)
PY
rc=$?
[ $rc -eq 0 ] && rm -rf "$work" && echo "likwid-check: mpiscope agrees with likwid-perfctr within 1 %"
exit $rc
