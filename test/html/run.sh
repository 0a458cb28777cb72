#!/usr/bin/env bash
# The HTML report (mpiscope-merge --html) of four runs, checked as written
# and as a browser draws it. Run by `make html-tests` (BUILD and the MPI
# commands in the environment).
#
#   halo      examples/halo.c at 4 ranks under MPICH, profiled: every chart
#             drawn and not empty, call sites, no GPU section, the wait-state
#             data consistent and the critical path toggled on the timeline;
#             the call-site and function tables as drawn agree with --json,
#             --sites-csv and the text report of the same merge
#             (check_sites.py), and the tool's regions show in its section
#             only
#   late      test/html/late_sender.c at 2 ranks: a planted late sender (rank 1
#             sleeps 20 ms before each of 5 sends to rank 0), so the wait
#             states read about 0.1 s of late_sender on rank 0 caused by
#             rank 1, at MPI_Recv of late_sender.c; the critical path has a
#             length, a chart and regions; the timeline marks the waiting
#             calls (tooltip "late sender: waited N ms for rank 1") and shows
#             and hides the path
#   late-summary  the same in summary mode (MPISCOPE_MODE=summary): both
#             sections say that wait states need trace mode
#   hostile   a synthetic two-rank run (hostile_run.c): region and host names
#             full of markup must show as text and inject nothing; cuda:
#             regions bring the GPU section; the timeline keeps each rank's
#             longest calls only
#
# check_page.py checks each page as written (self-contained, its data block
# intact, the timeline bound) and after headless Chromium ran its script
# (--dump-dom): no script error, every chart drawn, none empty, nothing
# injected; test/html/interact.js then drives the controls (zoom, pan,
# sorting, tooltips, the wait-state marks and the critical path) in copies
# of the halo and late pages. Chromium also takes screenshots of the halo
# and late pages ($BUILD/test/html/halo.png, late.png, 1280 x 2000). Without
# Chromium the pages are checked as written and the test exits 77
# (skipped), saying so.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. test/sanitizer_env.sh

BUILD=${BUILD:-build}
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
MPICC_MPICH=${MPICC_MPICH:-mpicc.mpich}
MPIEXEC_MPICH=${MPIEXEC_MPICH:-mpiexec.mpich}
CHROMIUM=${CHROMIUM:-chromium}
case "$BUILD" in
    /*) build_abs=$BUILD ;;
    *) build_abs=$PWD/$BUILD ;;
esac
merge=$build_abs/bin/mpiscope-merge
lib=$build_abs/lib/libmpiscope-mpich.so
out=$build_abs/test/html

failed=0
fail() {
    echo "FAIL: $*"
    failed=1
}
for f in "$merge" "$lib"; do
    [ -e "$f" ] || { echo "FAIL: $f is missing (run make first)"; exit 1; }
done
for v in $(env | sed -n 's/^\(MPISCOPE_[A-Z_]*\)=.*/\1/p'); do
    unset "$v"
done
rm -rf "$out"
mkdir -p "$out"

# ---- the pages ----
if "$MPICC_MPICH" -std=c11 -O2 -g -o "$out/halo" examples/halo.c -lm &&
    timeout 120 "$MPIEXEC_MPICH" -n 4 -genv LD_PRELOAD "$(sanitizer_preload "$lib")" \
        -genv MPISCOPE_DIR "$out/halo-4" "$out/halo" >"$out/halo.out"; then
    "$merge" --html "$out/halo.html" --json "$out/halo.json" --sites-csv "$out/halo.sites.csv" \
        --text "$out/halo.txt" "$out/halo-4" \
        2>"$out/halo.merge.err" || fail "merge of halo-4 failed"
    [ -s "$out/halo.merge.err" ] && fail "merge of halo-4 wrote to stderr: $(head -3 "$out/halo.merge.err")"
else
    fail "halo did not build or run at 4 ranks"
fi

# The planted late sender, traced and in summary mode.
if "$MPICC_MPICH" -std=c11 -O2 -g -o "$out/late_sender" test/html/late_sender.c; then
    for mode in trace summary; do
        name=late; [ "$mode" = summary ] && name=late-summary
        if timeout 120 "$MPIEXEC_MPICH" -n 2 -genv LD_PRELOAD "$(sanitizer_preload "$lib")" -genv MPISCOPE_MODE "$mode" \
            -genv MPISCOPE_DIR "$out/$name-2" "$out/late_sender" >"$out/$name.out"; then
            "$merge" --html "$out/$name.html" "$out/$name-2" 2>"$out/$name.merge.err" || fail "merge of $name-2 failed"
            [ -s "$out/$name.merge.err" ] && fail "merge of $name-2 wrote to stderr: $(head -3 "$out/$name.merge.err")"
        else
            fail "late_sender did not run at 2 ranks ($mode mode)"
        fi
    done
else
    fail "late_sender did not build"
fi

if "$CC" -std=c11 -O1 -D_GNU_SOURCE -Iinclude -I"$build_abs/gen" -Itest/unit \
    -o "$out/hostile_run" test/html/hostile_run.c preload/log_file.c -lzstd -lpthread &&
    mkdir "$out/hostile" && "$out/hostile_run" "$out/hostile"; then
    "$merge" --html "$out/hostile.html" "$out/hostile" 2>"$out/hostile.merge.err" || fail "merge of hostile failed"
else
    fail "hostile_run did not build or run"
fi

