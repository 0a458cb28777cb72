#!/usr/bin/env bash
# Where `make check`'s time goes.
#   check_times.sh step FILE NAME CMD...   run CMD; append "SECONDS<TAB>step<TAB>NAME" to FILE;
#                                          exit with CMD's status
#   check_times.sh report FILE             the steps in order with their times, then the
#                                          ten slowest tests (lines "SECONDS<TAB>test<TAB>NAME"
#                                          that test/mpi/run.sh appends to $CHECK_TIMES)
set -uo pipefail
mode=${1:-}
file=${2:-}
case "$mode" in
    step)
        name=$3
        shift 3
        t0=$(date +%s.%N)
        "$@"
        rc=$?
        t1=$(date +%s.%N)
        awk -v a="$t0" -v b="$t1" -v n="$name" 'BEGIN { printf "%.1f\tstep\t%s\n", b - a, n }' >>"$file"
        exit $rc
        ;;
    report)
        [ -s "$file" ] || exit 0
        echo
        echo "make check: time per step"
        awk -F'\t' '$2 == "step" { printf "  %8.1f s  %s\n", $1, $3; total += $1 }
                    END { printf "  %8.1f s  in all (%.1f min)\n", total, total / 60 }' "$file"
        echo "make check: the ten slowest tests"
        # awk reads to the end: no reader leaves a writer of the pipe early
        awk -F'\t' '$2 == "test"' "$file" | sort -t"$(printf '\t')" -k1,1 -g -r |
            awk -F'\t' 'NR <= 10 { printf "  %8.1f s  %s\n", $1, $3 }'
        ;;
    *)
        echo "usage: $0 step FILE NAME CMD... | report FILE" >&2
        exit 2
        ;;
esac
