/*
 * CUPTI activity buffers (docs/GPU.md). CUPTI's buffer-completed callback
 * only queues the buffer; a thread of the collector decodes queued buffers
 * every MPISCOPE_FLUSH_MS (after asking CUPTI to flush), and everything at
 * finalize and at exit. Before recording starts (a process that has not
 * reached MPI_Init, or not yet launched work) buffers wait, at most
 * PENDING_MAX of them; records of buffers beyond are counted as dropped.
 *
 * Each (device, context, stream) becomes a thread of the log, marked by an
 * MS_CTL_GPU_STREAM record; each kernel, copy and memset is one event of
 * "cuda:kernel <demangled name>", "cuda:memcpy <kind> bytes=<n>" or
 * "cuda:memset bytes=<n>", preceded by an MS_CTL_GPU_LAUNCH record naming
 * the host thread and time of its launch. CUPTI overhead records and the
 * dropped-record count go to one more thread, marked MS_CTL_GPU_TOOL.
 * GPU timestamps are mapped to the tool clock by the line through two
 * samples of (cuptiGetTimestamp, tool clock): the first, at setup, and the
 * latest, taken before each decoding pass and at the end.
 */
#include "cu_decode.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../preload/clock.h"
#include "../preload/config.h"
#include "../preload/records.h"
#include "cu_launch.h"
#include "cu_lib.h"

#define BUF_SIZE (1u << 20)
#define PENDING_MAX 64u
#define MAX_STREAMS 256u
#define NAME_SLOTS 8192u

static const cu_lib *L;

/* ---- the queue (CUPTI's threads -> the decoder) ---- */

typedef struct qbuf {
    struct qbuf *next;
    uint8_t *buf;
    size_t valid;
} qbuf;

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcond;
static qbuf *qhead, **qtail = &qhead;
static size_t qcount;
static _Atomic int attached;
static _Atomic uint64_t dropped_cupti, dropped_here, dropped_written;

/* One decoder at a time; guards the streams and names below. */
static pthread_mutex_t decode_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t count_records(uint8_t *buf, size_t valid)
{
    uint64_t n = 0;
    CUpti_Activity *rec = NULL;
    while (L->cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS)
        n++;
    return n;
}

static void CUPTIAPI buf_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    void *p = NULL;
    if (posix_memalign(&p, 8, BUF_SIZE) != 0)
        p = NULL;
    *buffer = p;
    *size = p ? BUF_SIZE : 0;
    *max_records = 0;
}

static void CUPTIAPI buf_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    (void)size;
    size_t d = 0;
    if (L->cuptiActivityGetNumDroppedRecords(ctx, stream, &d) == CUPTI_SUCCESS && d)
        atomic_fetch_add(&dropped_cupti, d);
    if (!buffer)
        return;
    qbuf *q = valid ? malloc(sizeof *q) : NULL;
    pthread_mutex_lock(&qlock);
    if (q && (atomic_load(&attached) || qcount < PENDING_MAX)) {
        q->next = NULL;
        q->buf = buffer;
        q->valid = valid;
        *qtail = q;
        qtail = &q->next;
        qcount++;
        pthread_cond_signal(&qcond);
        buffer = NULL;
    }
    pthread_mutex_unlock(&qlock);
    if (buffer) {
        if (valid)
            atomic_fetch_add(&dropped_here, count_records(buffer, valid));
        free(q);
        free(buffer);
    }
}

uint64_t cu_decode_pending(void)
{
    pthread_mutex_lock(&qlock);
    uint64_t n = qcount;
    pthread_mutex_unlock(&qlock);
    return n;
}

/* ---- clock ---- */

static pthread_mutex_t clk_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t g0, h0, g1, h1, m0;
static int nsamples;

