/*
 * MPI_Init, MPI_Init_thread and MPI_Finalize (the `custom` rows of
 * calls.tbl), from C and, through the generated Fortran entry points
 * (fortran.h), from Fortran. At init the ranks agree on the log directory
 * and the run's identity through one PMPI_Bcast from rank 0, then measure
 * their clocks against rank 0's (clock_sync.h: a communicator duplicated
 * for the tool, ping-pong with rank 0), then the core starts recording. At
 * MPI_Finalize the ranks measure their clocks again, each for at most
 * MS_SYNC_FINALIZE_MS; MPI_Abort is rank-local: no communication, no
 * waiting. From C, each goes on to the next tool's function where another
 * tool comes after mpiscope in LD_PRELOAD (stacking.h), else to PMPI; the
 * profiler's own calls here go to PMPI always.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "../preload/clock_skew.h"
#include "clock_sync.h"
#include "../preload/config.h"
#include "../preload/diag.h"
#include "fortran.h"
#include "../preload/run_ident.h"
#include "../preload/runtime.h"
#include "semantics.h"
#include "stacking.h"
#include "../preload/user_regions.h"

/* What rank 0 sends every rank at init. */
typedef struct agreed {
    char dir[sizeof ms_cfg.dir];
    char run[17];             /* 16 hex digits */
    char sync;                /* 1: measure the clocks (rank 0 records) */
} agreed;

/* After a successful MPI_Init or MPI_Init_thread (op) that began at t0. */
static void after_init(uint16_t op, uint64_t t0)
{
    /* Once per process, even if a Fortran binding's init called the C one. */
    static atomic_flag done = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&done))
        return;
    if (!ms_runtime_allowed() && !ms_cfg.disable)
        return;  /* setuid, or a forked child: stay out entirely */
    int rank = 0, size = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    agreed a;
    memset(&a, 0, sizeof a);
    if (rank == 0) {
        if (ms_cfg.dir[0])
            memcpy(a.dir, ms_cfg.dir, sizeof a.dir);
        else
            ms_default_dir(a.dir, sizeof a.dir);
        snprintf(a.run, sizeof a.run, "%016llx", (unsigned long long)ms_new_run_id());
        a.sync = !ms_cfg.disable && size > 1;
    }
    /* Every rank takes part, even with MPISCOPE_DISABLE=1, so that a value
     * that differs between ranks cannot leave a rank waiting here. */
    PMPI_Bcast(&a, (int)sizeof a, MPI_CHAR, 0, MPI_COMM_WORLD);
    a.dir[sizeof a.dir - 1] = 0;
    a.run[sizeof a.run - 1] = 0;
    const char *dir = a.dir;
    /* Every rank measures when rank 0 records, also with
     * MPISCOPE_DISABLE=1: the duplication is collective, and rank 0 waits
     * for every rank's pings. The skew (tests only) is set first, since
     * the measurement uses it. */
    ms_sync_sample sync;
    int has_sync = 0;
    if (a.sync) {
        ms_skew_setup(rank);
        has_sync = ms_sync_init(rank, size, &sync);
    }
    if (ms_cfg.disable)
        return;
    ms_config_report(rank == 0 && ms_cfg.verbose);

    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    PMPI_Get_library_version(lib, &len);
    char *nl = strchr(lib, '\n');
    if (nl)
        *nl = 0;
    for (char *c = lib; *c; c++)
        if (*c == '\t')
            *c = ' ';
    ms_requests_init();
    ms_objects_init();
    ms_files_init();
    ms_comm_ids_init();
    ms_start_info info = {
        .dir = dir,
        .rank = rank,
        .size = size,
        .init_start_ns = t0,
        .init_end_ns = ms_now(),
        .mpi_library = lib,
        .run_id = strtoull(a.run, NULL, 16),
    };
    if (ms_runtime_start(&info) != 0)
        return;
    if (has_sync)
        ms_runtime_write_sync(&sync);
    if (rank == 0 && ms_cfg.verbose)
        ms_info("writing logs to %s/", dir);
    ms_thread *t = ms_enter();
    if (t) {
        ms_sites_start(t);
        ms_call c = ms_call_init(op);
        ms_call_record(t, &c, t0, info.init_end_ns);
        ms_leave(t);
    }
}

MS_EXPORT int MPI_Init(int *argc, char ***argv)
{
    ms_mpi_make_global();
    uint64_t t0 = ms_now();
    int rc = ms_next_MPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        after_init(MS_OP_INIT, t0);
    return rc;
}

MS_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    ms_mpi_make_global();
    uint64_t t0 = ms_now();
    int rc = ms_next_MPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        after_init(MS_OP_INIT_THREAD, t0);
    return rc;
}

/* After MPI_Finalize, from t0 to t1; t from ms_enter before it. */
static void after_finalize(ms_thread *t, uint64_t t0, uint64_t t1)
{
    if (t) {
        ms_user_close_all(t, t0);
        ms_call c = ms_call_init(MS_OP_FINALIZE);
        ms_call_record(t, &c, t0, t1);
        ms_leave(t);
    }
    ms_runtime_stop(t0);
}

MS_EXPORT int MPI_Finalize(void)
{
    ms_thread *t = ms_enter();
    uint64_t t0 = ms_now();
    ms_sync_finalize();
    int rc = ms_next_MPI_Finalize();
    after_finalize(t, t0, ms_now());
    return rc;
}

/* The job is about to die: close this rank's log first (not recorded as a
 * call; the other ranks' logs end with the signal the launcher sends them). */
MS_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
    ms_runtime_stop(0);
    return ms_next_MPI_Abort(comm, errorcode);
}

/* From Fortran: the binding's own PMPI entry point does the work; ierror may
 * be NULL (optional in mpi_f08). */
void ms_f_init(ms_f_init_fn *pmpi, MPI_Fint *ierror)
{
    uint64_t t0 = ms_now();
    MPI_Fint rc = MPI_SUCCESS;
    pmpi(&rc);
    if (rc == MPI_SUCCESS)
        after_init(MS_OP_INIT, t0);
    if (ierror)
        *ierror = rc;
}

void ms_f_init_thread(ms_f_init_thread_fn *pmpi, MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)
{
    uint64_t t0 = ms_now();
    MPI_Fint rc = MPI_SUCCESS;
    pmpi(required, provided, &rc);
    if (rc == MPI_SUCCESS)
        after_init(MS_OP_INIT_THREAD, t0);
    if (ierror)
        *ierror = rc;
}

/* The Fortran bindings that reach PMPI_Abort without MPI_Abort (Open MPI's,
 * MPICH's mpi_f08): the log is closed first, as from C. */
void ms_f_abort(ms_f_abort_fn *pmpi, MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierror)
{
    ms_runtime_stop(0);
    MPI_Fint rc = MPI_SUCCESS;
    pmpi(comm, errorcode, &rc);
    if (ierror)
        *ierror = rc;
}

void ms_f_finalize(ms_f_finalize_fn *pmpi, MPI_Fint *ierror)
{
    ms_thread *t = ms_enter();
    uint64_t t0 = ms_now();
    ms_sync_finalize();
    MPI_Fint rc = MPI_SUCCESS;
    pmpi(&rc);
    after_finalize(t, t0, ms_now());
    if (ierror)
        *ierror = rc;
}
