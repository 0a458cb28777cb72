/*
 * A fake liblikwid.so.5 for the tests only (never installed): the marker
 * and perfmon API of the real <likwid.h> with deterministic counter values,
 * so that the preload library's interception, counter reading, storage and
 * the merge's roofline can be checked exactly on machines without counter
 * access. Two modes, as the real library:
 *
 *   perfmon (MPISCOPE_LIKWID=FAKE_DP; other groups are unknown): every
 *     perfmon_readCounters() ends an interval of 0.5 s in which CPU position
 *     c counts (e + 1) * 1000 * (c + 1) of event e; interval metrics:
 *       "Runtime (RDTSC) [s]" 0.5, "DP [MFLOP/s]" 20000 + 10000 c,
 *       "Memory bandwidth [MBytes/s]" 8000, "CPI" 0.5 + c;
 *     the whole-run metrics (perfmon_getMetric) have bandwidth 0.
 *   marker (LIKWID_EVENTS and LIKWID_FILEPATH set, as likwid-perfctr -m):
 *     each start/stop pair of a tag on a thread counts 0.25 s, 5e9 of event
 *     0 and 1.25e8 of event 1; after likwid_markerClose the regions are
 *     evaluated per thread (index in order of first marker call) with
 *     "DP [MFLOP/s]" = ev0 * 1e-6 / time and "Memory bandwidth [MBytes/s]"
 *     = ev1 * 64e-6 / time (20000 and 32000); region tags carry "-0".
 *     With FAKE_LIKWID_52 set, the close keeps nothing in the process (as
 *     LIKWID 5.2): the results come back through perfmon_readMarkerFile() of
 *     LIKWID_FILEPATH after perfmon_init() and perfmon_addEventSet().
 */
#include <likwid.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEV 2
#define NMET 4
#define MAXR 32
#define MAXT 16

static const char *ev_names[NEV] = {"FP_ARITH_INST_RETIRED_SCALAR_DOUBLE:PMC0", "CAS_COUNT_RD:MBOX0C0"};
static const char *met_names[NMET] = {"Runtime (RDTSC) [s]", "DP [MFLOP/s]", "Memory bandwidth [MBytes/s]", "CPI"};

/* ---- perfmon ---- */

static int ncpu, running, perfmon_ready;
static long intervals;

int topology_init(void)
{
    return 0;
}

int perfmon_init(int nrThreads, const int *threadsToCpu)
{
    /* As the real one does when its access daemon does not start. */
    if (getenv("FAKE_LIKWID_EXIT"))
        exit(atoi(getenv("FAKE_LIKWID_EXIT")));
    (void)threadsToCpu;
    ncpu = nrThreads;
    return 0;
}

int perfmon_addEventSet(const char *eventCString)
{
    perfmon_ready = ncpu > 0 && strcmp(eventCString, "FAKE_DP") == 0;
    return strcmp(eventCString, "FAKE_DP") == 0 ? 0 : -22;
}

int perfmon_setupCounters(int groupId)
{
    return groupId == 0 ? 0 : -22;
}

int perfmon_startCounters(void)
{
    running = 1;
    intervals = 0;
    return 0;
}

int perfmon_stopCounters(void)
{
    running = 0;
    return 0;
}

int perfmon_readCounters(void)
{
    intervals++;
    return 0;
}

void perfmon_finalize(void)
{
    ncpu = 0;
}

int perfmon_getNumberOfEvents(int groupId)
{
    return groupId == 0 ? NEV : 0;
}

char *perfmon_getEventName(int groupId, int eventId)
{
    return groupId == 0 && eventId >= 0 && eventId < NEV ? (char *)ev_names[eventId] : NULL;
}

int perfmon_getNumberOfMetrics(int groupId)
{
    return groupId == 0 ? NMET : 0;
}

char *perfmon_getMetricName(int groupId, int metricId)
{
    return groupId == 0 && metricId >= 0 && metricId < NMET ? (char *)met_names[metricId] : NULL;
}

char *perfmon_getGroupName(int groupId)
{
    return groupId == 0 ? "FAKE_DP" : NULL;
}

int perfmon_getIdOfActiveGroup(void)
{
    return 0;
}

double perfmon_getLastResult(int groupId, int eventId, int threadId)
{
    (void)groupId;
    return (eventId + 1) * 1000.0 * (threadId + 1);
}

double perfmon_getResult(int groupId, int eventId, int threadId)
{
    return (double)intervals * perfmon_getLastResult(groupId, eventId, threadId);
}

double perfmon_getLastMetric(int groupId, int metricId, int threadId)
{
    (void)groupId;
    switch (metricId) {
    case 0:
        return 0.5;
    case 1:
        return 20000.0 + 10000.0 * threadId;
    case 2:
        return 8000.0;
    default:
        return 0.5 + threadId;
    }
}

double perfmon_getMetric(int groupId, int metricId, int threadId)
{
    if (metricId == 2)
        return 0.0;
    return metricId == 0 ? 0.5 * (double)intervals : perfmon_getLastMetric(groupId, metricId, threadId);
}

double perfmon_getLastTimeOfGroup(int groupId)
{
    (void)groupId;
    return 0.5;
}

