#!/usr/bin/env bash
# Instructions mpiscope itself adds per unit of work, counted by callgrind:
# the cost of the preloaded library's functions in rank 0's first thread
# (the application's path: their own lines, those inlined into them, and
# their calls into libc), and all instructions of its writer
# thread, each as the slope between two runs of PROG whose first argument
# is the number of units (bench/*.c take their iteration count there), so
# that start-up and the end of the run cancel out. Timings on a shared
# machine move with its load; these counts do not.
#
#   scripts/callgrind_own.sh [-n RANKS] [-m trace|summary] [-l LIB] PROG N1 N2 [ARGS...]
#
# e.g. make bench (which builds build/bench/), then
#   scripts/callgrind_own.sh build/bench/halo 10000 20000
# prints "own N.N writer N.N instructions per unit". MPICH only (mpiexec.mpich).
set -euo pipefail

ranks=2 mode=trace lib=build/lib/libmpiscope-mpich.so
while getopts "n:m:l:" o; do
    case $o in
    n) ranks=$OPTARG ;;
    m) mode=$OPTARG ;;
    l) lib=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 3 ]; then
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
here=$(dirname "$(realpath "$0")")
prog=$(realpath "$1") n1=$2 n2=$3
shift 3
lib=$(realpath "$lib")
for tool in valgrind python3 mpiexec.mpich; do
    command -v $tool >/dev/null || { echo "callgrind_own: $tool not found" >&2; exit 2; }
done
[ "$n2" -gt "$n1" ] || { echo "callgrind_own: N2 must be larger than N1" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# own FILE: the library's instructions in one thread's profile, inlined
# lines and its calls into libc included (scripts/callgrind_cost.py).
own() {
    python3 "$here/callgrind_cost.py" "$1" "$lib"
}
# total FILE: all instructions of one thread's profile.
total() {
    awk '/^summary:/ {print $2; exit}' "$1"
}

declare -A app writer
for n in "$n1" "$n2"; do
    d="$work/$n"
    mkdir -p "$d"
    (cd "$d" && MPISCOPE_MODE=$mode MPISCOPE_DIR="$d/logs" mpiexec.mpich -n "$ranks" -genv LD_PRELOAD "$lib" \
        valgrind --tool=callgrind --separate-threads=yes "$prog" "$n" "$@" >"$d/out" 2>&1) ||
        { cat "$d/out" >&2; exit 1; }
    # Rank 0 is the lowest process id; its threads are -01 (the first), then
    # the writer (the busiest of the others).
    pid=$(ls "$d" | sed -n 's/^callgrind\.out\.\([0-9]*\)-01$/\1/p' | sort -n | head -1)
    app[$n]=$(own "$d/callgrind.out.$pid-01")
    writer[$n]=$(for f in "$d"/callgrind.out."$pid"-*; do
        [ "$f" = "$d/callgrind.out.$pid-01" ] || total "$f"
    done | sort -n | tail -1)
done
python3 -c "
n = $n2 - $n1
print('own %.1f writer %.1f instructions per unit' % ((${app[$n2]} - ${app[$n1]}) / n, (${writer[$n2]:-0} - ${writer[$n1]:-0}) / n))"
