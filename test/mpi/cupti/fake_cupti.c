/*
 * A fake libcupti.so for the CUPTI tests, built from the real CUPTI headers:
 * it exports the cupti* functions mpiscope's dlopen table uses and the
 * "driver" of fake_hooks.h. The hooks fire the subscriber's runtime-API
 * callbacks and, nested in them, driver-API callbacks (enter and exit, one
 * correlation id) and append activity
 * records of the real types (CUpti_ActivityKernel10, CUpti_ActivityMemcpy6,
 * CUpti_ActivityMemcpyPtoP4, CUpti_ActivityMemset4, CUpti_ActivityOverhead3)
 * to buffers obtained from the registered buffer-requested callback.
 * Timestamps are CLOCK_MONOTONIC + 7 s, as a GPU clock of another origin.
 *
 * Environment:
 *   FAKE_CUPTI_RECORDS   records per buffer (default 64): a buffer is
 *                        complete when it holds that many
 *   FAKE_CUPTI_REVERSE   1: complete buffers are handed back newest first
 *                        (out-of-order completion)
 *   FAKE_CUPTI_SUBSCRIBED 1: another subscriber exists (cuptiSubscribe fails)
 *   FAKE_CUPTI_VERSION   the API version cuptiGetVersion reports (default
 *                        the headers' CUPTI_API_VERSION)
 *   FAKE_CUDA_LOADLOG    loading appends "libcupti" to this file
 * Enabling CUPTI_ACTIVITY_KIND_KERNEL prints a complaint on stderr.
 */
#include <cupti.h>
#include <nvtx3/nvToolsExt.h>
#include <generated_nvtx_meta.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake_hooks.h"

#define GPU_OFFSET 7000000000ull
#define BUF_RECORDS_MAX 4096

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static CUpti_CallbackFunc callback;
static void *callback_data;
static int subscribed;
static uint8_t enabled_cb[CUPTI_DRIVER_TRACE_CBID_SIZE];
static uint8_t enabled_rt[CUPTI_RUNTIME_TRACE_CBID_SIZE];
static int nvtx_enabled;
static int kind_on[64];
static CUpti_BuffersCallbackRequestFunc requested;
static CUpti_BuffersCallbackCompleteFunc completed;
static uint32_t next_corr = 100;
static uint64_t stream_busy[64];
static uint64_t dropped;

typedef struct fbuf {
    uint8_t *buf;
    size_t size, valid;
    unsigned records;
} fbuf;
static fbuf cur;
static fbuf done[1024];
static unsigned ndone;

__attribute__((constructor)) static void loaded(void)
{
    const char *log = getenv("FAKE_CUDA_LOADLOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        fputs("libcupti\n", f);
        fclose(f);
    }
}

/* Kernel names live as long as the process, as CUPTI's do. The caller
 * holds the lock. */
static const char *intern(const char *name)
{
    static char *names[256];
    static unsigned n;
    for (unsigned i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return names[i];
    if (n == sizeof names / sizeof names[0])
        return "(too many kernel names)";
    return names[n++] = strdup(name);
}

static uint64_t now_gpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + GPU_OFFSET;
}

static unsigned per_buffer(void)
{
    const char *s = getenv("FAKE_CUPTI_RECORDS");
    int n = s ? atoi(s) : 64;
    return n > 0 && n < BUF_RECORDS_MAX ? (unsigned)n : 64;
}

static size_t record_size(CUpti_ActivityKind k)
{
    switch (k) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY: return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMCPY2: return sizeof(CUpti_ActivityMemcpyPtoP4);
    case CUPTI_ACTIVITY_KIND_MEMSET: return sizeof(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_OVERHEAD: return sizeof(CUpti_ActivityOverhead3);
    default: return 0;
    }
}

static size_t align8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* The caller holds the lock. */
static void complete_current(void)
{
    if (!cur.buf)
        return;
    if (ndone < sizeof done / sizeof done[0])
        done[ndone++] = cur;
    memset(&cur, 0, sizeof cur);
}

/* Room for one record of n bytes in the current buffer; the caller holds
 * the lock. NULL when no buffer can be had. */
