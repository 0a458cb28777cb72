#!/usr/bin/env bash
# The build configuration (config.mk, docs/DESIGN.md section 2) on this
# machine, in a build directory of its own:
#
#  0. The objects no optional part affects come from $BUILD (`make
#     config-tests` builds it first): the MPI-free core (common/, the log
#     writer, analysis/; one stamp, `core`), the generated sources, and the
#     Open MPI library's objects (built with every part reachable, as in 2;
#     a flavour left out keeps its stamp). Their stamps come along, so that
#     what differs from $BUILD's configuration is still built again.
#  1. Every optional part made unreachable, in a private mount namespace:
#     CUDA_HOME=/nonexistent and the CUDA toolkit hidden (its headers may
#     also be reachable through /usr/local/include), <likwid.h> and
#     elfutils' <libdwfl.h> hidden, otf2-config and the Open MPI compiler
#     wrapper named where nothing is. Each probe must leave its part out,
#     `make` must say so in one line per part, and what it builds must work:
#     no CUPTI or LIKWID in the preload library, no Open MPI library, a merge
#     without --otf2 and libdw; a real MPI program profiled and merged at 2
#     ranks with exact expectations, and the tests of the parts left out
#     skipping with their reasons.
#  2. The same build directory with everything reachable again: what the
#     parts affect is rebuilt (the preload libraries where their flags
#     change: CUPTI's CUDA headers; LIKWID's sources; the symbolizer, the
#     OTF2 writer, the merge), nothing else.
#  3. make again: nothing is rebuilt. Other flags (OPT): make would rebuild
#     every object (make -n: its plan, not a third whole build).
#
#   BUILD=build bash test/config.sh      (exit 77: no mount namespace here)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
t=$PWD/$BUILD/test/config
log=$t/log
rm -rf "$t"
mkdir -p "$t/empty" "$log"
: >"$t/empty.h"
# The configuration must come from the probes, not from the caller.
unset HAVE_MPICH HAVE_OPENMPI HAVE_OTF2 HAVE_DW HAVE_LIKWID HAVE_CUPTI MAKEFLAGS MFLAGS
failed=0

fail() {
    echo "FAIL: $*"
    failed=1
}

ok() {
    echo "ok: $*"
}

if ! unshare -m --propagation private true 2>/dev/null; then
    echo "no private mount namespace here (unshare -m needs root): the probes cannot be tested"
    exit 77
fi

# The header a compiler finds for #include <$1>, or nothing.
header() {
    printf '#include <%s>\n' "$1" | ${CC:-cc} -M -x c - 2>/dev/null | tr ' \\' '\n\n' | grep -m1 "/$1\$"
}
# What this machine has (the probes, run by make in the ordinary way).
$MAKE -s BUILD="$BUILD/test/config/b" config >"$log/config-full.txt" 2>&1
has() {
    grep -q "^HAVE_$1=1" "$log/config-full.txt"
}
b=$t/b
# 0. What $BUILD has built that the optional parts do not affect, with its
# time stamps (make compares them) and its stamps; the dependency files name
# their objects under $BUILD.
if [ -d "$BUILD/obj/core" ] && [ -e "$BUILD/config/core" ]; then
    mkdir -p "$b/obj" "$b/config"
    cp -a "$BUILD/obj/core" "$b/obj/" && cp -a "$BUILD/gen" "$b/" && cp -a "$BUILD/config/core" "$b/config/" ||
        fail "cannot copy the objects of $BUILD"
    if [ -d "$BUILD/obj/openmpi" ] && [ -e "$BUILD/config/lib-openmpi" ]; then
        cp -a "$BUILD/obj/openmpi" "$b/obj/" && cp -a "$BUILD/config/lib-openmpi" "$b/config/" ||
            fail "cannot copy the Open MPI objects of $BUILD"
        rm -f "$b/obj/openmpi/all.o" "$b/obj/openmpi/weak.txt"
    fi
    find "$b/obj" -name '*.d' -exec sed -i -E "s#(^| )$BUILD/#\1$BUILD/test/config/b/#g" {} +
    echo "== 0. $(find "$b/obj" -name '*.o' | wc -l) objects of $BUILD that the optional parts do not affect"
