#!/usr/bin/env bash
# Every report the merge writes from the golden logs (test/golden/), byte for
# byte: text, CSV, JSON, HTML, the matrix, events, wait states, the Chrome trace, the
# scope-profiler traces and the OTF2 archive's definitions and events. The
# expected outputs are kept as SHA-256 sums in test/golden/outputs.sha256,
# one line per file; a change of any byte of any report fails here, with the
# file that changed. The OTF2 anchor file (traces.otf2) holds the archive's
# creation time and identifier, so it is left out; its definitions (.def)
# and events (.evt) are compared.
#
#   golden_outputs.sh            check (run by `make golden-tests`)
#   golden_outputs.sh --update   rewrite the sums after an intended change
#                                of a report (the diff shows which ones)
#
# Run from the repository root, so that the paths in the reports are the same
# on every machine (exit 77, a skip: the merge built without libdw, whose
# warnings differ). HAVE_OTF2=0 (the merge built without libotf2) leaves the
# OTF2 lines out of the comparison.
set -uo pipefail
BUILD=${BUILD:-build}
MERGE=${MERGE:-$BUILD/bin/mpiscope-merge}
HAVE_OTF2=${HAVE_OTF2:-1}
HAVE_DW=${HAVE_DW:-1}
if [ "$HAVE_DW" != 1 ]; then
    echo "the sums were taken with a merge that reads call sites with libdw; this one is built without"
    exit 77
fi
sums=test/golden/outputs.sha256
out=$BUILD/test/golden-outputs
update=0
[ "${1:-}" = --update ] && update=1

rm -rf "$out"
mkdir -p "$out"
for dir in test/golden/*/; do
    v=$(basename "$dir")
    o=$out/$v
    mkdir -p "$o"
    args=(--text "$o/report.txt" --csv "$o/regions.csv" --ranks-csv "$o/ranks.csv"
          --callsites-csv "$o/callsites.csv" --sites-csv "$o/sites.csv" --json "$o/report.json" --html "$o/report.html"
          --matrix-csv "$o/matrix.csv" --roofline-csv "$o/roofline.csv")
    # A run recorded in summary mode has no timeline: the timeline reports are refused.
    if [ ! -e "$dir/.summary" ] && [ "${v%-summary}" = "$v" ]; then
        args+=(--events-csv "$o/events.csv" --trace "$o/trace.json" --spt "$o/spt" --waits-csv "$o/waits.csv")
        [ "$HAVE_OTF2" = 1 ] && args+=(--otf2 "$o/otf2")
    fi
    "$MERGE" -j 1 "${args[@]}" "test/golden/$v" >"$o/stdout" 2>"$o/stderr"
    echo "exit $?" >"$o/status"
    rm -f "$o/otf2/traces.otf2"
done
(cd "$out" && find . -type f | LC_ALL=C sort | xargs sha256sum) >"$out.sha256"

if [ $update = 1 ]; then
    if [ "$HAVE_OTF2" != 1 ]; then
        echo "golden_outputs.sh --update needs the merge built with libotf2" >&2
        exit 1
    fi
    cp "$out.sha256" "$sums"
    echo "wrote $sums ($(wc -l <"$sums") files)"
    exit 0
fi
expected=$sums
if [ "$HAVE_OTF2" != 1 ]; then
    expected=$out.expected
    grep -v ' \./[^/]*/otf2/' "$sums" >"$expected"
fi
if ! diff "$expected" "$out.sha256" >"$out.diff"; then
    echo "FAIL: the merge's reports of the golden logs changed (outputs in $out):"
    grep '^[<>]' "$out.diff" | awk '{print "  " ($1 == "<" ? "expected " : "now      ") $3}' | sort -k2 | head -40
    exit 1
fi
echo "ok: $(wc -l <"$out.sha256") reports of $(ls -d test/golden/*/ | wc -l) golden runs, byte for byte"
