#!/usr/bin/env bash
# mpiscope-merge over damaged copies of real logs (test/golden/v2: two ranks
# written by the preload library). Every case checks the exit status and
# the message: exit 2 naming the file and the byte offset, or exit 0 with a
# warning naming the file (and "truncated" for a log cut short); never a
# crash, never a hang (each merge runs under a timeout). docs/RELIABILITY.md
# lists the cases. Run by `make fault-tests` (BUILD in env).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

BUILD=${BUILD:-build}
case "$BUILD" in
    /*) build_abs=$BUILD ;;
    *) build_abs=$PWD/$BUILD ;;
esac
merge=$build_abs/bin/mpiscope-merge
golden=test/golden/v2
edit="${PYTHON:-python3} test/log_edit.py"
MERGE_TIMEOUT=${MERGE_TIMEOUT:-30}

passed=0
failed=0
pass() {
    passed=$((passed + 1))
}
fail() {
    echo "FAIL: $*"
    [ -s "$scratch/err" ] && sed 's/^/    /' "$scratch/err" | head -5
    failed=$((failed + 1))
}

if [ ! -x "$merge" ]; then
    echo "FAIL: $merge is missing (run make first)"
    exit 1
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run=$scratch/run

# A fresh copy of the golden run in $run.
fresh() {
    rm -rf "$run"
    mkdir -p "$run"
    cp "$golden"/rank-*.zst "$run"/
}

# Merge $run: sets rc; stderr in $scratch/err, the --csv table in $scratch/out.csv.
merge_run() {
    rm -f "$scratch/out.csv"
    timeout "$MERGE_TIMEOUT" "$merge" -j 1 --csv "$scratch/out.csv" "$run" >/dev/null 2>"$scratch/err"
    rc=$?
}

# expect CASE RC TEXT...: the last merge exited RC and its stderr holds every TEXT.
expect() {
    local name=$1 want=$2
    shift 2
    if [ "$rc" -ne "$want" ]; then
        fail "$name: exit $rc, expected $want"
        return
    fi
    for text in "$@"; do
        if ! grep -qF -- "$text" "$scratch/err"; then
            fail "$name: stderr lacks \"$text\""
            return
        fi
    done
    pass
}

# same_report CASE: the last --csv equals the undamaged run's.
same_report() {
    if cmp -s "$scratch/out.csv" "$scratch/ref.csv"; then
        pass
    else
        fail "$1: the report differs from the undamaged run's"
    fi
}

# judge CASE FILE: a damaged FILE may give exit 2 (file and byte offset
# named) or exit 0, with a warning naming the file and "truncated", or with
# no warning and exactly the undamaged report; anything else is a failure.
judge() {
    local name=$1 file=$2
    case $rc in
        2)
            grep -qF "$file" "$scratch/err" && grep -qF "byte offset" "$scratch/err" && return 0
            fail "$name: exit 2 without the file and its byte offset"
            ;;
        0)
            if [ -s "$scratch/err" ]; then
                grep -qF "$file" "$scratch/err" && grep -qF "truncated" "$scratch/err" && return 0
                fail "$name: exit 0 with a warning that does not say $file is truncated"
            else
                cmp -s "$scratch/out.csv" "$scratch/ref.csv" && return 0
                fail "$name: exit 0, no warning, and a report that differs from the undamaged one"
            fi
            ;;
        124) fail "$name: the merge hangs (killed after ${MERGE_TIMEOUT}s)" ;;
        *) fail "$name: exit $rc (a crash?)" ;;
    esac
    return 1
}

fresh
merge_run
expect "undamaged run" 0
[ -s "$scratch/err" ] && fail "undamaged run: stderr is not empty"
cp "$scratch/out.csv" "$scratch/ref.csv"

victim=$run/rank-000001.zst
size=$(stat -c %s "$golden/rank-000001.zst")
mapfile -t frames < <($edit --frames "$golden/rank-000001.zst")
nframes=$((${#frames[@]} - 1))   # the last line is the file size
data_frame=${frames[2]}          # after the header and a clock block
end_frame=${frames[$((nframes - 1))]}

# ---- truncation at every byte ----
bad=0
fresh
for ((cut = 0; cut < size; cut++)); do
    head -c "$cut" "$golden/rank-000001.zst" >"$victim"
    merge_run
    judge "cut at byte $cut" "$victim" || bad=$((bad + 1))
    [ $bad -ge 5 ] && break
done
[ $bad -eq 0 ] && pass

fresh
: >"$victim"
merge_run
expect "empty file" 0 "$victim: truncated: empty file" "missing ranks: 1"

fresh
head -c "$end_frame" "$golden/rank-000001.zst" >"$victim"
merge_run
expect "no end block" 0 "$victim: truncated: no end block" "readable part is used"

fresh
head -c $((data_frame + 40)) "$golden/rank-000001.zst" >"$victim"
merge_run
expect "cut inside a frame" 0 "$victim: truncated: the frame at byte offset $data_frame is cut short" \
    "readable part is used"

# ---- flipped bits: one in every byte ----
bad=0
fresh
$edit --flip-all "$golden/rank-000001.zst" "$scratch/flips"
for ((at = 0; at < size; at++)); do
    cp "$scratch/flips/$at" "$victim"
    merge_run
    judge "bit flipped at byte $at" "$victim" || bad=$((bad + 1))
    [ $bad -ge 5 ] && break
done
[ $bad -eq 0 ] && pass

fresh
$edit --flip $((data_frame + 100)) "$golden/rank-000001.zst" "$victim"
merge_run
expect "flipped bit in a data frame" 2 "$victim: corrupt log" "byte offset $data_frame"

fresh
$edit --flip 100 "$golden/rank-000001.zst" "$victim"
merge_run
expect "damaged header" 2 "$victim: corrupt log" "byte offset 0"

# ---- not logs, junk, versions ----
fresh
$edit --garbage 600 "$victim"
merge_run
expect "random garbage" 2 "$victim: not an mpiscope log" "byte offset 0"

fresh
printf 'junk' >>"$victim"
merge_run
expect "trailing junk" 2 "$victim: corrupt log: 4 bytes of trailing data after the end block" \
    "byte offset $size"

fresh
$edit "$golden/rank-000001.zst" "$victim" --version 99
merge_run
expect "newer format version" 2 "$victim: format version 99" "newer than this reader supports" "byte offset 0"

fresh
rm -f "$victim"
mkfifo "$victim"
merge_run
expect "a FIFO in place of a log" 2 "$victim: not a regular file"

# ---- the run as a whole ----
fresh
cp "$run/rank-000000.zst" "$run/rank-000002.zst"
merge_run
expect "two files claim one rank" 0 "$run/rank-000002.zst: duplicate log of rank 0 (also in $run/rank-000000.zst)"
same_report "two files claim one rank"

fresh
rm -f "$victim"
merge_run
expect "missing rank" 0 "$run: 1 of 2 ranks have no log (missing ranks: 1)"

fresh
$edit "$golden/rank-000000.zst" "$run/rank-000000.zst" --string run=0123456789abcdef
$edit "$golden/rank-000001.zst" "$victim" --string run=0123456789abcdef
merge_run
expect "one run identity" 0
[ -s "$scratch/err" ] && fail "one run identity: stderr is not empty"
same_report "one run identity"

$edit "$golden/rank-000001.zst" "$victim" --string run=fedcba9876543210
merge_run
expect "logs of two runs" 2 "$victim: a log of another run" "byte offset 0" "run=fedcba9876543210" \
    "$run/rank-000000.zst says run=0123456789abcdef"

# A log without a run identity (an older writer) is not compared.
cp "$golden/rank-000001.zst" "$victim"
merge_run
expect "a log without a run identity" 0

echo "merge faults: $passed passed, $failed failed"
[ $failed -eq 0 ]
