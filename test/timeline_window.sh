#!/usr/bin/env bash
# Bounded timelines: --from S, --to S and --ranks LIST on a synthesized run
# of 4 ranks (test/scale/synth_logs.c: halo steps of isend, irecv, waitall,
# allreduce). window_check.py compares the window's --events-csv, --trace,
# --otf2 and HTML timeline with the whole run's: only the calls inside the
# window on the listed ranks, only the flows with both ends kept. Then the
# usage errors of bad bounds, and the size warning of a timeline output
# (its limit lowered by MPISCOPE_TEST_TIMELINE_WARN_BYTES). Run by
# `make window-tests` (BUILD in env); seconds.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
merge=$BUILD/bin/mpiscope-merge
PYTHON=${PYTHON:-python3}
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run=$scratch/run
w=$scratch/w
mkdir -p "$w"
"$BUILD/test/scale/synth-logs" --ranks 4 --events 4000 "$run" >/dev/null || { echo "FAIL: synth-logs"; exit 1; }
"$merge" --events-csv "$w/full.csv" --trace "$w/full.json" "$run" 2>"$scratch/err" || fail "the whole run: $(cat "$scratch/err")"
win=(--from 0.004 --to 0.012 --ranks 0-1,3)
args=(--events-csv "$w/win.csv" --trace "$w/win.json" --html "$w/win.html")
otf2=0
if command -v otf2-print >/dev/null && "$merge" --version | grep -q "otf2 yes"; then
    otf2=1
    args+=(--otf2 "$w/otf2")
fi
"$merge" "${win[@]}" "${args[@]}" "$run" 2>"$scratch/err" || fail "the window: $(cat "$scratch/err")"
if [ $otf2 = 1 ]; then
    otf2-print "$w/otf2/traces.otf2" >"$w/win.print" 2>"$scratch/err" || fail "otf2-print: $(head -3 "$scratch/err")"
    otf2-print -G "$w/otf2/traces.otf2" >"$w/win.defs" 2>&1
    $PYTHON test/window_check.py 0.004 0.012 0-1,3 "$w" || fail "window_check.py"
else
    echo "timeline_window: no libotf2 or otf2-print: the OTF2 archive is not checked"
    $PYTHON test/window_check.py --no-otf2 0.004 0.012 0-1,3 "$w" || fail "window_check.py"
fi

# Bad bounds: usage errors (exit 1) that say what is wrong.
bad() {
    local want=$1
    shift
    "$merge" "$@" --trace /dev/null "$run" >/dev/null 2>"$scratch/err"
    local st=$?
    [ $st = 1 ] || fail "$*: exit $st, not 1"
    grep -q -- "$want" "$scratch/err" || fail "$*: no \"$want\" in: $(head -1 "$scratch/err")"
}
bad "--to is before --from" --from 2 --to 1
bad "--from wants seconds" --from -1
bad "--to wants seconds" --to 1s
bad "--ranks wants world ranks" --ranks 3-1
bad "--ranks wants world ranks" --ranks 0,,2
bad "--ranks wants world ranks" --ranks x

# The size warning: one line per timeline output over the limit, before it
# is written, naming the estimate and the options; none under it.
MPISCOPE_TEST_TIMELINE_WARN_BYTES=1000 "$merge" --trace "$w/t.json" --csv "$w/c.csv" "$run" 2>"$scratch/err" ||
    fail "the merge with a warning fails"
[ "$(grep -c "warning: --trace $w/t.json will take about [0-9.]* MB (4000 calls); --from S, --to S .* --ranks LIST" \
    "$scratch/err")" = 1 ] || fail "no size warning: $(cat "$scratch/err")"
[ "$(grep -c . "$scratch/err")" = 1 ] || fail "more than the one warning: $(cat "$scratch/err")"
MPISCOPE_TEST_TIMELINE_WARN_BYTES=1000 "$merge" --ranks 1 --from 0 --to 0.000001 --trace "$w/t.json" "$run" \
    2>"$scratch/err" || fail "the merge of a small window fails"
[ ! -s "$scratch/err" ] || fail "a warning for a window under the limit: $(cat "$scratch/err")"
"$merge" --trace "$w/t.json" "$run" 2>"$scratch/err"
[ ! -s "$scratch/err" ] || fail "a warning under the 1 GiB limit: $(cat "$scratch/err")"

if [ $failures != 0 ]; then
    echo "timeline_window: $failures failure(s)"
    exit 1
fi
echo "timeline_window: all passed"