static void *slot(size_t n)
{
    if (cur.buf && (cur.records >= per_buffer() || cur.valid + align8(n) > cur.size))
        complete_current();
    if (!cur.buf) {
        size_t max = 0;
        if (!requested)
            return NULL;
        requested(&cur.buf, &cur.size, &max);
        cur.valid = 0;
        cur.records = 0;
        if (!cur.buf)
            return NULL;
    }
    void *p = cur.buf + cur.valid;
    memset(p, 0, align8(n));
    cur.valid += align8(n);
    cur.records++;
    return p;
}

/* Hand completed buffers to the collector, outside the lock. */
static void deliver(int all)
{
    fbuf list[1024];
    pthread_mutex_lock(&lock);
    if (all)
        complete_current();
    unsigned n = ndone;
    memcpy(list, done, n * sizeof list[0]);
    ndone = 0;
    CUpti_BuffersCallbackCompleteFunc cb = completed;
    pthread_mutex_unlock(&lock);
    const char *rev = getenv("FAKE_CUPTI_REVERSE");
    int reverse = rev && rev[0] == '1';
    for (unsigned i = 0; i < n; i++) {
        fbuf *b = &list[reverse ? n - 1 - i : i];
        if (cb)
            cb(NULL, 0, b->buf, b->size, b->valid);
        else
            free(b->buf);
    }
}

/* A runtime call (rt, rt_fn) and the driver call inside it (cbid, fn), as
 * CUPTI reports them: one correlation id, enter and exit callbacks. */
static uint32_t fire(CUpti_CallbackId cbid, const char *fn, CUpti_CallbackId rt, const char *rt_fn)
{
    pthread_mutex_lock(&lock);
    uint32_t corr = next_corr++;
    CUpti_CallbackFunc fd = subscribed && enabled_cb[cbid] ? callback : NULL;
    CUpti_CallbackFunc fr = subscribed && enabled_rt[rt] ? callback : NULL;
    void *ud = callback_data;
    pthread_mutex_unlock(&lock);
    CUpti_CallbackData r, d;
    memset(&r, 0, sizeof r);
    r.functionName = rt_fn;
    r.correlationId = corr;
    r.callbackSite = CUPTI_API_ENTER;
    d = r;
    d.functionName = fn;
    if (fr)
        fr(ud, CUPTI_CB_DOMAIN_RUNTIME_API, rt, &r);
    if (fd) {
        fd(ud, CUPTI_CB_DOMAIN_DRIVER_API, cbid, &d);
        d.callbackSite = CUPTI_API_EXIT;
        fd(ud, CUPTI_CB_DOMAIN_DRIVER_API, cbid, &d);
    }
    if (fr) {
        r.callbackSite = CUPTI_API_EXIT;
        fr(ud, CUPTI_CB_DOMAIN_RUNTIME_API, rt, &r);
    }
    return corr;
}

/* Start and end of dur_ns on `stream`, after what is queued there. */
static void schedule(uint32_t stream, uint64_t dur, uint64_t *start, uint64_t *end)
{
    uint64_t s = now_gpu() + 2000;
    uint32_t i = stream % 64;
    if (stream_busy[i] > s)
        s = stream_busy[i];
    *start = s;
    *end = s + dur;
    stream_busy[i] = *end;
}

void fake_kernel(const char *mangled, uint32_t stream, uint64_t dur_ns)
{
    cuInit(0);
    uint32_t corr = fire(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel",
                         CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, "cudaLaunchKernel");
    pthread_mutex_lock(&lock);
    CUpti_ActivityKernel10 *k = kind_on[CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL] ? slot(sizeof *k) : NULL;
    if (k) {
        k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        schedule(stream, dur_ns, &k->start, &k->end);
        k->deviceId = 0;
        k->contextId = 1;
        k->streamId = stream;
        k->correlationId = corr;
        k->name = intern(mangled);
        k->gridX = k->gridY = k->gridZ = 1;
    }
    pthread_mutex_unlock(&lock);
    deliver(0);
}