# ---- as written ----
[ -s "$out/halo.html" ] && { "$PYTHON" test/html/check_page.py data "$out/halo.html" --waits || failed=1; }
# 5 sends 20 ms apart: rank 0 waits 0.1 s (less what it started late, more
# what rank 1 started late).
late_wait=late_sender:0:1:0.08:0.25
[ -s "$out/late.html" ] && { "$PYTHON" test/html/check_page.py data "$out/late.html" --waits --expect-wait "$late_wait" ||
    failed=1; }
[ -s "$out/late-summary.html" ] && { "$PYTHON" test/html/check_page.py data "$out/late-summary.html" || failed=1; }
[ -s "$out/hostile.html" ] && { "$PYTHON" test/html/check_page.py data "$out/hostile.html" --long-calls 5000 || failed=1; }
if [ "$failed" -ne 0 ]; then
    echo "html: FAILED"
    exit 1
fi

# ---- in the browser ----
if ! command -v "$CHROMIUM" >/dev/null 2>&1; then
    echo "SKIP: $CHROMIUM is not installed (scripts/deps.sh installs it): the pages were checked as written, not drawn"
    exit 77
fi
browse() {
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --user-data-dir="$out/profile" --hide-scrollbars --virtual-time-budget=10000 \
        --window-size=1280,2000 "$@" 2>>"$out/chromium.log"
}

browse --dump-dom "file://$out/halo.html" >"$out/halo.dom.html" || fail "chromium could not load halo.html"
"$PYTHON" test/html/check_page.py dom "$out/halo.dom.html" \
    --charts run,sites,functions,ranks,regions,sizes,matrix,imbalance,timeline,waits,path,tool --no-gpu \
    --region-text 'allreduce bytes=8' --site-re '^main \(halo\.c:[0-9]+\)' --expect-path 0.001:60 \
    --sites-json "$out/halo.json" --sites-csv "$out/halo.sites.csv" --sites-text "$out/halo.txt" \
    --tool-region mpiscope:final_flush \
    --min-elements chart-ranks=4 --min-elements chart-matrix=8 --min-elements chart-timeline=100 || failed=1
# The controls, driven by test/html/interact.js in a copy of the page.
interact_copy() {
    "$PYTHON" - "$out/$1.html" "$out/$1-interact.html" <<'EOF'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
js = open("test/html/interact.js", encoding="utf-8").read()
i = page.rindex("</body>")
open(sys.argv[2], "w", encoding="utf-8").write(page[:i] + "<script>\n" + js + "</script>\n" + page[i:])
EOF
}
interact_copy halo
browse --dump-dom "file://$out/halo-interact.html" >"$out/halo-interact.dom.html" || fail "chromium could not load halo-interact.html"
"$PYTHON" test/html/check_page.py dom "$out/halo-interact.dom.html" \
    --charts run,sites,functions,ranks,regions,sizes,matrix,imbalance,timeline,waits,path \
    --interacted zoom-in,zoom-out,wheel,drag,reset,sort-desc,sort-asc,tooltip,wait-tooltip,path-on,path-off || failed=1
browse --screenshot="$out/halo.png" "file://$out/halo.html" >/dev/null || fail "chromium took no screenshot"
[ -s "$out/halo.png" ] || fail "no screenshot at $out/halo.png"

browse --dump-dom "file://$out/late.html" >"$out/late.dom.html" || fail "chromium could not load late.html"
"$PYTHON" test/html/check_page.py dom "$out/late.dom.html" \
    --charts run,sites,functions,ranks,regions,timeline,waits,path --no-gpu \
    --expect-wait "$late_wait" --wait-call MPI_Recv --wait-site-re '^main \(late_sender\.c:[0-9]+\)$' \
    --expect-path 0.08:1 --min-class wait-mark=5 || failed=1
interact_copy late
browse --dump-dom "file://$out/late-interact.html" >"$out/late-interact.dom.html" || fail "chromium could not load late-interact.html"
# (The drag renders on an animation frame, which headless Chromium does not
# always run on this short page: it is checked on the halo page.)
"$PYTHON" test/html/check_page.py dom "$out/late-interact.dom.html" --charts run,timeline,waits,path \
    --interacted zoom-in,zoom-out,wheel,reset,sort-desc,sort-asc,tooltip,wait-tooltip,path-on,path-off \
    --wait-tip-re '^late sender: waited [0-9.]+ ms for rank 1$' || failed=1
browse --screenshot="$out/late.png" "file://$out/late.html" >/dev/null || fail "chromium took no screenshot of late.html"
[ -s "$out/late.png" ] || fail "no screenshot at $out/late.png"
browse --dump-dom "file://$out/late-summary.html" >"$out/late-summary.dom.html" || fail "chromium could not load late-summary.html"
"$PYTHON" test/html/check_page.py dom "$out/late-summary.dom.html" --charts run,ranks,regions,waits,path \
    --waits-summary || failed=1

hostile_name=$(cat <<'EOF'
</script><img id="injected" src=x onerror="document.title='pwned'">&amp;'"
EOF
)
browse --dump-dom "file://$out/hostile.html" >"$out/hostile.dom.html" || fail "chromium could not load hostile.html"
"$PYTHON" test/html/check_page.py dom "$out/hostile.dom.html" \
    --charts run,sites,functions,ranks,regions,sizes,timeline,gpu --gpu \
    --region-text "$hostile_name" --region-text 'cuda:kernel saxpy<float>(int, float*)' \
    --min-elements chart-gpu-kernels=3 --min-elements chart-gpu-copies=3 || failed=1

if [ "$failed" -ne 0 ]; then
    echo "html: FAILED (pages and DOM dumps in $out)"
    exit 1
fi
echo "html: passed; screenshots $out/halo.png, $out/late.png"
