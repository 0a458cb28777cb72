/* liblikwid through dlopen: see lk_lib.h. */
#include "lk_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static lk_lib lib;
static const lk_lib *loaded;
static char why_buf[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
    /* The library the program linked, if it did; else the first found. */
    static const char *const names[] = {"liblikwid.so", "liblikwid.so.5.2", "liblikwid.so.5"};
    const char *name = "the program's liblikwid";
    void *h = RTLD_DEFAULT;  /* a null pointer */
    int found = dlsym(RTLD_DEFAULT, "perfmon_init") != NULL;
    for (size_t i = 0; !found && i < sizeof names / sizeof names[0]; i++)
        found = (h = dlopen(name = names[i], RTLD_NOW)) != NULL;
    if (!found) {
        snprintf(why_buf, sizeof why_buf, "cannot load liblikwid.so");
        return;
    }
#define LOAD(f)                                                                       \
    do {                                                                              \
        *(void **)&lib.f = dlsym(h, #f);                                              \
        if (!lib.f) {                                                                 \
            snprintf(why_buf, sizeof why_buf, "%s has no %s", name, #f);             \
            return;                                                                   \
        }                                                                             \
    } while (0)
    LOAD(topology_init);
    LOAD(perfmon_init);
    LOAD(perfmon_addEventSet);
    LOAD(perfmon_setupCounters);
    LOAD(perfmon_startCounters);
    LOAD(perfmon_stopCounters);
    LOAD(perfmon_readCounters);
    LOAD(perfmon_finalize);
    LOAD(perfmon_getNumberOfEvents);
    LOAD(perfmon_getEventName);
    LOAD(perfmon_getNumberOfMetrics);
    LOAD(perfmon_getMetricName);
    LOAD(perfmon_getResult);
    LOAD(perfmon_getLastResult);
    LOAD(perfmon_getMetric);
    LOAD(perfmon_getLastMetric);
    LOAD(perfmon_getTimeOfGroup);
    LOAD(perfmon_getLastTimeOfGroup);
    LOAD(perfmon_getIdOfActiveGroup);
    LOAD(perfmon_getGroupName);
    LOAD(perfmon_getNumberOfRegions);
    LOAD(perfmon_getGroupOfRegion);
    LOAD(perfmon_getTagOfRegion);
    LOAD(perfmon_getThreadsOfRegion);
    LOAD(perfmon_getCpulistOfRegion);
    LOAD(perfmon_getTimeOfRegion);
    LOAD(perfmon_getCountOfRegion);
    LOAD(perfmon_getResultOfRegionThread);
    LOAD(perfmon_getMetricOfRegionThread);
    LOAD(perfmon_readMarkerFile);
    LOAD(perfmon_destroyMarkerResults);
    LOAD(likwid_markerGetRegion);
#undef LOAD
    loaded = &lib;
}

const lk_lib *lk_lib_get(const char **why)
{
    pthread_once(&once, load);
    if (why)
        *why = why_buf;
    return loaded;
}