void fake_memcpy(int kind, uint64_t bytes, uint32_t stream, uint64_t dur_ns)
{
    cuInit(0);
    uint32_t corr = fire(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync, "cuMemcpyAsync",
                         CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, "cudaMemcpyAsync");
    pthread_mutex_lock(&lock);
    if (kind == CUPTI_ACTIVITY_MEMCPY_KIND_PTOP) {
        CUpti_ActivityMemcpyPtoP4 *m = kind_on[CUPTI_ACTIVITY_KIND_MEMCPY2] ? slot(sizeof *m) : NULL;
        if (m) {
            m->kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
            m->copyKind = (uint8_t)kind;
            m->bytes = bytes;
            schedule(stream, dur_ns, &m->start, &m->end);
            m->deviceId = 0;
            m->contextId = 1;
            m->streamId = stream;
            m->srcDeviceId = 0;
            m->dstDeviceId = 1;
            m->correlationId = corr;
        }
    } else {
        CUpti_ActivityMemcpy6 *m = kind_on[CUPTI_ACTIVITY_KIND_MEMCPY] ? slot(sizeof *m) : NULL;
        if (m) {
            m->kind = CUPTI_ACTIVITY_KIND_MEMCPY;
            m->copyKind = (uint8_t)kind;
            m->bytes = bytes;
            schedule(stream, dur_ns, &m->start, &m->end);
            m->deviceId = 0;
            m->contextId = 1;
            m->streamId = stream;
            m->correlationId = corr;
        }
    }
    pthread_mutex_unlock(&lock);
    deliver(0);
}

void fake_memset(uint64_t bytes, uint32_t stream, uint64_t dur_ns)
{
    cuInit(0);
    uint32_t corr = fire(CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async, "cuMemsetD8Async",
                         CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, "cudaMemsetAsync");
    pthread_mutex_lock(&lock);
    CUpti_ActivityMemset4 *m = kind_on[CUPTI_ACTIVITY_KIND_MEMSET] ? slot(sizeof *m) : NULL;
    if (m) {
        m->kind = CUPTI_ACTIVITY_KIND_MEMSET;
        m->bytes = bytes;
        schedule(stream, dur_ns, &m->start, &m->end);
        m->deviceId = 0;
        m->contextId = 1;
        m->streamId = stream;
        m->correlationId = corr;
    }
    pthread_mutex_unlock(&lock);
    deliver(0);
}

void fake_overhead(uint64_t dur_ns)
{
    pthread_mutex_lock(&lock);
    CUpti_ActivityOverhead3 *o = kind_on[CUPTI_ACTIVITY_KIND_OVERHEAD] ? slot(sizeof *o) : NULL;
    if (o) {
        o->kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
        o->overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
        o->objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
        o->start = now_gpu();
        o->end = o->start + dur_ns;
    }
    pthread_mutex_unlock(&lock);
    deliver(0);
}

void fake_drop(uint64_t n)
{
    pthread_mutex_lock(&lock);
    dropped += n;
    pthread_mutex_unlock(&lock);
}

void fake_sync(void)
{
    pthread_mutex_lock(&lock);
    uint64_t until = 0;
    for (int i = 0; i < 64; i++)
        if (stream_busy[i] > until)
            until = stream_busy[i];
    pthread_mutex_unlock(&lock);
    while (now_gpu() < until) {
        struct timespec ts = {0, 20000};
        nanosleep(&ts, NULL);
    }
}

static void nvtx(CUpti_CallbackId cbid, const char *fn, const void *params)
{
    pthread_mutex_lock(&lock);
    CUpti_CallbackFunc f = subscribed && nvtx_enabled ? callback : NULL;
    void *ud = callback_data;
    pthread_mutex_unlock(&lock);
    if (f) {
        CUpti_NvtxData d = {.functionName = fn, .functionParams = params, .functionReturnValue = NULL};
        f(ud, CUPTI_CB_DOMAIN_NVTX, cbid, &d);
    }
}

void fake_nvtx_push(const char *message)
{
    nvtxRangePushA_params p = {.message = message};
    nvtx(CUPTI_CBID_NVTX_nvtxRangePushA, "nvtxRangePushA", &p);
}

void fake_nvtx_pop(void)
{
    nvtxRangePop_params p = {.dummy = NULL};
    nvtx(CUPTI_CBID_NVTX_nvtxRangePop, "nvtxRangePop", &p);
}