void cu_clock_sample(void)
{
    if (!L)
        return;
    /* The tightest of a few readings: the GPU clock read between two
     * readings of the tool clock, as close together as they came. */
    uint64_t h = 0, g = 0, best = UINT64_MAX;
    for (int i = 0; i < 8; i++) {
        uint64_t gi = 0, a = ms_now();
        L->cuptiGetTimestamp(&gi);
        uint64_t b = ms_now();
        if (b - a < best)
            best = b - a, h = a + (b - a) / 2, g = gi;
    }
    pthread_mutex_lock(&clk_lock);
    if (!nsamples++) {
        g0 = g, h0 = h, m0 = ms_mono_ns();
    } else {
        g1 = g, h1 = h;
    }
    pthread_mutex_unlock(&clk_lock);
}

/* A sample at least 2 ms after the first, so that the rate is good. */
static void clock_ready(void)
{
    uint64_t since = ms_mono_ns() - m0;
    if (since < 2000000u) {
        struct timespec ts = {0, (long)(2000000u - since)};
        nanosleep(&ts, NULL);
    }
    cu_clock_sample();
}

static double rate;     /* tool clock units per GPU ns, set per pass */
static uint64_t rg0, rh0;

static void clock_line(void)
{
    pthread_mutex_lock(&clk_lock);
    rg0 = g0, rh0 = h0;
    rate = g1 > g0 ? (double)(int64_t)(h1 - h0) / (double)(g1 - g0) : 1.0;
    if (!(rate > 0))
        rate = 1.0;
    pthread_mutex_unlock(&clk_lock);
}

static uint64_t to_tool(uint64_t g)
{
    double d = g >= rg0 ? (double)(g - rg0) * rate : -(double)(rg0 - g) * rate;
    double h = (double)rh0 + d;
    return h <= 0 ? 0 : (uint64_t)h;
}

/* ---- threads of the log and region ids ---- */

typedef struct stream_track {
    uint32_t device, context, stream;
    ms_thread *t;
} stream_track;

static stream_track streams[MAX_STREAMS];
static uint32_t nstreams;
static ms_thread *tool_track;

typedef struct name_slot {
    char *name;
    uint64_t hash;
    uint32_t thread;
    uint32_t id;
} name_slot;
static name_slot names[NAME_SLOTS];
static uint32_t nnames;

static ms_thread *stream_of(uint32_t device, uint32_t context, uint32_t stream)
{
    for (uint32_t i = 0; i < nstreams; i++)
        if (streams[i].device == device && streams[i].context == context && streams[i].stream == stream)
            return streams[i].t;
    if (nstreams == MAX_STREAMS)
        return NULL;
    ms_thread *t = ms_thread_create();
    if (!t)
        return NULL;
    uint8_t rec[MS_GPU_REC_MAX];
    uint8_t *p = ms_rec_gpu_stream(rec, device, context, stream);
    ms_append(t, rec, (size_t)(p - rec));
    streams[nstreams++] = (stream_track){device, context, stream, t};
    return t;
}

static ms_thread *tool_of(void)
{
    if (!tool_track && (tool_track = ms_thread_create()) != NULL) {
        uint8_t rec[MS_GPU_REC_MAX];
        uint8_t *p = ms_rec_gpu_tool(rec);
        ms_append(tool_track, rec, (size_t)(p - rec));
    }
    return tool_track;
}

static uint32_t region_of(ms_thread *t, const char *name)
{
    size_t len = strnlen(name, MS_MAX_NAME);
    uint64_t h = 0xcbf29ce484222325u ^ t->index;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)name[i]) * 0x100000001b3u;
    uint32_t i = (uint32_t)h & (NAME_SLOTS - 1);
    for (; names[i].name; i = (i + 1) & (NAME_SLOTS - 1))
        if (names[i].hash == h && names[i].thread == t->index && strncmp(names[i].name, name, len) == 0 &&
            names[i].name[len] == 0)
            return names[i].id;
    uint32_t id = ms_region_define(t, name, len);
    /* A full table: names are defined again at each use (allowed). */
    if (nnames < NAME_SLOTS / 2) {
        char *copy = strndup(name, len);
        if (copy) {
            names[i] = (name_slot){copy, h, t->index, id};
            nnames++;
        }
    }
    return id;
}

