#!/usr/bin/env bash
# likwid.sh with every run recorded in summary mode (MPISCOPE_MODE=summary):
# the counters, markers and roofline come out as from a trace (the writer
# keeps the counter samples that stand), and the reports say the mode.
#
#   likwid_summary.sh FLAVOUR LIBRARY OUTDIR     (exit 77: skipped)
dir=$3
LIKWID_TEST_MODE=summary bash "$(dirname "$0")/likwid.sh" "$@"
status=$?
[ $status = 0 ] || exit $status
for txt in "$dir"/*.txt; do
    [ -e "$txt" ] || continue
    grep -q '^  mode         summary (per-region aggregates' "$txt" || { echo "FAIL: $txt: not in summary mode"; exit 1; }
done
exit 0
