/*
 * The reduction of a directory in one process (reduce.h): a new run, its
 * logs listed, read and assembled (reduce_partial.h); the run, or its
 * freeing when out of memory.
 */
#include "reduce.h"

#include "reduce_partial.h"

ms_reduce_status ms_reduce_dir(const char *dir, unsigned jobs, ms_run **out)
{
    *out = NULL;
    ms_run *run = ms_run_new(dir);
    if (!run)
        return MS_REDUCE_NOMEM;
    ms_partial p;
    ms_partial_init(&p);
    ms_reduce_status st = ms_partial_list(&p, dir, run);
    if (st == MS_REDUCE_OK) {
        ms_partial_read(&p, jobs, NULL);
        st = ms_partial_assemble(&p, run);
    }
    ms_partial_free(&p);
    if (st == MS_REDUCE_NOMEM) {
        ms_run_free(run);
        return st;
    }
    *out = run;
    return st;
}