/* ---- names ---- */

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);
static cxa_demangle_fn demangle_fn;
static int demangle_tried;

static void kernel_name(char *out, size_t cap, const char *mangled)
{
    if (!mangled)
        mangled = "(unknown)";
    if (!demangle_tried) {
        demangle_tried = 1;
        void *f = dlsym(RTLD_DEFAULT, "__cxa_demangle");
        if (!f) {
            void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
            f = h ? dlsym(h, "__cxa_demangle") : NULL;
        }
        memcpy(&demangle_fn, &f, sizeof demangle_fn);
    }
    char *d = NULL;
    int st = -1;
    if (demangle_fn && mangled[0] == '_' && mangled[1] == 'Z')
        d = demangle_fn(mangled, NULL, NULL, &st);
    snprintf(out, cap, "cuda:kernel %s", d && st == 0 ? d : mangled);
    free(d);
}

static const char *copy_kind(unsigned k)
{
    static const char *const n[] = {"unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                    "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
    return k < sizeof n / sizeof n[0] ? n[k] : "unknown";
}

static const char *overhead_kind(unsigned k)
{
    switch (k) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER: return "compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH: return "buffer-flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION: return "instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE: return "resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING: return "module-loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING: return "lazy-function-loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL: return "command-buffer-full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST: return "buffer-request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT: return "uvm-init";
    default: return "unknown";
    }
}

/* ---- decoding ---- */

static void gpu_event(uint32_t device, uint32_t context, uint32_t stream, uint32_t corr, const char *name,
                      uint64_t start, uint64_t end)
{
    ms_thread *t = stream_of(device, context, stream);
    if (!t) {
        atomic_fetch_add(&dropped_here, 1);
        return;
    }
    uint32_t id = region_of(t, name);
    uint32_t host = 0;
    uint64_t at = 0;
    if (!cu_launch_lookup(corr, &host, &at))
        host = 0, at = 0;
    uint8_t rec[MS_GPU_REC_MAX];
    uint8_t *p = ms_rec_gpu_launch(rec, host, at);
    ms_append(t, rec, (size_t)(p - rec));
    uint64_t t0 = to_tool(start);
    ms_event(t, id, t0, t0 + (uint64_t)((double)(end - start) * rate + 0.5));
}

static void decode_record(const CUpti_Activity *r)
{
    char name[MS_MAX_NAME + 1];
    switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const CUpti_ActivityKernel10 *k = (const void *)r;
        if (!k->start || k->end < k->start)
            break;
        kernel_name(name, sizeof name, k->name);
        gpu_event(k->deviceId, k->contextId, k->streamId, k->correlationId, name, k->start, k->end);
        return;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const CUpti_ActivityMemcpy6 *m = (const void *)r;
        if (!m->start || m->end < m->start)
            break;
        snprintf(name, sizeof name, "cuda:memcpy %s bytes=%llu", copy_kind(m->copyKind),
                 (unsigned long long)m->bytes);
        gpu_event(m->deviceId, m->contextId, m->streamId, m->correlationId, name, m->start, m->end);
        return;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY2: {
        const CUpti_ActivityMemcpyPtoP4 *m = (const void *)r;
        if (!m->start || m->end < m->start)
            break;
        snprintf(name, sizeof name, "cuda:memcpy %s bytes=%llu", copy_kind(m->copyKind),
                 (unsigned long long)m->bytes);
        gpu_event(m->deviceId, m->contextId, m->streamId, m->correlationId, name, m->start, m->end);
        return;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const CUpti_ActivityMemset4 *m = (const void *)r;
        if (!m->start || m->end < m->start)
            break;
        snprintf(name, sizeof name, "cuda:memset bytes=%llu", (unsigned long long)m->bytes);
        gpu_event(m->deviceId, m->contextId, m->streamId, m->correlationId, name, m->start, m->end);
        return;
    }
    case CUPTI_ACTIVITY_KIND_OVERHEAD: {
        const CUpti_ActivityOverhead3 *o = (const void *)r;
        ms_thread *t = o->start && o->end >= o->start ? tool_of() : NULL;
        if (!t)
            break;
        snprintf(name, sizeof name, "cuda:overhead %s", overhead_kind((unsigned)o->overheadKind));
        uint64_t t0 = to_tool(o->start);
        ms_event(t, region_of(t, name), t0, t0 + (uint64_t)((double)(o->end - o->start) * rate + 0.5));
        return;
    }
    default:
        return;  /* kinds not enabled by the collector */
    }
    atomic_fetch_add(&dropped_here, 1);  /* a record without valid times */
}

