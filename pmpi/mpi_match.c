/* Which MPI the process uses: see mpi_match.h. */
#include "mpi_match.h"

#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "../preload/config.h"
#include "../preload/diag.h"

int ms_mpi_is_foreign;

#ifdef OPEN_MPI
#define MS_MINE "openmpi"
#define MS_OTHER "mpich"
#define MS_OTHER_NAME "MPICH (or an MPI of its ABI)"
/* Defined by MPICH and the MPIs built on it, never by Open MPI. */
static const char *const other_marks[] = {"MPIR_Err_create_code", "MPIR_Process"};
#else
#define MS_MINE "mpich"
#define MS_OTHER "openmpi"
#define MS_OTHER_NAME "Open MPI"
static const char *const other_marks[] = {"ompi_mpi_comm_world", "ompi_mpi_comm_null"};
#endif

/* The path of this library with the other flavour's name, into buf. */
static const char *other_library(char *buf, size_t cap)
{
    Dl_info mine;
    const char *path = dladdr((void *)ms_mpi_foreign, &mine) && mine.dli_fname ? mine.dli_fname : "";
    const char *at = strstr(path, "libmpiscope-" MS_MINE);
    if (!at) {
        snprintf(buf, cap, "libmpiscope-%s.so", MS_OTHER);
        return buf;
    }
    snprintf(buf, cap, "%.*slibmpiscope-%s%s", (int)(at - path), path, MS_OTHER,
             at + strlen("libmpiscope-" MS_MINE));
    return buf;
}

int ms_mpi_foreign(void)
{
    static int asked;
    if (asked)
        return ms_mpi_is_foreign;
    asked = 1;
    for (size_t i = 0; i < sizeof other_marks / sizeof other_marks[0]; i++)
        if (dlsym(RTLD_DEFAULT, other_marks[i]))
            ms_mpi_is_foreign = 1;
    if (ms_mpi_is_foreign && !ms_cfg.disable && ms_config_launcher_rank() <= 0) {
        char other[4096];
        ms_warn_once(MS_WARN_WRONG_MPI,
                     "this program runs %s, but libmpiscope-%s.so is mpiscope's library for %s: nothing is "
                     "recorded, and the program runs as without mpiscope. Preload %s instead (the launcher, "
                     "mpiscope -- mpiexec ..., picks the library of the program's MPI)",
                     MS_OTHER_NAME, MS_MINE, MS_MINE, other_library(other, sizeof other));
    }
    return ms_mpi_is_foreign;
}
