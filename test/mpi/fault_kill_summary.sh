#!/usr/bin/env bash
# fault_kill.sh with the ranks recording in summary mode
# (MPISCOPE_MODE=summary): SIGTERM loses no completed call, SIGKILL at most
# the calls of the last flush interval (see fault_kill.sh).
#
#   fault_kill_summary.sh FLAVOUR LIBRARY OUTDIR     (run by run.sh)
FAULT_KILL_MODE=summary exec bash "$(dirname "$0")/fault_kill.sh" "$@"
