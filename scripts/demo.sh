#!/usr/bin/env bash
# `make demo`: profile examples/halo.c at 4 ranks under MPICH, print the report
# and write the region table and the HTML report.
# Environment (set by make): BUILD, MPICC_MPICH, MPIEXEC_MPICH.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
MPICC_MPICH=${MPICC_MPICH:-mpicc.mpich}
MPIEXEC_MPICH=${MPIEXEC_MPICH:-mpiexec.mpich}
RANKS=4

case "$BUILD" in
    /*) build_abs=$BUILD ;;
    *) build_abs=$PWD/$BUILD ;;
esac
lib=$build_abs/lib/libmpiscope-mpich.so
merge=$build_abs/bin/mpiscope-merge
for f in "$lib" "$merge"; do
    if [ ! -e "$f" ]; then
        echo "demo: $f is missing (run make first)" >&2
        exit 1
    fi
done

app=$build_abs/examples/halo
dir=$build_abs/demo/halo-$RANKS
mkdir -p "$(dirname "$app")"
"$MPICC_MPICH" -std=c11 -O2 -g -o "$app" examples/halo.c -lm   # -g: call sites with file:line
rm -rf "$dir"
mkdir -p "$(dirname "$dir")"

echo "demo: $MPIEXEC_MPICH -n $RANKS -genv LD_PRELOAD $lib -genv MPISCOPE_DIR $dir $app"
"$MPIEXEC_MPICH" -n "$RANKS" -genv LD_PRELOAD "$lib" -genv MPISCOPE_DIR "$dir" "$app"
echo
"$merge" "$dir"
"$merge" --csv "$dir/regions.csv" --html "$dir/report.html" "$dir"
echo
echo "demo: per-rank logs in $dir/ (rank-*.zst), region table in $dir/regions.csv"
echo "demo: HTML report in $dir/report.html (open it in a browser)"
