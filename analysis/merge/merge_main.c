/*
 * mpiscope-merge: reduce the per-rank logs of a run into reports
 * (DESIGN section 6). The command line and the writing of the outputs
 * are in merge_cli.c, the reports (one row each) in merge_reports.c.
 *
 * Exit status: 0 success (a truncated log is a warning, its readable part is
 * used); 1 bad usage (also: no such directory, no logs in it, an output that
 * cannot be written); 2 an input that is not an mpiscope log or is corrupt
 * beyond its readable prefix, or logs of two different runs in DIR
 * (docs/RELIABILITY.md).
 */
#include "merge_cli.h"

int main(int argc, char **argv)
{
    ms_merge_opts o;
    int rc = ms_merge_parse(argc, argv, 0, &o);
    if (rc >= 0)
        return rc;
    ms_merge_guard_dir(&o);
    ms_run *run = NULL;
    ms_reduce_status st = ms_reduce_dir(o.dir, o.jobs, &run);
    return ms_merge_finish(st, run, &o);
}
