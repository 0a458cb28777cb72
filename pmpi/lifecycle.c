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
 * profiler's own calls here go to PMPI always. MPI_Session_init and
 * MPI_Session_finalize (MPI 4.0) begin and end the run of a program that
 * uses sessions without MPI_Init ("sessions" below).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "callsite.h"
#include "../preload/clock.h"
#include "../preload/clock_skew.h"
#include "clock_sync.h"
#include "comm_ids.h"
#include "../preload/config.h"
#include "../preload/diag.h"
#include "../preload/ending.h"
#include "files.h"
#include "fortran.h"
#include "mpi_match.h"
#include "mpi_scope.h"
#include "objects.h"
#include "pmpi_collector.h"
#include "../preload/run_ident.h"
#include "../preload/runtime.h"
#include "spawn.h"
#include "stacking.h"
#include "../preload/user_regions.h"
#include "writer_cpu.h"

/* What rank 0 sends every rank at init. */
typedef struct agreed {
    char dir[sizeof ms_cfg.dir];
    char run[17];             /* 16 hex digits */
    char sync;                /* 1: measure the clocks (rank 0 records) */
    char place;               /* 1: place the writer threads (writer_cpu.h) */
    uint64_t env_print;       /* rank 0's ms_config_fingerprint() */
} agreed;

static int init_in_session_run(uint16_t op, uint64_t t0);

/* The run begins with the call op that began at t0 (MPI_Init,
 * MPI_Init_thread, or the first MPI_Session_init): the ranks of world
 * (MPI_COMM_WORLD, or the tool's communicator over mpi://WORLD, whose group
 * is world_group; MPI_GROUP_NULL with MPI_COMM_WORLD) agree on the log
 * directory and the run, measure their clocks, and recording starts. */
static void begin_run(MPI_Comm world, MPI_Group world_group, uint16_t op, uint64_t t0)
{
    int rank = 0, size = 1;
    PMPI_Comm_rank(world, &rank);
    PMPI_Comm_size(world, &size);
    agreed a;
    memset(&a, 0, sizeof a);
    if (rank == 0) {
        if (ms_cfg.dir[0])
            memcpy(a.dir, ms_cfg.dir, sizeof a.dir);
        else
            ms_default_dir(a.dir, sizeof a.dir);
        ms_spawn_world_dir(world, a.dir, sizeof a.dir);
        snprintf(a.run, sizeof a.run, "%016llx", (unsigned long long)ms_new_run_id());
        a.sync = !ms_cfg.disable && size > 1;
        a.place = !ms_cfg.disable && ms_cfg.writer_cpu == MS_WRITER_CPU_AUTO;
        a.env_print = ms_config_fingerprint();
    }
    /* Every rank takes part, even with MPISCOPE_DISABLE=1, so that a value
     * that differs between ranks cannot leave a rank waiting here. */
    ms_pmpi_Bcast(&a, (int)sizeof a, MPI_CHAR, 0, world);
    a.dir[sizeof a.dir - 1] = 0;
    a.run[sizeof a.run - 1] = 0;
    const char *dir = a.dir;
    if (!ms_cfg.disable)
        ms_spawn_set_dir(world, dir, a.run);
    /* The configuration's warnings, once per run: rank 0 of the first
     * world speaks for every rank that sees the same MPISCOPE_ variables;
     * a rank that sees others speaks for itself. A spawned world's rank 0
     * leaves them to its parents' (the variables come from the same
     * launcher). */
    ms_diag_config_quiet(a.env_print == ms_config_fingerprint() && (rank != 0 || ms_spawned_world(world)));
    /* Every rank measures when rank 0 records, also with
     * MPISCOPE_DISABLE=1: the duplication is collective, and rank 0 waits
     * for every rank's pings. The skew (tests only) is set first, since
     * the measurement uses it. */
    ms_sync_sample sync;
    int has_sync = 0;
    if (a.sync) {
        ms_skew_setup(rank);
        has_sync = ms_sync_init(world, rank, size, &sync);
    }
    if (a.place)
        ms_writer_cpu_choose(world);
    /* No directory (a spawned world without a free spawn-K): rank 0 said
     * why; nothing is recorded. */
    if (ms_cfg.disable || !dir[0])
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
    ms_objects_init();
    ms_files_init();
    ms_comm_ids_init(world_group);
    ms_start_info info = {
        .dir = dir,
        .rank = rank,
        .size = size,
        .init_start_ns = t0,
        .init_end_ns = ms_now(),
        .mpi_library = lib,
        .run_id = strtoull(a.run, NULL, 16),
        .spawned_by = rank == 0 ? ms_spawn_link() : "",
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
        ms_spawn_started(t, world);
        ms_call c = ms_call_init(op);
        ms_call_record(t, &c, t0, info.init_end_ns);
        ms_leave(t);
    }
}

