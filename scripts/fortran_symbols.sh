#!/usr/bin/env bash
# Prints the symbols exported by the MPI libraries that an MPI Fortran
# compiler wrapper links (libmpi_mpifh, libmpi_usempif08, libmpichfort ...),
# one per line, sorted: what scripts/gen_fortran.py generates entry points
# for.
#
#   scripts/fortran_symbols.sh MPIFC
#
# Prints nothing, and succeeds, when MPIFC or its libraries are missing:
# then no Fortran entry points are generated.
set -u
fc=${1:?usage: fortran_symbols.sh MPIFC}
command -v "$fc" >/dev/null 2>&1 || exit 0
# Open MPI's wrappers answer -showme:link, MPICH's -link_info.
link=$("$fc" -showme:link 2>/dev/null || "$fc" -link_info 2>/dev/null) || exit 0

dirs=()
libs=()
for word in $link; do
    case "$word" in
        -L*) dirs+=("${word#-L}") ;;
        -l*mpi*) libs+=("${word#-l}") ;;
    esac
done

for lib in ${libs[@]+"${libs[@]}"}; do
    file=
    for dir in ${dirs[@]+"${dirs[@]}"}; do
        if [ -e "$dir/lib$lib.so" ]; then
            file=$dir/lib$lib.so
            break
        fi
    done
    [ -n "$file" ] || file=$("$fc" -print-file-name="lib$lib.so" 2>/dev/null)
    [ -e "$file" ] || continue
    nm -D --defined-only "$file" 2>/dev/null | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }'
done | LC_ALL=C sort -u
