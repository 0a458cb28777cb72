#!/usr/bin/env bash
# The HTML report (mpiscope-merge --html) of two runs, checked as written
# and as a browser draws it. Run by `make html-tests` (BUILD and the MPI
# commands in the environment).
#
#   halo      examples/halo.c at 4 ranks under MPICH, profiled: every chart
#             drawn and not empty, call sites, no GPU section
#   hostile   a synthetic two-rank run (hostile_run.c): region and host names
#             full of markup must show as text and inject nothing; cuda:
#             regions bring the GPU section; the timeline keeps each rank's
#             longest calls only
#
# check_page.py checks each page as written (self-contained, its data block
# intact, the timeline bound) and after headless Chromium ran its script
# (--dump-dom): no script error, every chart drawn, none empty, nothing
# injected; test/html/interact.js then drives the controls (zoom, pan,
# sorting, tooltips) in a copy of the halo page. Chromium also takes a screenshot of the halo page
# ($BUILD/test/html/halo.png, 1280 x 2000). Without Chromium the pages are
# checked as written and the test exits 77 (skipped), saying so.
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
    "$merge" --html "$out/halo.html" "$out/halo-4" 2>"$out/halo.merge.err" || fail "merge of halo-4 failed"
    [ -s "$out/halo.merge.err" ] && fail "merge of halo-4 wrote to stderr: $(head -3 "$out/halo.merge.err")"
else
    fail "halo did not build or run at 4 ranks"
fi

if "$CC" -std=c11 -O1 -D_GNU_SOURCE -Iinclude -I"$build_abs/gen" -Itest/unit \
    -o "$out/hostile_run" test/html/hostile_run.c preload/log_file.c -lzstd -lpthread &&
    mkdir "$out/hostile" && "$out/hostile_run" "$out/hostile"; then
    "$merge" --html "$out/hostile.html" "$out/hostile" 2>"$out/hostile.merge.err" || fail "merge of hostile failed"
else
    fail "hostile_run did not build or run"
fi

# ---- as written ----
[ -s "$out/halo.html" ] && { "$PYTHON" test/html/check_page.py data "$out/halo.html" || failed=1; }
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
    --charts run,ranks,regions,ops,sizes,matrix,imbalance,timeline --no-gpu \
    --region-text 'allreduce bytes=8' --site-re '^halo\.c:[0-9]+' \
    --min-elements chart-ranks=4 --min-elements chart-matrix=8 --min-elements chart-timeline=100 || failed=1
# The controls, driven by test/html/interact.js in a copy of the page.
"$PYTHON" - "$out/halo.html" "$out/halo-interact.html" <<'EOF'
import sys
page = open(sys.argv[1], encoding="utf-8").read()
js = open("test/html/interact.js", encoding="utf-8").read()
i = page.rindex("</body>")
open(sys.argv[2], "w", encoding="utf-8").write(page[:i] + "<script>\n" + js + "</script>\n" + page[i:])
EOF
browse --dump-dom "file://$out/halo-interact.html" >"$out/halo-interact.dom.html" || fail "chromium could not load halo-interact.html"
"$PYTHON" test/html/check_page.py dom "$out/halo-interact.dom.html" \
    --charts run,ranks,regions,ops,sizes,matrix,imbalance,timeline \
    --interacted zoom-in,zoom-out,wheel,drag,reset,sort-desc,sort-asc,tooltip || failed=1
browse --screenshot="$out/halo.png" "file://$out/halo.html" >/dev/null || fail "chromium took no screenshot"
[ -s "$out/halo.png" ] || fail "no screenshot at $out/halo.png"

hostile_name=$(cat <<'EOF'
</script><img id="injected" src=x onerror="document.title='pwned'">&amp;'"
EOF
)
browse --dump-dom "file://$out/hostile.html" >"$out/hostile.dom.html" || fail "chromium could not load hostile.html"
"$PYTHON" test/html/check_page.py dom "$out/hostile.dom.html" \
    --charts run,ranks,regions,ops,sizes,imbalance,timeline,gpu --gpu \
    --region-text "$hostile_name" --region-text 'cuda:kernel saxpy<float>(int, float*)' \
    --min-elements chart-gpu-kernels=3 --min-elements chart-gpu-copies=3 || failed=1

if [ "$failed" -ne 0 ]; then
    echo "html: FAILED (pages and DOM dumps in $out)"
    exit 1
fi
echo "html: passed; screenshot $out/halo.png"