/* After a successful MPI_Init or MPI_Init_thread (op) that began at t0. */
static void after_init(uint16_t op, uint64_t t0)
{
    /* Once per process, even if a Fortran binding's init called the C one. */
    static atomic_flag done = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&done))
        return;
    if (ms_mpi_foreign())
        return;  /* the other MPI: nothing recorded, every call passed on */
    if (init_in_session_run(op, t0))
        return;  /* sessions began the run: this is one of its calls */
    if (!ms_runtime_allowed() && !ms_cfg.disable)
        return;  /* setuid, or a forked child: stay out entirely */
    begin_run(MPI_COMM_WORLD, MPI_GROUP_NULL, op, t0);
}

/* Set on this thread while one of the functions here passes its call on
 * (to the next tool's MPI_X, the MPI library's PMPI_X or a Fortran
 * binding's routine): a PMPI_X (or C MPI_X) of the same function that the
 * call reaches again (the tool after mpiscope passes it on to PMPI_X;
 * Open MPI's Fortran bindings and MPICH's pmpi_finalize_ call the C
 * function) passes it straight on, counted once. */
static _Thread_local int passing;

/* MPI_Init through fn: the next tool's MPI_Init or the MPI library's. */
static int init_via(int (*fn)(int *, char ***), int *argc, char ***argv)
{
    uint64_t t0 = ms_now();
    passing++;
    int rc = fn(argc, argv);
    passing--;
    if (rc == MPI_SUCCESS)
        after_init(MS_OP_INIT, t0);
    return rc;
}

static int init_thread_via(int (*fn)(int *, char ***, int, int *), int *argc, char ***argv, int required,
                           int *provided)
{
    uint64_t t0 = ms_now();
    passing++;
    int rc = fn(argc, argv, required, provided);
    passing--;
    if (rc == MPI_SUCCESS)
        after_init(MS_OP_INIT_THREAD, t0);
    return rc;
}

/* The pointers are read after ms_mpi_make_global, which looks them up
 * again once the MPI library is reachable. */
MS_EXPORT int MPI_Init(int *argc, char ***argv)
{
    ms_mpi_make_global();
    if (passing)
        return ms_next_MPI_Init(argc, argv);
    return init_via(ms_next_MPI_Init, argc, argv);
}

MS_EXPORT int PMPI_Init(int *argc, char ***argv)
{
    ms_mpi_make_global();
    if (passing)
        return ms_pmpi_Init(argc, argv);
    return init_via(ms_pmpi_Init, argc, argv);
}

MS_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    ms_mpi_make_global();
    if (passing)
        return ms_next_MPI_Init_thread(argc, argv, required, provided);
    return init_thread_via(ms_next_MPI_Init_thread, argc, argv, required, provided);
}

MS_EXPORT int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    ms_mpi_make_global();
    if (passing)
        return ms_pmpi_Init_thread(argc, argv, required, provided);
    return init_thread_via(ms_pmpi_Init_thread, argc, argv, required, provided);
}

static int world_finalized(void);
static void end_run(uint64_t t0);

/* Records a finalizing call OP (t from ms_enter before it; none: not
 * recorded); where it is the LAST, user regions still open close at t0 and
 * the run ends. */
static void record_last(ms_thread *t, uint16_t op, int last, uint64_t t0, uint64_t t1)
{
    if (t) {
        if (last)
            ms_user_close_all(t, t0);
        ms_call c = ms_call_init(op);
        ms_call_record(t, &c, t0, t1);
        ms_leave(t);
    }
    if (last)
        end_run(t0);
}

/* After MPI_Finalize, from t0 to t1; t from ms_enter before it. The run
 * ends here unless a session is still open. */
static void after_finalize(ms_thread *t, uint64_t t0, uint64_t t1)
{
    record_last(t, MS_OP_FINALIZE, world_finalized(), t0, t1);
}

/* MPI_Finalize through fn. A binding that calls the C function inside a
 * Fortran entry point's (MPICH's pmpi_finalize_) must not end the run
 * before the entry point records the call: passing. */
