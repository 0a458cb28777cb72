#!/usr/bin/env bash
# Cross-check of the Fortran entry points against the C wrappers.
#
#   test/fortran/crosscheck.sh [RANKS...]      (default: 3 4; after make)
#
# Runs crosscheck.F90 through mpif.h and `use mpi_f08`, under MPICH and Open
# MPI, with the preload library. MPICH's mpif.h binding calls the C MPI_*
# functions, so its profile comes from the C wrappers alone: the reference.
# Open MPI's bindings (wrapped in Fortran) and MPICH's mpi_f08 (partly)
# must give the same regions with the same calls on every rank. Test-family
# calls that completed nothing are left out: how many there are depends on
# timing. docs/FORTRAN.md.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

BUILD=${BUILD:-build}
case "$BUILD" in
    /*) build_abs=$BUILD ;;
    *) build_abs=$PWD/$BUILD ;;
esac
MPIEXEC_MPICH=${MPIEXEC_MPICH:-mpiexec.mpich}
MPIF90_MPICH=${MPIF90_MPICH:-mpif90.mpich}
MPIRUN_OPENMPI=${MPIRUN_OPENMPI:-mpirun.openmpi}
MPIF90_OPENMPI=${MPIF90_OPENMPI:-mpif90.openmpi}
PYTHON=${PYTHON:-python3}
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(3 4)
out=$build_abs/test/fortran
merge=$build_abs/bin/mpiscope-merge
for v in $(env | sed -n 's/^\(MPISCOPE_[A-Z_]*\)=.*/\1/p'); do
    unset "$v"
done

failed=0
fail() {
    echo "FAIL: $*"
    failed=$((failed + 1))
}

for f in "$merge" "$build_abs/lib/libmpiscope-mpich.so" "$build_abs/lib/libmpiscope-openmpi.so"; do
    [ -e "$f" ] || { echo "FAIL: $f is missing (run make first)"; exit 1; }
done

mkdir -p "$out"
variants=()
for flavour in mpich openmpi; do
    fc=$MPIF90_MPICH
    [ "$flavour" = mpich ] || fc=$MPIF90_OPENMPI
    for binding in mpifh f08; do
        v=$binding-$flavour
        flags=(-cpp -O1 -g -J "$out")
        if [ "$binding" = f08 ]; then
            flags+=(-DF08)
        else
            flags+=(-fallow-argument-mismatch -w)   # mpif.h declares no choice buffers
        fi
        if "$fc" "${flags[@]}" -o "$out/$v" test/fortran/crosscheck.F90 >"$out/$v.log" 2>&1; then
            variants+=("$v")
        else
            fail "$v does not compile (see $out/$v.log)"
        fi
    done
done

# table DIR: "rank name calls" lines of a merged run, sorted.
table() {
    "$merge" --ranks-csv "$1.ranks.csv" "$1" >/dev/null 2>"$1.merge.err" || return 1
    "$PYTHON" - "$1.ranks.csv" <<'EOF'
import csv, re, sys
rows = []
for r in csv.DictReader(open(sys.argv[1])):
    if re.match(r"mpi:test(any|all|some)? ", r["name"]) and " request=" not in r["name"]:
        continue
    rows.append((int(r["rank"]), r["name"], r["calls"]))
for row in sorted(rows):
    print(*row)
EOF
}

for n in "${ranks[@]}"; do
    for v in "${variants[@]}"; do
        dir=$out/$v-$n
        rm -rf "$dir" "$dir".*
        lib=$build_abs/lib/libmpiscope-${v#*-}.so
        if [ "${v#*-}" = mpich ]; then
            timeout -k 10 120 "$MPIEXEC_MPICH" -n "$n" -genv LD_PRELOAD "$lib" -genv MPISCOPE_DIR "$dir" \
                "$out/$v" >"$dir.out" 2>&1
        else
            timeout -k 10 120 "$MPIRUN_OPENMPI" --allow-run-as-root --oversubscribe -np "$n" \
                -x "LD_PRELOAD=$lib" -x "MPISCOPE_DIR=$dir" "$out/$v" >"$dir.out" 2>&1
        fi
        rc=$?
        if [ $rc -ne 0 ]; then
            fail "$v -n $n exits $rc (see $dir.out)"
            continue
        fi
        table "$dir" >"$dir.table" || fail "$v -n $n: mpiscope-merge failed (see $dir.merge.err)"
    done
    ref=$out/mpifh-mpich-$n.table
    [ -s "$ref" ] || { fail "no reference profile at $n ranks"; continue; }
    for v in "${variants[@]}"; do
        if [ "$v" = mpifh-mpich ] || [ ! -e "$out/$v-$n.table" ]; then
            continue
        fi
        if diff "$ref" "$out/$v-$n.table" >"$out/$v-$n.diff"; then
            echo "ok: $v -n $n: $(wc -l <"$ref") (rank, region) rows as through the C wrappers"
        else
            fail "$v -n $n differs from mpifh-mpich (< C wrappers, > $v):"
            head -20 "$out/$v-$n.diff" | sed 's/^/    /'
        fi
    done
done
[ "$failed" -eq 0 ]