fi

hide=()
cuda=$(readlink -f "${CUDA_HOME:-/usr/local/cuda}" 2>/dev/null)
[ -n "$cuda" ] && [ -d "$cuda" ] && hide+=("$t/empty:$cuda")
for h in likwid.h elfutils/libdwfl.h; do
    p=$(header "$h")
    [ -n "$p" ] && hide+=("$t/empty.h:$(readlink -f "$p")")
done
cat >"$t/hidden.sh" <<'EOF'
set -e
for pair in "$@"; do
    mount --bind "${pair%%:*}" "${pair#*:}"
done
exec env CUDA_HOME=/nonexistent OTF2_CONFIG=/nonexistent/otf2-config MPICC_OPENMPI=/nonexistent/mpicc \
    $MAKE -j2 BUILD="$BUILD/test/config/b" all
EOF
echo "== 1. every optional part unreachable (hidden: ${hide[*]:-nothing})"
MAKE=$MAKE BUILD=$BUILD unshare -m --propagation private bash "$t/hidden.sh" "${hide[@]}" \
    >"$log/build-hidden.txt" 2>&1 || { fail "the build without the optional parts failed"; tail -20 "$log/build-hidden.txt"; }
for part in "Open MPI" libotf2 elfutils LIKWID CUPTI; do
    n=$(grep -c "^mpiscope: left out $part" "$log/build-hidden.txt")
    [ "$n" = 1 ] && ok "make says once that it left out $part" || fail "make said $n times that it left out $part"
done
grep "^mpiscope: left out" "$log/build-hidden.txt" | sed 's/^/    /'
if grep -q "^mpiscope: left out MPICH" "$log/build-hidden.txt"; then
    fail "MPICH was left out, although it was not hidden"
fi
lib=$b/lib/libmpiscope-mpich.so
nm -D --defined-only "$lib" >"$log/lib-hidden.syms" 2>&1 || fail "no $lib"
grep -q ' T InitializeInjection' "$log/lib-hidden.syms" && fail "CUPTI is in $lib" || ok "no CUPTI in the preload library"
grep -q ' T likwid_markerStartRegion' "$log/lib-hidden.syms" && fail "LIKWID is in $lib" || ok "no LIKWID in the preload library"
[ -e "$b/lib/libmpiscope-openmpi.so" ] && fail "libmpiscope-openmpi.so was built" || ok "no Open MPI library"
"$b/bin/mpiscope-merge" --version >"$log/merge-hidden.txt" 2>&1
grep -q 'otf2 no, libdw no' "$log/merge-hidden.txt" && ok "the merge is built without libotf2 and libdw" ||
    fail "the merge says: $(tr '\n' ' ' <"$log/merge-hidden.txt")"
ldd "$b/bin/mpiscope-merge" | grep -E -q 'libdw|libotf2' && fail "the merge links libdw or libotf2"
# What was built works, and the tests of what was left out skip.
BUILD=$BUILD/test/config/b TEST_RANKS=2 bash test/mpi/run.sh p2p_pingpong cupti likwid callsites otf2_export \
    >"$log/run-hidden.txt" 2>&1
tail -n1 "$log/run-hidden.txt" | grep -E -q '^1 passed, 0 failed, 4 skipped$' &&
    ok "profiled and merged: $(tail -n1 "$log/run-hidden.txt")" ||
    { fail "the tests of a build without the optional parts:"; grep -E 'FAIL|SKIP|passed' "$log/run-hidden.txt" | tail -12; }

echo "== 2. the same build directory, every part reachable again"
cp -p "$b/config/lib-mpich" "$log/lib-mpich.hidden" 2>/dev/null
$MAKE -j2 BUILD="$BUILD/test/config/b" all >"$log/build-full.txt" 2>&1 ||
    { fail "the build with every part failed"; tail -20 "$log/build-full.txt"; }