static int finalize_via(int (*fn)(void))
{
    ms_thread *t = ms_enter();
    uint64_t t0 = ms_now();
    ms_sync_finalize();
    passing++;
    int rc = fn();
    passing--;
    if (rc == MPI_SUCCESS)
        ms_spawn_release();
    after_finalize(t, t0, ms_now());
    return rc;
}

MS_EXPORT int MPI_Finalize(void)
{
    if (passing)
        return ms_next_MPI_Finalize();
    return finalize_via(ms_next_MPI_Finalize);
}

MS_EXPORT int PMPI_Finalize(void)
{
    if (passing)
        return ms_pmpi_Finalize();
    return finalize_via(ms_pmpi_Finalize);
}

/* MPI_Abort's ending block (ending.h): its code and the application's
 * address it returns to (ra; through a binding layer, where the call site
 * walk finds it), written as the log closes. 1 when recording (the rank
 * then lingers before PMPI_Abort, ms_ending_linger), else 0. */
static int abort_ending(int code, void *ra)
{
    if (!atomic_load(&ms_active))
        return 0;
    uint64_t pc = ms_cfg.callsite_depth == 1 ? ms_site(ra) : (uint64_t)(uintptr_t)ra;
    ms_ending_set_abort(code, MS_OP_ABORT, pc);
    return 1;
}

/* The job is about to die: close this rank's log first (not recorded as a
 * call; the other ranks' logs end with the signal the launcher sends them). */
MS_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
    if (ms_mpi_is_foreign)
        return ms_next_MPI_Abort(comm, errorcode);
    int linger = abort_ending(errorcode, __builtin_return_address(0));
    ms_runtime_stop(0);
    if (linger)
        ms_ending_linger();
    passing++;
    return ms_next_MPI_Abort(comm, errorcode);
}

MS_EXPORT int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    if (ms_mpi_is_foreign)
        return ms_pmpi_Abort(comm, errorcode);
    if (!passing) {
        int linger = abort_ending(errorcode, __builtin_return_address(0));
        ms_runtime_stop(0);
        if (linger)
            ms_ending_linger();
    }
    return ms_pmpi_Abort(comm, errorcode);
}

/* From Fortran: the binding's own PMPI entry point does the work; ierror may
 * be NULL (optional in mpi_f08). */
void ms_f_init(ms_f_init_fn *pmpi, MPI_Fint *ierror)
{
    ms_mpi_make_global();
    uint64_t t0 = ms_now();
    MPI_Fint rc = MPI_SUCCESS;
    passing++;
    pmpi(&rc);
    passing--;
    if (rc == MPI_SUCCESS)
        after_init(MS_OP_INIT, t0);
    if (ierror)
        *ierror = rc;
}

void ms_f_init_thread(ms_f_init_thread_fn *pmpi, MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)
{
    ms_mpi_make_global();
    uint64_t t0 = ms_now();
    MPI_Fint rc = MPI_SUCCESS;
    passing++;
    pmpi(required, provided, &rc);
    passing--;
    if (rc == MPI_SUCCESS)
        after_init(MS_OP_INIT_THREAD, t0);
    if (ierror)
        *ierror = rc;
}

/* The Fortran bindings that reach PMPI_Abort without MPI_Abort (Open MPI's,
 * MPICH's mpi_f08): the log is closed first, as from C. */
void ms_f_abort(ms_f_abort_fn *pmpi, MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierror)
{
    int linger = abort_ending(errorcode ? (int)*errorcode : 0, __builtin_return_address(0));
    ms_runtime_stop(0);
    if (linger)
        ms_ending_linger();
    MPI_Fint rc = MPI_SUCCESS;
    passing++;
    pmpi(comm, errorcode, &rc);
    passing--;
    if (ierror)
        *ierror = rc;
}

void ms_f_finalize(ms_f_finalize_fn *pmpi, MPI_Fint *ierror)
{
    ms_thread *t = ms_enter();
    uint64_t t0 = ms_now();
    ms_sync_finalize();
    MPI_Fint rc = MPI_SUCCESS;
    passing++;
    pmpi(&rc);
    passing--;
    after_finalize(t, t0, ms_now());
    if (ierror)
        *ierror = rc;
}