/* ---- the CUPTI functions ---- */

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle *sub, CUpti_CallbackFunc cb, void *ud)
{
    const char *other = getenv("FAKE_CUPTI_SUBSCRIBED");
    if ((other && other[0] == '1') || subscribed)
        return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    pthread_mutex_lock(&lock);
    callback = cb;
    callback_data = ud;
    subscribed = 1;
    pthread_mutex_unlock(&lock);
    *sub = (CUpti_SubscriberHandle)&subscribed;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle sub)
{
    (void)sub;
    pthread_mutex_lock(&lock);
    subscribed = 0;
    pthread_mutex_unlock(&lock);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle sub, CUpti_CallbackDomain domain,
                                         CUpti_CallbackId cbid)
{
    (void)sub;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < CUPTI_DRIVER_TRACE_CBID_SIZE)
        enabled_cb[cbid] = (uint8_t)(enable != 0);
    else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE)
        enabled_rt[cbid] = (uint8_t)(enable != 0);
    else
        return CUPTI_ERROR_INVALID_PARAMETER;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle sub, CUpti_CallbackDomain domain)
{
    (void)sub;
    if (domain == CUPTI_CB_DOMAIN_NVTX) {
        nvtx_enabled = enable != 0;
        return CUPTI_SUCCESS;
    }
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
        for (int i = 0; i < CUPTI_DRIVER_TRACE_CBID_SIZE; i++)
            enabled_cb[i] = (uint8_t)(enable != 0);
        return CUPTI_SUCCESS;
    }
    return CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid, const char **name)
{
    static const struct {
        uint32_t id;
        const char *name;
    } known_rt[] = {
        {CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020, "cudaGetDeviceCount_v3020"},
        {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, "cudaLaunchKernel_v7000"},
        {CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, "cudaMemcpyAsync_v3020"},
        {CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, "cudaMemsetAsync_v3020"},
    }, known[] = {
        {CUPTI_DRIVER_TRACE_CBID_cuInit, "cuInit"},
        {CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, "cuCtxSynchronize"},
        {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel"},
        {CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync, "cuMemcpyAsync"},
        {CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2, "cuMemcpyHtoD_v2"},
        {CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async, "cuMemsetD8Async"},
    };
    if (!name)
        return CUPTI_ERROR_INVALID_PARAMETER;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        for (size_t i = 0; i < sizeof known_rt / sizeof known_rt[0]; i++)
            if (known_rt[i].id == cbid) {
                *name = known_rt[i].name;
                return CUPTI_SUCCESS;
            }
        return CUPTI_ERROR_INVALID_PARAMETER;
    }
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API)
        return CUPTI_ERROR_INVALID_PARAMETER;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].id == cbid) {
            *name = known[i].name;
            return CUPTI_SUCCESS;
        }
    return CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind)
{
    if (kind == CUPTI_ACTIVITY_KIND_KERNEL)
        fprintf(stderr, "fake libcupti: CUPTI_ACTIVITY_KIND_KERNEL enabled: kernels are serialized\n");
    if ((unsigned)kind >= 64 || (kind != CUPTI_ACTIVITY_KIND_KERNEL && !record_size(kind)))
        return CUPTI_ERROR_NOT_COMPATIBLE;
    kind_on[kind] = 1;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind kind)
{
    if ((unsigned)kind < 64)
        kind_on[kind] = 0;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req,
                                                    CUpti_BuffersCallbackCompleteFunc comp)
{
    if (!req || !comp)
        return CUPTI_ERROR_INVALID_PARAMETER;
    pthread_mutex_lock(&lock);
    requested = req;
    completed = comp;
    pthread_mutex_unlock(&lock);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag)
{
    (void)flag;
    deliver(1);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid, CUpti_Activity **record)
{
    size_t off = 0;
    if (*record) {
        size_t n = record_size((*record)->kind);
        if (!n)
            return CUPTI_ERROR_INVALID_KIND;
        off = (size_t)((uint8_t *)*record - buffer) + align8(n);
    }
    if (off >= valid)
        return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = (CUpti_Activity *)(buffer + off);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext ctx, uint32_t stream, size_t *n)
{
    (void)ctx, (void)stream;
    pthread_mutex_lock(&lock);
    *n = (size_t)dropped;
    dropped = 0;
    pthread_mutex_unlock(&lock);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t *ts)
{
    *ts = now_gpu();
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t *version)
{
    const char *v = getenv("FAKE_CUPTI_VERSION");
    *version = v ? (uint32_t)strtoul(v, NULL, 10) : CUPTI_API_VERSION;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult r, const char **s)
{
    *s = r == CUPTI_SUCCESS ? "CUPTI_SUCCESS" : "CUPTI error (fake)";
    return CUPTI_SUCCESS;
}
