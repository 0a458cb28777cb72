#!/usr/bin/env bash
# `make demo`: profile examples/halo.c at 4 ranks under MPICH through the
# launcher (build/bin/mpiscope, as the README recommends), which prints the
# program's output and the report and writes the tables and the HTML report.
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
launcher=$build_abs/bin/mpiscope
for f in "$lib" "$merge" "$launcher"; do
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

echo "demo: $launcher --dir $dir --html $dir/report.html -- $MPIEXEC_MPICH -n $RANKS $app"
"$launcher" --dir "$dir" --html "$dir/report.html" -- "$MPIEXEC_MPICH" -n "$RANKS" "$app"
echo
echo "demo: per-rank logs in $dir/ (rank-*.zst), region table in $dir/regions.csv"
echo "demo: HTML report in $dir/report.html (open it in a browser)"