/* ---- sessions (MPI 4.0) and the run's lifetime ----
 *
 * The run, what one log covers, begins at MPI_Init (or MPI_Init_thread),
 * or at the first MPI_Session_init of a program that has not called
 * MPI_Init, and ends at the last of MPI_Finalize and the
 * MPI_Session_finalize that closes the last open session. Other session
 * calls are calls of the run. A program that never calls MPI_Init must not
 * use MPI_COMM_WORLD, so where sessions begin the run the tool opens a
 * session of its own (with the application's info: the same thread
 * level), whose process set mpi://WORLD gives the world ranks and size, and
 * makes its own communicator from that group (MPI_Comm_create_from_group,
 * string tag MS_TOOL_TAG) for the broadcast and the clock measurements.
 * That session is finalized just before the application's last
 * MPI_Session_finalize, so that this call ends MPI as without the tool
 * (after MPI_Finalize where that comes last). As with MPI_Init, every
 * process of mpi://WORLD must begin the same way (all with MPI_Init, or all
 * with MPI_Session_init): one that does not leaves the others waiting in
 * this collective setup. */

#define MS_TOOL_TAG "org.mpiscope.tool"

enum { WORLD_NEVER, WORLD_OPEN, WORLD_DONE };
static atomic_int world_state = WORLD_NEVER;  /* MPI_Init, then MPI_Finalize */
static atomic_int sessions_open;              /* the application's sessions */
static atomic_int run_in_session;             /* MPI_Session_init began the run */

static void record_lifecycle_call(uint16_t op, uint64_t t0, uint64_t t1)
{
    ms_thread *t = ms_enter();
    if (t) {
        ms_call c = ms_call_init(op);
        ms_call_record(t, &c, t0, t1);
        ms_leave(t);
    }
}

/* MPI_Init (op, from t0) returned: 1 when sessions began the run, and then
 * MPI_COMM_WORLD and MPI_COMM_SELF get their ids and the call is recorded. */
static int init_in_session_run(uint16_t op, uint64_t t0)
{
    atomic_store(&world_state, WORLD_OPEN);
    if (!atomic_load(&run_in_session))
        return 0;
    uint64_t t1 = ms_now();
    if (ms_runtime_allowed())
        ms_comm_ids_init(MPI_GROUP_NULL);
    record_lifecycle_call(op, t0, t1);
    return 1;
}

/* MPI_Finalize is called: 1 when no session is open, so the run ends. */
static int world_finalized(void)
{
    atomic_store(&world_state, WORLD_DONE);
    return atomic_load(&sessions_open) == 0;
}

#if MPI_VERSION >= 4
static MPI_Session tool_session = MPI_SESSION_NULL;

/* The tool's communicators of its session are left to its finalization,
 * as those of MPI_COMM_WORLD are to PMPI_Finalize. */
static void release_tool_session(void)
{
    if (tool_session != MPI_SESSION_NULL)
        ms_pmpi_Session_finalize(&tool_session);
    tool_session = MPI_SESSION_NULL;
}

/* The first MPI_Session_init (from t0, with the application's info) of a
 * program that has not called MPI_Init: the run begins over mpi://WORLD. */
static void begin_session_run(MPI_Info info, uint64_t t0)
{
    if (!ms_runtime_allowed() && !ms_cfg.disable)
        return;  /* setuid, or a forked child: stay out entirely */
    MPI_Group world = MPI_GROUP_NULL;
    MPI_Comm comm = MPI_COMM_NULL;
    const char *failed = NULL;
    if (ms_pmpi_Session_init(info, MPI_ERRORS_RETURN, &tool_session) != MPI_SUCCESS) {
        tool_session = MPI_SESSION_NULL;
        failed = "MPI_Session_init";
    } else if (ms_pmpi_Group_from_session_pset(tool_session, "mpi://WORLD", &world) != MPI_SUCCESS) {
        world = MPI_GROUP_NULL;
        failed = "MPI_Group_from_session_pset(\"mpi://WORLD\")";
    } else if (ms_pmpi_Comm_create_from_group(world, MS_TOOL_TAG, MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm) !=
               MPI_SUCCESS) {
        comm = MPI_COMM_NULL;
        failed = "MPI_Comm_create_from_group";
    }
    if (failed) {
        if (!ms_cfg.disable)
            ms_warn_once(MS_WARN_SESSION, "%s failed for mpiscope's own session; nothing is recorded", failed);
        if (world != MPI_GROUP_NULL)
            PMPI_Group_free(&world);
        release_tool_session();
        return;
    }
    atomic_store(&run_in_session, 1);
    begin_run(comm, world, MS_OP_SESSION_INIT, t0);
}

