/* Another PMPI tool preloaded with mpiscope: see stacking.h. */
#include "stacking.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

#include "../preload/runtime.h"

/* A function of the tool ahead of mpiscope, as the span of its code. */
typedef struct span {
    uintptr_t from, to;
} span;

/* The tool ahead's MPI_Init, MPI_Init_thread and MPI_Finalize, in C and
 * in each Fortran mangling it defines; empty (0, 0) where it has none.
 * Set once at load, read-only after. */
static const char *const own_names[] = {
    "MPI_Init",        "MPI_Init_thread",  "MPI_Finalize",     "mpi_init_",        "mpi_init__",
    "mpi_init",        "MPI_INIT",         "mpi_init_thread_", "mpi_init_thread__", "mpi_init_thread",
    "MPI_INIT_THREAD", "mpi_finalize_",    "mpi_finalize__",   "mpi_finalize",     "MPI_FINALIZE",
};
#define OWN_COUNT (sizeof own_names / sizeof own_names[0])
static span own_spans[OWN_COUNT];
static int tool_ahead;

/* The span of the function at f, from its symbol's size; empty where the
 * object does not say. */
static span span_of(void *f)
{
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    span s = {0, 0};
    if (f && dladdr1(f, &info, (void **)&sym, RTLD_DL_SYMENT) && sym && sym->st_size) {
        s.from = (uintptr_t)f;
        s.to = (uintptr_t)f + sym->st_size;
    }
    return s;
}

void ms_pmpi_check_stacking(void)
{
    if (!ms_runtime_allowed())
        return;
    void *seen = dlsym(RTLD_DEFAULT, "MPI_Init");
    void *pmpi = dlsym(RTLD_NEXT, "PMPI_Init");
    Dl_info mine, theirs, mpi;
    if (!seen || !dladdr((void *)ms_pmpi_check_stacking, &mine) || !dladdr(seen, &theirs))
        return;
    /* Ours: the calls reach the MPI_X wrappers. The MPI library's own:
     * mpiscope was not preloaded ahead of it (loaded later, privately), and
     * no other tool is in the way. */
    if (theirs.dli_fbase == mine.dli_fbase)
        return;
    if (pmpi && dladdr(pmpi, &mpi) && mpi.dli_fbase == theirs.dli_fbase)
        return;
    /* Another tool takes the program's calls first and passes them on to
     * PMPI_X, mpiscope's: its own calls in its MPI_Init and MPI_Finalize
     * (the report it gathers) are told apart by where they come from. */
    tool_ahead = 1;
    for (size_t i = 0; i < OWN_COUNT; i++) {
        void *f = dlsym(RTLD_DEFAULT, own_names[i]);
        Dl_info at;
        if (f && dladdr(f, &at) && at.dli_fbase == theirs.dli_fbase)
            own_spans[i] = span_of(f);
    }
}

int ms_pmpi_tool_own_call(void)
{
    if (!tool_ahead)
        return 0;
    void *frames[24];
    int n = backtrace(frames, (int)(sizeof frames / sizeof frames[0]));
    for (int i = 1; i < n; i++) {
        uintptr_t at = (uintptr_t)frames[i];
        for (size_t k = 0; k < OWN_COUNT; k++)
            if (at > own_spans[k].from && at <= own_spans[k].to)
                return 1;
    }
    return 0;
}

void *ms_pmpi_real(const char *name, void *old)
{
    void *f = dlsym(RTLD_NEXT, name);
    return f ? f : old;
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
