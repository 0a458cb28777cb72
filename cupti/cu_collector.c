/*
 * The CUPTI collector (collector.h, docs/GPU.md): GPU kernels, copies and
 * memsets from CUPTI's activity API, each (device, context, stream)
 * recorded as its own thread of the rank's log; the launching host thread
 * and time of each, from driver-API callbacks; NVTX ranges as regions
 * "nvtx:<message>".
 *
 *   cu_collector.c  the collector: loading, device check, subscription,
 *                   callbacks, injection (CUDA_INJECTION64_PATH),
 *                   single-process start
 *   cu_decode.c     activity buffers: queue, decoding thread, clock
 *   cu_launch.c     correlation ids -> launching thread and time
 *   cu_nvtx.c       NVTX ranges
 *   cu_lib.c        the dlopen table
 *
 * Its life cycle:
 *
 * CUPTI is set up once per process, by whichever comes first:
 *   - the CUDA driver calling InitializeInjection at cuInit: at load the
 *     library names itself in CUDA_INJECTION64_PATH (unless already set),
 *     so only processes that really use CUDA ever load libcupti;
 *   - recording starting (MPI_Init) under MPISCOPE_CUPTI=auto or 1, after a
 *     device check through libcuda.so.1 (cuInit, cuDeviceGetCount): no
 *     device is silent under auto and one warning under 1.
 * Setup subscribes to the driver- and runtime-API callbacks of launches,
 * copies and memsets (their enter site stamps each correlation id with the
 * launching thread and the tool time) and to NVTX, and enables the activity kinds
 * CONCURRENT_KERNEL (never KERNEL, which serializes kernels), MEMCPY,
 * MEMCPY2, MEMSET and OVERHEAD.
 *
 * A process that never calls MPI_Init starts recording as rank 0 of 1 at
 * its first launch or copy (or, when an MPI launcher started it and it
 * never called MPI_Init, at exit when it has GPU records): a process that
 * runs no GPU work writes nothing.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../preload/clock.h"
#include "../preload/collector.h"
#include "../preload/config.h"
#include "../preload/diag.h"
#include "../preload/run_ident.h"
#include "../preload/runtime.h"
#include "cu_decode.h"
#include "cu_launch.h"
#include "cu_lib.h"
#include "cu_nvtx.h"
#include "cu_settings.h"

/* This collector's warnings (ms_warn_cause, at load). */
static enum ms_cause cause = MS_WARN_COLLECTOR;

static const cu_lib *L;
static CUpti_SubscriberHandle sub;
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static int setup_ok;
static char setup_why[600];
static _Atomic int single_tried;
static int launcher_env;          /* started by an MPI launcher */
static uint8_t launch_cbid[CUPTI_DRIVER_TRACE_CBID_SIZE];
static uint8_t launch_rt_cbid[CUPTI_RUNTIME_TRACE_CBID_SIZE];

/* ---- single-process recording (DESIGN section 3) ---- */

static void start_single(void)
{
    if (atomic_exchange(&single_tried, 1) || atomic_load(&ms_active) || !ms_runtime_allowed())
        return;
    char dir[sizeof ms_cfg.dir];
    if (ms_cfg.dir[0])
        snprintf(dir, sizeof dir, "%s", ms_cfg.dir);
    else
        ms_default_dir(dir, sizeof dir);
    /* Rank 0 of 1, but under a launcher the configuration's warnings are
     * left to the launcher's rank 0. */
    ms_diag_config_quiet(ms_config_launcher_rank() > 0);
    ms_config_report(0);
    ms_start_info info = {
        .dir = dir, .rank = 0, .size = 1, .init_start_ns = 0, .init_end_ns = 0,
        .mpi_library = "", .run_id = ms_new_run_id(),
    };
    ms_runtime_start(&info);
}

/* ---- callbacks (the application's threads) ---- */

