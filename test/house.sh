#!/usr/bin/env bash
# scripts/house.py on small trees that break each rule once (each must be
# found), then on this repository with its built objects.
#   house.sh BUILD   (run by `make house-tests`)
set -uo pipefail
build=${1:-build}
PYTHON=${PYTHON:-python3}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
failed=0
# expect NAME PATTERN: house.py on $t/NAME fails and says PATTERN.
expect() {
    local out
    out=$($PYTHON scripts/house.py --root "$t/$1" 2>&1)
    if [ $? = 1 ] && grep -q -- "$2" <<<"$out"; then
        echo "ok: house finds $1"
    else
        echo "FAIL: house does not find $1: $out"
        failed=1
    fi
}
mk() { mkdir -p "$(dirname "$t/$1")" && printf '%b' "$2" >"$t/$1"; }

mk upward/common/a.c '#include "../preload/b.h"\n'
mk upward/preload/b.h '\n'
expect upward 'common/a.c:1: includes preload/b.h'

mk sideways/pmpi/a.c '#include "../cupti/b.h"\n'
mk sideways/cupti/b.h '\n'
expect sideways 'pmpi/a.c:1: includes cupti/b.h'

mk circle/preload/a.h '#include "b.h"\n'
mk circle/preload/b.c '#include "a.h"\n'
mk circle/preload/b.h '\n'
mk circle/preload/a.c '#include "b.h"\n'
mk circle/preload/b2.h '\n'
printf '#include "a.h"\n' >>"$t/circle/preload/b.h"
expect circle 'circle: preload/a <-> preload/b'

mk long/common/big.c "$(printf 'int x%d;\\n' $(seq 801))"
expect long 'common/big.c: 801 lines'

mk missing/preload/a.c '#include "nowhere.h"\n'
expect missing '"nowhere.h" is not a file beside it'

# An op name of the table as a string in the merge (a comment and a
# character constant before it do not hide it, nor count).
mk oplist/pmpi/calls.tbl '6 | MPI_Isend | point-to-point | send post | newreq(r) | MPI_Request *r\n'
mk oplist/analysis/reduce/a.c '/* "isend" */ char q = \0047"\0047;\nstatic const char *const sends[] = {"isend", "x"};\n'
mk oplist/analysis/report/otf2/report_otf2_defs.c 'static const char *const b[] = {"isend"};\n'
mk oplist/analysis/report/otf2/b.c 'static const char *const b[] = {"isend"};\n'
expect oplist 'analysis/reduce/a.c:2: names MPI ops (isend)'
expect oplist 'analysis/report/otf2/b.c:1: names MPI ops (isend)'
# ... but OTF2's names of collective operations, the one exception, are left alone.
if $PYTHON scripts/house.py --root "$t/oplist" | grep -q 'report_otf2_defs.c'; then
    echo "FAIL: house flags OTF2's collective operations, its one exception"
    failed=1
else
    echo "ok: house leaves OTF2's collective operations"
fi

# A source folder that FLOORS does not know.
mk unknown/papi/pa_counters.c 'int x;\n'
expect unknown 'papi/: a source folder the house does not know'

# A collector's name (its folder's, where it registers) in the core's or
# the merge's code, as an identifier or a word of a string; a comment is
# left alone.
mk names/likwid/lk_counters.c 'MS_COLLECTOR_REGISTER(likwid_collector);\n'
mk names/preload/config.c '/* likwid/ brings its own settings */\nint w = MS_WARN_LIKWID;\n'
mk names/analysis/report/counters.c '/* LIKWID */\nconst char *h = "Hardware counters (LIKWID %s";\n'
mk names/preload/runtime.c '/* the likwid collector */\nint x;\n'
expect names 'preload/config.c:2: names the collector likwid'
expect names 'analysis/report/counters.c:2: names the collector likwid'
if $PYTHON scripts/house.py --root "$t/names" | grep -q 'runtime.c'; then
    echo "FAIL: house flags a collector's name in a comment"
    failed=1
else
    echo "ok: house leaves a collector's name in a comment"
fi

objs=(--objects "$build/obj/core")
for f in mpich openmpi; do [ -d "$build/obj/$f" ] && objs+=(--objects "$build/obj/$f"); done
$PYTHON scripts/house.py "${objs[@]}" || failed=1
exit $failed
