/* Another PMPI tool preloaded with mpiscope: see stacking.h. */
#include "stacking.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "../preload/config.h"
#include "../preload/diag.h"
#include "../preload/runtime.h"

/* Whether the launcher's environment names this process as a rank other
 * than 0 (config.h); a process it does not name counts as rank 0. */
static int other_rank(void)
{
    return ms_config_launcher_rank() > 0;
}

void ms_pmpi_check_stacking(void)
{
    if (!ms_runtime_allowed())
        return;
    void *seen = dlsym(RTLD_DEFAULT, "MPI_Init");
    void *pmpi = dlsym(RTLD_DEFAULT, "PMPI_Init");
    Dl_info mine, theirs, mpi;
    if (!seen || !dladdr((void *)ms_pmpi_check_stacking, &mine) || !dladdr(seen, &theirs))
        return;
    /* Ours: the calls reach the wrappers. The MPI library's own: mpiscope
     * was not preloaded ahead of it (loaded later, privately), and no other
     * tool is in the way. */
    if (theirs.dli_fbase == mine.dli_fbase)
        return;
    if (pmpi && dladdr(pmpi, &mpi) && mpi.dli_fbase == theirs.dli_fbase)
        return;
    if (other_rank())
        return;
    ms_warn_once(MS_WARN_STACKED,
                 "%s defines the MPI functions ahead of mpiscope (it comes first in LD_PRELOAD): the program's "
                 "MPI calls go through it to PMPI, and mpiscope records none of them; put %s first in LD_PRELOAD",
                 theirs.dli_fname && theirs.dli_fname[0] ? theirs.dli_fname : "another library",
                 mine.dli_fname ? mine.dli_fname : "mpiscope's library");
}

void *ms_pmpi_next(const char *name, void *pmpi)
{
    void *next = dlsym(RTLD_NEXT, name);
    Dl_info theirs, mpi;
    if (!next || next == pmpi || !dladdr(next, &theirs) || !dladdr(pmpi, &mpi) ||
        theirs.dli_fbase == mpi.dli_fbase)
        return pmpi;
    return next;
}

void *ms_pmpi_next_of(const char *names, void *pmpi)
{
    for (const char *n = names; *n; n += strlen(n) + 1) {
        void *next = ms_pmpi_next(n, pmpi);
        if (next != pmpi)
            return next;
    }
    return pmpi;
}