static void write_dropped(void)
{
    uint64_t total = atomic_load(&dropped_cupti) + atomic_load(&dropped_here);
    uint64_t done = atomic_load(&dropped_written);
    if (total <= done)
        return;
    ms_thread *t = tool_of();
    if (!t)
        return;
    uint8_t rec[MS_GPU_REC_MAX];
    uint8_t *p = ms_rec_gpu_dropped(rec, total - done);
    ms_append(t, rec, (size_t)(p - rec));
    atomic_store(&dropped_written, total);
}

/* Decode every queued buffer (recording on). */
static void drain(void)
{
    pthread_mutex_lock(&decode_lock);
    if (!atomic_load(&attached) || !atomic_load(&ms_active)) {
        pthread_mutex_unlock(&decode_lock);
        return;
    }
    clock_ready();
    clock_line();
    pthread_mutex_lock(&qlock);
    qbuf *q = qhead;
    qhead = NULL;
    qtail = &qhead;
    qcount = 0;
    pthread_mutex_unlock(&qlock);
    while (q) {
        CUpti_Activity *rec = NULL;
        while (L->cuptiActivityGetNextRecord(q->buf, q->valid, &rec) == CUPTI_SUCCESS)
            decode_record(rec);
        qbuf *next = q->next;
        free(q->buf);
        free(q);
        q = next;
    }
    write_dropped();
    pthread_mutex_unlock(&decode_lock);
}

/* ---- the decoding thread ---- */

static void *decode_main(void *arg)
{
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    for (;;) {
        struct timespec deadline;
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        uint64_t ns = (uint64_t)deadline.tv_nsec + (uint64_t)ms_cfg.flush_ms * 1000000u;
        deadline.tv_sec += (time_t)(ns / 1000000000u);
        deadline.tv_nsec = (long)(ns % 1000000000u);
        pthread_mutex_lock(&qlock);
        int rc = 0;
        /* Buffers waiting for recording to start wait without spinning. */
        while ((!qhead || !atomic_load(&attached)) && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&qcond, &qlock, &deadline);
        pthread_mutex_unlock(&qlock);
        if (!atomic_load(&attached))
            continue;
        /* Outside every lock of ours: CUPTI calls buf_completed from here. */
        if (rc == ETIMEDOUT)
            L->cuptiActivityFlushAll(0);
        drain();
    }
    return NULL;
}

int cu_decode_init(void)
{
    L = cu_lib_get(NULL);
    if (!L)
        return -1;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&qcond, &ca);
    pthread_condattr_destroy(&ca);
    if (L->cuptiActivityRegisterCallbacks(buf_requested, buf_completed) != CUPTI_SUCCESS)
        return -1;
    pthread_t thr;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&thr, &a, decode_main, NULL);
    pthread_attr_destroy(&a);
    return rc == 0 ? 0 : -1;
}

void cu_decode_attach(void)
{
    atomic_store(&attached, 1);
    pthread_mutex_lock(&qlock);
    pthread_cond_signal(&qcond);
    pthread_mutex_unlock(&qlock);
}

void cu_decode_final(void)
{
    if (!L || !atomic_load(&attached))
        return;
    L->cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    drain();
    atomic_store(&attached, 0);
}
