#!/bin/sh
# One probe of the build configuration (config.mk): does an optional part
# build here, with the flags the build would use for it?
#
#   config/probe.sh compile|link NAME COMPILER CFLAGS [LIBS]
#
# Compiles config/probe_NAME.c with COMPILER and CFLAGS; `link` also links
# it with LIBS, so that the libraries are proven too.
# Prints "1" when it builds, else "0 " and why (the compiler's first error
# line, or that the compiler is missing). Always exits 0: a probe that fails
# leaves a part out, it never stops the build.
set -u
mode=$1 name=$2 compiler=$3 cflags=$4 libs=${5-}
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/config/probe_$name.c
[ -f "$src" ] || { echo "0 no probe $src"; exit 0; }
set -- $compiler
if ! command -v "$1" >/dev/null 2>&1; then
    echo "0 $1 not found"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpiscope-probe.XXXXXX") || { echo "0 mktemp failed"; exit 0; }
trap 'rm -rf "$tmp"' EXIT
flags="-std=c11 -D_GNU_SOURCE -Werror -I$root $cflags"
if [ "$mode" = link ]; then
    # shellcheck disable=SC2086
    $compiler $flags -o "$tmp/probe" "$src" $libs >"$tmp/log" 2>&1
else
    # shellcheck disable=SC2086
    $compiler $flags -c -o "$tmp/probe.o" "$src" >"$tmp/log" 2>&1
fi
if [ $? -eq 0 ]; then
    echo 1
else
    why=$(grep -m1 -E 'error|undefined reference|cannot find' "$tmp/log" || head -n1 "$tmp/log")
    # One line, without the probe's temporary paths.
    echo "0 $(printf '%s' "$why" | sed -e "s|$tmp/||g" -e "s|$root/||g" | tr -s ' \t' ' ' | cut -c1-200)"
fi