compiled() { # the sources a build log compiled, one per line
    grep -E -o ' -c [^ ]+\.c' "$1" | sed 's/^ -c //' | sort -u
}
compiled "$log/build-full.txt" >"$log/compiled-full.txt"
nm -D --defined-only "$lib" >"$log/lib-full.syms" 2>&1
if has CUPTI; then
    grep -q ' T InitializeInjection' "$log/lib-full.syms" && ok "CUPTI is built in again" || fail "CUPTI is not built in again"
fi
if has LIKWID; then
    grep -q ' T likwid_markerStartRegion' "$log/lib-full.syms" && ok "LIKWID is built in again" || fail "LIKWID is not built in again"
fi
if has OPENMPI; then
    [ -e "$b/lib/libmpiscope-openmpi.so" ] && ok "the Open MPI library is built" || fail "no Open MPI library"
fi
has OTF2 && { grep -q 'otf2 yes' <("$b/bin/mpiscope-merge" --version) && ok "the merge writes OTF2 again" || fail "the merge has no OTF2"; }
has DW && { grep -q 'libdw yes' <("$b/bin/mpiscope-merge" --version) && ok "the merge symbolizes again" || fail "the merge has no libdw"; }
# The MPICH library's objects are rebuilt when their flags changed (its
# stamp: the CUDA headers of CUPTI), and kept when they did not (a machine
# without CUDA: LIKWID adds its own sources, not flags); LIKWID's own
# sources are built in either case.
if cmp -s "$log/lib-mpich.hidden" "$b/config/lib-mpich"; then
    grep -q '^preload/runtime.c$' "$log/compiled-full.txt" &&
        fail "preload/runtime.c was rebuilt although the library's flags did not change" ||
        ok "the preload library's objects were kept: its flags are the same with every part reachable"
else
    grep -q '^preload/runtime.c$' "$log/compiled-full.txt" && ok "the preload library's objects were rebuilt" ||
        fail "preload/runtime.c was not rebuilt for the new configuration"
fi
if has LIKWID; then
    grep -q '^likwid/lk_markers.c$' "$log/compiled-full.txt" && ok "LIKWID's sources were built" ||
        fail "likwid/lk_markers.c was not built with LIKWID reachable"
fi
# The merge's own objects do not depend on the optional parts.
stale=$(grep -E '^analysis/(reduce/reduce|report/report_text|read/log_dispatch)\.c$' "$log/compiled-full.txt" | tr '\n' ' ')
[ -z "$stale" ] && ok "objects the parts do not affect were kept" || fail "rebuilt needlessly: $stale"

echo "== 3. no change, then other flags"
$MAKE -j2 BUILD="$BUILD/test/config/b" all >"$log/build-again.txt" 2>&1 || fail "make again failed"
n=$(compiled "$log/build-again.txt" | wc -l)
grep -E -q '^(cc|gcc|mpicc)[^ ]* .* -o ' "$log/build-again.txt" && fail "make again rebuilt something:" &&
    grep -E '^(cc|gcc|mpicc)' "$log/build-again.txt" | head -5
[ "$n" = 0 ] && ok "make again compiles nothing"
# What make would run (-n): the configuration stamps are rewritten as they
# are read, so the plan is the one a real build would carry out.
$MAKE -n BUILD="$BUILD/test/config/b" OPT="-O1 -g" all >"$log/build-opt.txt" 2>&1 || fail "make -n OPT=-O1 failed"
compiled "$log/build-opt.txt" >"$log/compiled-opt.txt"
want=$(ls common/*.c analysis/*/*.c analysis/*/*/*.c preload/*.c pmpi/*.c | grep -v -E 'merge_mpi_main|symbolize_(nodw|dwfl|index)|report_otf2' | sort)
missing=$(comm -23 <(echo "$want") "$log/compiled-opt.txt" | tr '\n' ' ')
[ -z "$missing" ] && ok "OPT=-O1 would rebuild every object ($(wc -l <"$log/compiled-opt.txt") sources)" ||
    fail "OPT=-O1 would not rebuild: $missing"

if [ $failed = 0 ]; then
    rm -rf "$t"
    echo "config tests: passed"
    exit 0
fi
echo "config tests: FAILED (logs in $log)"
exit 1
