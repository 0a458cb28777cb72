#!/usr/bin/env bash
# fault_exit.sh with the ranks recording in summary mode
# (MPISCOPE_MODE=summary): exit() without MPI_Finalize, MPI_Abort (also from
# Fortran) and SIGSEGV keep every completed call, as in a trace, and the
# Fortran MPI_Abort's Run ended names its code and line; and every run's
# logs say they were recorded in summary mode.
#
#   fault_exit_summary.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
dir=$3
extra_env=MPISCOPE_MODE=summary bash "$(dirname "$0")/fault_exit.sh" "$@"
status=$?
for logs in "$dir"/*/logs; do
    [ -d "$logs" ] || continue
    if ! "$MERGE" "$logs" 2>/dev/null | grep -q '^  mode         summary (per-region aggregates'; then
        echo "FAIL: $logs: not recorded in summary mode"
        status=1
    fi
done
exit $status
