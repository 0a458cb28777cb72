#!/usr/bin/env bash
# --otf2 matches requests in time linear in the trace (docs/RELIABILITY.md,
# "Crafted logs"): 1,000,000 calls of 2 ranks of synth-logs' halo exchange
# (isend, irecv, waitall: about 570,000 requests) within 60 s, a generous
# bound (3 s here; a match that rescans every request the rank made took
# 220 s). Run by `make scale-tests` (BUILD in env).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$BUILD/test/scale/synth-logs" --ranks 2 --events 1000000 "$scratch/logs" >/dev/null || { echo "FAIL: synth-logs"; exit 1; }
start=$(date +%s%N)
timeout 120 "$BUILD/bin/mpiscope-merge" -j 2 --otf2 "$scratch/otf2" "$scratch/logs" 2>"$scratch/err"
rc=$?
took=$((($(date +%s%N) - start) / 1000000))
if "$BUILD/bin/mpiscope-merge" --version | grep -q "otf2 no"; then
    echo "skip: built without libotf2"
    exit 0
fi
[ $rc -eq 0 ] || { echo "FAIL: --otf2 of 1,000,000 calls: exit $rc after $took ms: $(head -3 "$scratch/err")"; exit 1; }
[ -s "$scratch/otf2/traces.otf2" ] || { echo "FAIL: no traces.otf2"; exit 1; }
# Only the requests of each rank's last step, cut short, have no completion.
grep -qF -- "--otf2: 2 non-blocking requests left without a matching completion" "$scratch/err" ||
    { echo "FAIL: unexpected messages: $(head -3 "$scratch/err")"; exit 1; }
[ "$took" -lt 60000 ] || { echo "FAIL: --otf2 of 1,000,000 calls took $took ms (bound 60000)"; exit 1; }
echo "ok: --otf2 of 1,000,000 non-blocking calls in $took ms"