static void CUPTIAPI on_callback(void *ud, CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const void *data)
{
    (void)ud;
    if (dom == CUPTI_CB_DOMAIN_DRIVER_API || dom == CUPTI_CB_DOMAIN_RUNTIME_API) {
        const CUpti_CallbackData *cb = data;
        int known = dom == CUPTI_CB_DOMAIN_DRIVER_API
                        ? cbid < CUPTI_DRIVER_TRACE_CBID_SIZE && launch_cbid[cbid]
                        : cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE && launch_rt_cbid[cbid];
        if (cb->callbackSite != CUPTI_API_ENTER || !known)
            return;
        if (!atomic_load_explicit(&ms_active, memory_order_relaxed) && !launcher_env)
            start_single();
        cu_launch_note(cb->correlationId);
    } else if (dom == CUPTI_CB_DOMAIN_NVTX) {
        cu_nvtx_callback(cbid, data);
    }
}

/* ---- setup ---- */

static void at_exit(void)
{
    /* Before the CUDA runtime's own exit handlers (registered earlier, run
     * later) tear the contexts down. */
    if (!atomic_load(&ms_active) && cu_decode_pending() > 0)
        start_single();
    if (atomic_load(&ms_active))
        cu_decode_final();
}

static void setup(void)
{
    const char *why = NULL;
    L = cu_lib_get(&why);
    if (!L) {
        snprintf(setup_why, sizeof setup_why, "%s", why);
        return;
    }
    /* The activity records are read as the struct types of the headers
     * this library was built with: the same major version only. */
    uint32_t version = 0;
    if (L->cuptiGetVersion(&version) != CUPTI_SUCCESS || version / 10000 != CUPTI_API_VERSION / 10000) {
        ms_warn_once(cause, "libcupti has API version %u, mpiscope was built for %u (CUDA %u); "
                     "no GPU activity is recorded", version, (unsigned)CUPTI_API_VERSION,
                     (unsigned)CUPTI_API_VERSION / 10000);
        return;
    }
    CUptiResult r = L->cuptiSubscribe(&sub, on_callback, NULL);
    if (r != CUPTI_SUCCESS) {
        const char *s = NULL;
        L->cuptiGetResultString(r, &s);
        if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
            ms_warn_once(cause, "another CUPTI subscriber (a profiler) is active; no GPU activity is recorded");
        else
            snprintf(setup_why, sizeof setup_why, "cuptiSubscribe failed (%s)", s ? s : "unknown error");
        return;
    }
    /* The driver and runtime functions that launch work: the correlation
     * id of one of them is the id of the activity records of that work. */
    for (uint32_t id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; id++) {
        const char *name = NULL;
        if (L->cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, id, &name) != CUPTI_SUCCESS || !name)
            continue;
        if (strncmp(name, "cuLaunch", 8) == 0 || strncmp(name, "cuMemcpy", 8) == 0 ||
            strncmp(name, "cuMemset", 8) == 0 || strncmp(name, "cuGraphLaunch", 13) == 0) {
            if (L->cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, id) == CUPTI_SUCCESS)
                launch_cbid[id] = 1;
        }
    }
    for (uint32_t id = 1; id < CUPTI_RUNTIME_TRACE_CBID_SIZE; id++) {
        const char *name = NULL;
        if (L->cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, id, &name) != CUPTI_SUCCESS || !name)
            continue;
        if (strncmp(name, "cudaLaunch", 10) == 0 || strncmp(name, "cudaMemcpy", 10) == 0 ||
            strncmp(name, "cudaMemset", 10) == 0 || strncmp(name, "cudaGraphLaunch", 15) == 0) {
            if (L->cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API, id) == CUPTI_SUCCESS)
                launch_rt_cbid[id] = 1;
        }
    }
    L->cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_NVTX);
    if (cu_decode_init() != 0) {
        snprintf(setup_why, sizeof setup_why, "cannot register CUPTI activity buffers");
        L->cuptiUnsubscribe(sub);
        return;
    }
    static const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                               CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET,
                                               CUPTI_ACTIVITY_KIND_OVERHEAD};
    int enabled = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        enabled += L->cuptiActivityEnable(kinds[i]) == CUPTI_SUCCESS;
    if (!enabled) {
        snprintf(setup_why, sizeof setup_why, "CUPTI enables no activity kind");
        L->cuptiUnsubscribe(sub);
        return;
    }
    cu_clock_sample();
    atexit(at_exit);
    setup_ok = 1;
}