double perfmon_getTimeOfGroup(int groupId)
{
    (void)groupId;
    return 0.5 * (double)intervals;
}

/* ---- marker API ---- */

typedef struct fake_region {
    char tag[128];
    int started[MAXT];
    int count[MAXT];
    double time[MAXT];
    double ev[MAXT][NEV];
} fake_region;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int marker_on, closed, saved;
static fake_region regions[MAXR];
static int nregions;
static atomic_int nthreads;
static __thread int my_index = -1;

static int thread_index(void)
{
    if (my_index < 0)
        my_index = atomic_fetch_add(&nthreads, 1);
    return my_index < MAXT ? my_index : MAXT - 1;
}

static fake_region *find(const char *tag, int add)
{
    for (int i = 0; i < nregions; i++)
        if (strcmp(regions[i].tag, tag) == 0)
            return &regions[i];
    if (!add || nregions == MAXR)
        return NULL;
    fake_region *r = &regions[nregions++];
    snprintf(r->tag, sizeof r->tag, "%s", tag);
    return r;
}

void likwid_markerInit(void)
{
    marker_on = getenv("LIKWID_EVENTS") && getenv("LIKWID_FILEPATH");
    thread_index();
}

void likwid_markerThreadInit(void)
{
    thread_index();
}

void likwid_markerNextGroup(void)
{
}

int likwid_markerRegisterRegion(const char *regionTag)
{
    thread_index();
    pthread_mutex_lock(&lock);
    find(regionTag, 1);
    pthread_mutex_unlock(&lock);
    return marker_on ? 0 : -14;
}

int likwid_markerStartRegion(const char *regionTag)
{
    int t = thread_index();
    if (!marker_on)
        return -14;
    pthread_mutex_lock(&lock);
    fake_region *r = find(regionTag, 1);
    if (r)
        r->started[t] = 1;
    pthread_mutex_unlock(&lock);
    return 0;
}

int likwid_markerStopRegion(const char *regionTag)
{
    int t = thread_index();
    if (!marker_on)
        return -14;
    pthread_mutex_lock(&lock);
    fake_region *r = find(regionTag, 0);
    int rc = r && r->started[t] ? 0 : -14;
    if (rc == 0) {
        r->started[t] = 0;
        r->count[t]++;
        r->time[t] += 0.25;
        r->ev[t][0] += 5e9;
        r->ev[t][1] += 1.25e8;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int likwid_markerResetRegion(const char *regionTag)
{
    (void)regionTag;
    return 0;
}

void likwid_markerGetRegion(const char *regionTag, int *nr_events, double *events, double *time, int *count)
{
    int t = thread_index();
    pthread_mutex_lock(&lock);
    fake_region *r = marker_on ? find(regionTag, 0) : NULL;
    if (r) {
        if (count)
            *count = r->count[t];
        if (time)
            *time = r->time[t];
        if (nr_events && events && *nr_events > 0) {
            int n = *nr_events < NEV ? *nr_events : NEV;
            for (int i = 0; i < n; i++)
                events[i] = r->ev[t][i];
            *nr_events = n;
        }
    }
    pthread_mutex_unlock(&lock);
}

void likwid_markerClose(void)
{
    if (getenv("FAKE_LIKWID_52"))
        saved = marker_on;
    else
        closed = marker_on;
}

int perfmon_readMarkerFile(const char *filename)
{
    const char *path = getenv("LIKWID_FILEPATH");
    if (!saved || !perfmon_ready || !path || strcmp(filename, path) != 0)
        return -2;
    closed = 1;
    return 0;
}

void perfmon_destroyMarkerResults(void)
{
    closed = 0;
}

int perfmon_getNumberOfRegions(void)
{
    return closed ? nregions : 0;
}

int perfmon_getGroupOfRegion(int region)
{
    (void)region;
    return 0;
}

char *perfmon_getTagOfRegion(int region)
{
    static char tag[160];
    snprintf(tag, sizeof tag, "%s-0", regions[region].tag);
    return tag;
}

int perfmon_getThreadsOfRegion(int region)
{
    (void)region;
    int n = atomic_load(&nthreads);
    return n < MAXT ? n : MAXT;
}

int perfmon_getCpulistOfRegion(int region, int count, int *cpulist)
{
    (void)region;
    for (int i = 0; i < count; i++)
        cpulist[i] = 10 + i;
    return count;
}

double perfmon_getTimeOfRegion(int region, int thread)
{
    return regions[region].time[thread];
}

int perfmon_getCountOfRegion(int region, int thread)
{
    return regions[region].count[thread];
}

double perfmon_getResultOfRegionThread(int region, int event, int thread)
{
    return event < NEV ? regions[region].ev[thread][event] : 0.0;
}

double perfmon_getMetricOfRegionThread(int region, int metricId, int threadId)
{
    const fake_region *r = &regions[region];
    double time = r->time[threadId];
    switch (metricId) {
    case 0:
        return time;
    case 1:
        return r->ev[threadId][0] * 1e-6 / time;
    case 2:
        return r->ev[threadId][1] * 64e-6 / time;
    default:
        return 1.0;
    }
}
