#!/usr/bin/env bash
# The Debian packages mpiscope needs to build, test and run its demo.
#   scripts/deps.sh          install what is missing (as root), else say how
#   scripts/deps.sh --list   print the list, one package a line
#   scripts/deps.sh --bench  install BENCH_PACKAGES only (what `make bench` also
#                            measures: LAMMPS in.melt, which make app-tests runs too)
# Prints nothing and exits 0 when everything is already installed.
# Also: a Python virtual environment with PIP_PACKAGES (test checkers that
# use other tools' own readers) at $MPISCOPE_VENV, default $BUILD/venv
# (BUILD default build); it needs no root.
set -euo pipefail

PACKAGES=(
    build-essential make gcc gfortran pkg-config  # compilers and build
    python3 python3-venv                          # wrapper generator, test checkers
    zstd libzstd-dev                              # log compression
    libcriterion-dev                              # unit tests
    mpich libmpich-dev                            # MPICH flavour
    openmpi-bin libopenmpi-dev                    # Open MPI flavour
    likwid                                        # hardware counters (ships its headers)
    libdw-dev                                     # call-site symbolization
    netpipe-mpich2 python3-mpi4py                 # benchmarks and third-party programs
    lammps lammps-examples scalapack-mpi-test     # make app-tests: LAMMPS in.melt, ScaLAPACK's tester xdlu
    valgrind clang libclang-rt-14-dev             # memory checks, sanitizers, fuzzers
    libotf2-trace-dev otf2-tools                  # mpiscope-merge --otf2, otf2-print in its test
    chromium                                      # headless browser of the --html test
    debootstrap git                               # scripts/fresh-debian.sh: the quick start in a bare root
    slurm-wlm munge                               # the launcher under srun (a one-node Slurm in its test)
    environment-modules                           # the installed modulefile, in its test
)
BENCH_PACKAGES=(lammps lammps-examples)           # make bench: LAMMPS in.melt (the examples ship it)
PIP_PACKAGES=(scope-profiler==0.7.5)              # mpiscope-merge --spt is checked with its reader
VENV=${MPISCOPE_VENV:-${BUILD:-build}/venv}

# The virtual environment, created or completed; silent when complete.
python_venv() {
    if "$VENV/bin/python" -c 'import scope_profiler' >/dev/null 2>&1 &&
        "$VENV/bin/pip" show -q "${PIP_PACKAGES[@]%%=*}" >/dev/null 2>&1; then
        return 0
    fi
    echo "mpiscope: installing ${PIP_PACKAGES[*]} into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q "${PIP_PACKAGES[@]}"
}

bench=0
if [ "${1:-}" = "--list" ]; then
    printf '%s\n' "${PACKAGES[@]}"
    exit 0
elif [ "${1:-}" = "--bench" ] && [ $# -eq 1 ]; then
    bench=1
    PACKAGES=("${BENCH_PACKAGES[@]}")
elif [ $# -gt 0 ]; then
    echo "usage: $0 [--list | --bench]" >&2
    exit 2
fi

# One dpkg-query for all: "name:status " for each package dpkg knows.
installed=" $(dpkg-query -W -f='${Package}:${db:Status-Status} ' "${PACKAGES[@]}" 2>/dev/null || true)"
missing=()
for p in "${PACKAGES[@]}"; do
    case "$installed" in
        *" $p:installed "*) ;;
        *) missing+=("$p") ;;
    esac
done
if [ ${#missing[@]} -eq 0 ]; then
    [ $bench -eq 1 ] || python_venv
    exit 0
fi

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
    echo "mpiscope: missing packages: ${missing[*]}" >&2
    echo "mpiscope: as root, run: apt-get update && DEBIAN_FRONTEND=noninteractive $cmd" >&2
    exit 1
fi
echo "mpiscope: installing ${missing[*]}"
apt-get update
DEBIAN_FRONTEND=noninteractive $cmd
[ $bench -eq 1 ] || python_venv
