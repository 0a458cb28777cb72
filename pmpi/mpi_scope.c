/*
 * Making the MPI library's symbols reachable. This library leaves every
 * PMPI symbol undefined and weak, to be found in the global scope when first
 * called. A program that loads its MPI with dlopen(RTLD_LOCAL) — Python's
 * mpi4py does — keeps the MPI library out of that scope, so those calls
 * would find nothing. Before the first PMPI call (at MPI_Init), every loaded
 * MPI library is made global with dlopen(RTLD_NOLOAD | RTLD_GLOBAL), and
 * the pointers to the MPI library's functions and the next tool's
 * (stacking.h), looked up at load, are looked up again.
 */
#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include "mpi_scope.h"
#include "stacking.h"

static const char *const mpi_libraries[] = {"libmpi.so", "libmpich.so", "libmpi_mpifh.so",
                                            "libmpichfort.so", "libmpi_usempif08.so"};

static int promote(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    const char *path = info->dlpi_name;
    if (!path || !path[0])
        return 0;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof mpi_libraries / sizeof mpi_libraries[0]; i++) {
        size_t n = strlen(mpi_libraries[i]);
        if (strncmp(base, mpi_libraries[i], n) == 0 && (base[n] == '\0' || base[n] == '.')) {
            /* The handle is kept: the library stays loaded as long as the
             * program, as it would anyway. */
            dlopen(path, RTLD_LAZY | RTLD_NOLOAD | RTLD_GLOBAL);
            break;
        }
    }
    return 0;
}

void ms_mpi_make_global(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    dl_iterate_phdr(promote, NULL);
    ms_pmpi_find_next();
}