/* After a successful MPI_Session_init that began at t0. */
static void after_session_init(MPI_Info info, uint64_t t0)
{
    if (ms_mpi_foreign())
        return;
    uint64_t t1 = ms_now();
    atomic_fetch_add(&sessions_open, 1);
    static atomic_flag first = ATOMIC_FLAG_INIT;
    if (!atomic_flag_test_and_set(&first) && atomic_load(&world_state) == WORLD_NEVER)
        begin_session_run(info, t0);
    else
        record_lifecycle_call(MS_OP_SESSION_INIT, t0, t1);
}

/* Before MPI_Session_finalize: 1 when it closes the last open session and
 * MPI_Finalize was called or never will be (MPI_Init was not): the run
 * ends with it. The clocks are measured and the tool's session finalized
 * first. */
static int before_session_finalize(void)
{
    int last = atomic_load(&sessions_open) == 1 && atomic_load(&world_state) != WORLD_OPEN;
    if (last) {
        ms_sync_finalize();
        release_tool_session();
    }
    return last;
}

/* After MPI_Session_finalize (rc), from t0 to t1; t from ms_enter before it. */
static void after_session_finalize(ms_thread *t, int rc, int last, uint64_t t0, uint64_t t1)
{
    if (rc == MPI_SUCCESS)
        atomic_fetch_sub(&sessions_open, 1);
    record_last(t, MS_OP_SESSION_FINALIZE, last, t0, t1);
}

static int session_init_via(int (*fn)(MPI_Info, MPI_Errhandler, MPI_Session *), MPI_Info info,
                            MPI_Errhandler errhandler, MPI_Session *session)
{
    uint64_t t0 = ms_now();
    passing++;
    int rc = fn(info, errhandler, session);
    passing--;
    if (rc == MPI_SUCCESS)
        after_session_init(info, t0);
    return rc;
}

static int session_finalize_via(int (*fn)(MPI_Session *), MPI_Session *session)
{
    ms_thread *t = ms_enter();
    uint64_t t0 = ms_now();
    int last = before_session_finalize();
    passing++;
    int rc = fn(session);
    passing--;
    after_session_finalize(t, rc, last, t0, ms_now());
    return rc;
}

MS_EXPORT int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    ms_mpi_make_global();
    if (passing)
        return ms_next_MPI_Session_init(info, errhandler, session);
    return session_init_via(ms_next_MPI_Session_init, info, errhandler, session);
}

MS_EXPORT int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    ms_mpi_make_global();
    if (passing)
        return ms_pmpi_Session_init(info, errhandler, session);
    return session_init_via(ms_pmpi_Session_init, info, errhandler, session);
}

MS_EXPORT int MPI_Session_finalize(MPI_Session *session)
{
    if (passing)
        return ms_next_MPI_Session_finalize(session);
    return session_finalize_via(ms_next_MPI_Session_finalize, session);
}

MS_EXPORT int PMPI_Session_finalize(MPI_Session *session)
{
    if (passing)
        return ms_pmpi_Session_finalize(session);
    return session_finalize_via(ms_pmpi_Session_finalize, session);
}

void ms_f_session_init(ms_f_session_init_fn *pmpi, MPI_Fint *info, MPI_Fint *errhandler, MPI_Fint *session,
                       MPI_Fint *ierror)
{
    ms_mpi_make_global();
    uint64_t t0 = ms_now();
    MPI_Fint rc = MPI_SUCCESS;
    passing++;
    pmpi(info, errhandler, session, &rc);
    passing--;
    if (rc == MPI_SUCCESS)
        after_session_init(PMPI_Info_f2c(*info), t0);
    if (ierror)
        *ierror = rc;
}

void ms_f_session_finalize(ms_f_session_finalize_fn *pmpi, MPI_Fint *session, MPI_Fint *ierror)
{
    ms_thread *t = ms_enter();
    uint64_t t0 = ms_now();
    int last = before_session_finalize();
    MPI_Fint rc = MPI_SUCCESS;
    passing++;
    pmpi(session, &rc);
    passing--;
    after_session_finalize(t, rc, last, t0, ms_now());
    if (ierror)
        *ierror = rc;
}
#else
static void release_tool_session(void)
{
}
#endif

/* The run ends at the MPI_Finalize or MPI_Session_finalize that began at t0. */
static void end_run(uint64_t t0)
{
    ms_runtime_stop(t0);
    release_tool_session();
}
