#!/usr/bin/env bash
# The merge's outputs in a hostile directory, and messages no terminal
# misreads (docs/RELIABILITY.md, "Outputs"): an output that names an input
# log is refused and the log is unchanged; a symbolic link or a FIFO planted
# at a report's path is replaced, never followed or opened (the link's
# target is unchanged, nothing hangs); the OTF2 archive never replaces what
# is there; a log's strings with terminal escapes reach stderr and the text
# report escaped. Seconds. Run by `make fault-tests` (BUILD in env).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

BUILD=${BUILD:-build}
merge=$BUILD/bin/mpiscope-merge
golden=test/golden/v2
edit="${PYTHON:-python3} test/log_edit.py"
T=${MERGE_TIMEOUT:-30}

failed=0
passed=0
check() {   # check NAME CONDITION...: a test, run with eval
    local name=$1
    shift
    if eval "$@"; then
        passed=$((passed + 1))
    else
        echo "FAIL: $name"
        [ -s "$scratch/err" ] && sed 's/^/    /' "$scratch/err" | head -5
        failed=$((failed + 1))
    fi
}

[ -x "$merge" ] || { echo "FAIL: $merge is missing (run make first)"; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run=$scratch/run
mkdir "$run"
cp "$golden"/rank-*.zst "$run"/
sum0=$(sha256sum "$run/rank-000000.zst")

# ---- an output that is an input ----
timeout "$T" "$merge" --csv "$run/rank-000000.zst" "$run" >/dev/null 2>"$scratch/err"
rc=$?
check "--csv naming a log: exit 1" '[ $rc -eq 1 ]'
check "--csv naming a log: the message" \
    'grep -qF -- "--csv $run/rank-000000.zst: that is the input log $run/rank-000000.zst; an output never replaces an input" "$scratch/err"'
check "--csv naming a log: the log is unchanged" '[ "$(sha256sum "$run/rank-000000.zst")" = "$sum0" ]'

ln -s "$run/rank-000000.zst" "$scratch/link.json"
ln "$run/rank-000001.zst" "$scratch/hard.csv"
timeout "$T" "$merge" --json "$scratch/link.json" "$run" >/dev/null 2>"$scratch/err"
rc=$?
check "--json through a link to a log: refused" '[ $rc -eq 1 ] && grep -qF "that is the input log" "$scratch/err"'
timeout "$T" "$merge" --csv "$scratch/hard.csv" "$run" >/dev/null 2>"$scratch/err"
rc=$?
check "--csv a hard link of a log: refused" '[ $rc -eq 1 ] && grep -qF "that is the input log" "$scratch/err"'
timeout "$T" "$merge" --text "$run/rank-000007.zst" "$run" >/dev/null 2>"$scratch/err"
rc=$?
check "--text a new log name in the log directory: refused" '[ $rc -eq 1 ] && [ ! -e "$run/rank-000007.zst" ]'
check "the logs are unchanged" '[ "$(sha256sum "$run/rank-000000.zst")" = "$sum0" ]'
rm -f "$scratch/link.json" "$scratch/hard.csv"

# ---- links and FIFOs planted at a report's path, in a directory others
# can write (as /tmp) ----
out=$scratch/out
mkdir -m 1777 "$out"
echo "precious" >"$scratch/victim"
ln -s "$scratch/victim" "$out/report.csv"
mkfifo "$out/report.json"
timeout "$T" "$merge" --csv "$out/report.csv" --json "$out/report.json" "$run" >/dev/null 2>"$scratch/err"
rc=$?
check "planted link and FIFO: exit 0, no hang" '[ $rc -eq 0 ]'
check "planted link: its target is unchanged" '[ "$(cat "$scratch/victim")" = precious ]'
check "planted link: replaced by the report" '[ ! -L "$out/report.csv" ] && [ -f "$out/report.csv" ] && head -1 "$out/report.csv" | grep -q "^name,"'
check "planted FIFO: replaced by the report" '[ -f "$out/report.json" ] && head -c 1 "$out/report.json" | grep -q "{"'
check "no temporary file left" '[ -z "$(ls -A "$out" | grep -v "^report\.")" ]'

# What only the user could have put there is written through: a device,
# and a link or FIFO of their own directory (a shell's process
# substitution); a FIFO there without a reader is an error, not a hang.
timeout "$T" "$merge" --csv /dev/null --json /dev/stdout "$run" >"$scratch/stdout.json" 2>"$scratch/err"
rc=$?
check "--csv /dev/null --json /dev/stdout" '[ $rc -eq 0 ] && [ -c /dev/null ] && head -c 1 "$scratch/stdout.json" | grep -q "{"'
timeout "$T" "$merge" --csv >(cat >"$scratch/piped.csv") "$run" >/dev/null 2>"$scratch/err"
rc=$?
sleep 0.2
check "--csv into a process substitution" '[ $rc -eq 0 ] && head -1 "$scratch/piped.csv" | grep -q "^name,"'
mkfifo "$scratch/lonely.csv"
timeout "$T" "$merge" --csv "$scratch/lonely.csv" "$run" >/dev/null 2>"$scratch/err"
rc=$?
check "a FIFO of the user's own without a reader: an error, no hang" '[ $rc -eq 1 ] && [ -p "$scratch/lonely.csv" ]'

# An OTF2 archive never replaces what is there.
if "$merge" --version 2>/dev/null | grep -q "otf2 *yes\|OTF2: yes\|otf2: yes"; then
    mkdir "$scratch/otf2"
    ln -s "$scratch/victim" "$scratch/otf2/traces.def"
    timeout "$T" "$merge" --otf2 "$scratch/otf2" "$run" >/dev/null 2>"$scratch/err"
    rc=$?
    check "--otf2 over a planted traces.def: refused" '[ $rc -eq 1 ] && grep -qF "cannot move the archive" "$scratch/err"'
    check "--otf2: the link's target is unchanged" '[ "$(cat "$scratch/victim")" = precious ]'
    check "--otf2: no staging directory left" '[ -z "$(ls -A "$scratch/otf2" | grep "^\.stage")" ]'
    # A log that claims a rank of two billion: no archive with a place for each.
    mkdir "$scratch/far"
    cp "$run/rank-000000.zst" "$scratch/far/"
    $edit "$golden/rank-000001.zst" "$scratch/far/rank-2000000000.zst" --rank 2000000000 --size 2000000001
    timeout "$T" "$merge" --otf2 "$scratch/otf2-far" "$scratch/far" >/dev/null 2>"$scratch/err"
    rc=$?
    check "--otf2 of a world of 2000000001 ranks with 2 logs: refused" \
        '[ $rc -eq 1 ] && grep -qF "the logs present (2) are too few for the world of 2000000001 ranks they claim" "$scratch/err"'
fi

# ---- terminal escapes in a log's strings ----
esc=$(printf 'run=\033]0;owned\007\033[2J')
$edit "$golden/rank-000000.zst" "$run/rank-000000.zst" --string run=0123456789abcdef
$edit "$golden/rank-000001.zst" "$run/rank-000001.zst" --string "$esc" --string "host=$(printf 'evil\033[31m\377')"
timeout "$T" "$merge" --text "$scratch/report.txt" "$run" >/dev/null 2>"$scratch/err"
rc=$?
check "escapes in run=: the logs of two runs (exit 2)" '[ $rc -eq 2 ]'
check "escapes in run=: none raw on stderr" '! grep -q $'"'"'[\x01-\x09\x0b-\x1f\x7f]'"'"' "$scratch/err"'
check "escapes in run=: shown as text" 'grep -qF "run=\\x1b]0;owned\\x07\\x1b[2J" "$scratch/err"'
$edit "$golden/rank-000001.zst" "$run/rank-000001.zst" --string "host=$(printf 'evil\033[31m\377')" --string "run=0123456789abcdef"
timeout "$T" "$merge" --text "$scratch/report.txt" "$run" >/dev/null 2>"$scratch/err"
rc=$?
check "escapes in a host name: the text report" '[ $rc -eq 0 ] && ! grep -q $'"'"'[\x01-\x08\x0b-\x1f\x7f]'"'"' "$scratch/report.txt"'
check "the text report is valid UTF-8" 'iconv -f UTF-8 -t UTF-8 "$scratch/report.txt" >/dev/null 2>&1'
if "$merge" --version 2>/dev/null | grep -q "otf2 yes" && command -v otf2-print >/dev/null; then
    timeout "$T" "$merge" --otf2 "$scratch/otf2-escapes" "$run" >/dev/null 2>"$scratch/err"
    rc=$?
    otf2-print -G "$scratch/otf2-escapes/traces.otf2" >"$scratch/defs.txt" 2>&1
    check "--otf2 of a host name that is not UTF-8: valid UTF-8 strings" \
        '[ $rc -eq 0 ] && grep -q "evil" "$scratch/defs.txt" && iconv -f UTF-8 -t UTF-8 "$scratch/defs.txt" >/dev/null 2>&1'
fi

echo "merge outputs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