/* Called by the CUDA driver at cuInit when CUDA_INJECTION64_PATH names
 * this library. Returns 1 (success) in every case: the application runs on. */
__attribute__((visibility("default"))) int InitializeInjection(void);
int InitializeInjection(void)
{
    if (cu_mode != CU_MODE_OFF && ms_runtime_allowed())
        pthread_once(&setup_once, setup);
    return 1;
}

/* Whether a CUDA device is usable, without a CUDA runtime; *why when not. */
static int have_device(char *why, size_t cap)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, cap, "no CUDA driver (libcuda.so.1)");
        return 0;
    }
    int (*cu_init)(unsigned) = NULL;
    int (*cu_count)(int *) = NULL;
    *(void **)&cu_init = dlsym(h, "cuInit");
    *(void **)&cu_count = dlsym(h, "cuDeviceGetCount");
    int n = 0, rc;
    if (!cu_init || !cu_count)
        snprintf(why, cap, "libcuda.so.1 lacks cuInit or cuDeviceGetCount");
    else if ((rc = cu_init(0)) != 0)
        snprintf(why, cap, "no CUDA device (cuInit returned CUDA error %d)", rc);
    else if ((rc = cu_count(&n)) != 0)
        snprintf(why, cap, "cuDeviceGetCount failed (CUDA error %d)", rc);
    else if (n <= 0)
        snprintf(why, cap, "no CUDA device");
    else
        return 1;
    return 0;
}

static void cu_load(void)
{
    cause = ms_warn_cause("the CUPTI collector");
    if (cu_mode == CU_MODE_OFF || !ms_runtime_allowed())
        return;
    static const char *const launchers[] = {"PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE",
                                            "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof launchers / sizeof launchers[0]; i++)
        if (getenv(launchers[i]))
            launcher_env = 1;
    Dl_info di;
    if (!getenv("CUDA_INJECTION64_PATH") && dladdr((void *)InitializeInjection, &di) && di.dli_fname &&
        di.dli_fname[0] == '/')
        setenv("CUDA_INJECTION64_PATH", di.dli_fname, 0);
    /* NVTX hands its calls to the library this names: CUPTI, which passes
     * them to its subscriber. */
    const char *cupti = cu_lib_path_guess();
    if (cupti && !getenv("NVTX_INJECTION64_PATH"))
        setenv("NVTX_INJECTION64_PATH", cupti, 0);
}

static void cu_start(void)
{
    if (cu_mode == CU_MODE_OFF)
        return;
    if (!setup_ok) {
        char why[256];
        if (!have_device(why, sizeof why)) {
            if (cu_mode == CU_MODE_ON)
                ms_warn_once(cause, "MPISCOPE_CUPTI=1: %s; no GPU activity is recorded", why);
            return;
        }
        pthread_once(&setup_once, setup);
        if (!setup_ok) {
            if (setup_why[0] && cu_mode == CU_MODE_ON)
                ms_warn_once(cause, "MPISCOPE_CUPTI=1: %s; no GPU activity is recorded", setup_why);
            return;
        }
    }
    cu_decode_attach();
}

static void cu_stop(void)
{
    if (setup_ok)
        cu_decode_final();
}

static const ms_collector cupti_collector = {
    .name = "cupti",
    .order = 20,
    .load = cu_load,
    .start = cu_start,
    .stop = cu_stop,
};
MS_COLLECTOR_REGISTER(cupti_collector);
