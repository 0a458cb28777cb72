/* liblikwid through dlopen: see lk_lib.h. */
#include "lk_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "../common/dl_table.h"

static lk_lib lib;
static const lk_lib *loaded;
static char why_buf[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const ms_dl_sym syms[] = {
    MS_DL_SYM(lk_lib, topology_init),
    MS_DL_SYM(lk_lib, perfmon_init),
    MS_DL_SYM(lk_lib, perfmon_addEventSet),
    MS_DL_SYM(lk_lib, perfmon_setupCounters),
    MS_DL_SYM(lk_lib, perfmon_startCounters),
    MS_DL_SYM(lk_lib, perfmon_stopCounters),
    MS_DL_SYM(lk_lib, perfmon_readCounters),
    MS_DL_SYM(lk_lib, perfmon_finalize),
    MS_DL_SYM(lk_lib, perfmon_getNumberOfEvents),
    MS_DL_SYM(lk_lib, perfmon_getEventName),
    MS_DL_SYM(lk_lib, perfmon_getNumberOfMetrics),
    MS_DL_SYM(lk_lib, perfmon_getMetricName),
    MS_DL_SYM(lk_lib, perfmon_getResult),
    MS_DL_SYM(lk_lib, perfmon_getLastResult),
    MS_DL_SYM(lk_lib, perfmon_getMetric),
    MS_DL_SYM(lk_lib, perfmon_getLastMetric),
    MS_DL_SYM(lk_lib, perfmon_getTimeOfGroup),
    MS_DL_SYM(lk_lib, perfmon_getLastTimeOfGroup),
    MS_DL_SYM(lk_lib, perfmon_getIdOfActiveGroup),
    MS_DL_SYM(lk_lib, perfmon_getGroupName),
    MS_DL_SYM(lk_lib, perfmon_getNumberOfRegions),
    MS_DL_SYM(lk_lib, perfmon_getGroupOfRegion),
    MS_DL_SYM(lk_lib, perfmon_getTagOfRegion),
    MS_DL_SYM(lk_lib, perfmon_getThreadsOfRegion),
    MS_DL_SYM(lk_lib, perfmon_getCpulistOfRegion),
    MS_DL_SYM(lk_lib, perfmon_getTimeOfRegion),
    MS_DL_SYM(lk_lib, perfmon_getCountOfRegion),
    MS_DL_SYM(lk_lib, perfmon_getResultOfRegionThread),
    MS_DL_SYM(lk_lib, perfmon_getMetricOfRegionThread),
    MS_DL_SYM(lk_lib, perfmon_readMarkerFile),
    MS_DL_SYM(lk_lib, perfmon_destroyMarkerResults),
    MS_DL_SYM(lk_lib, likwid_markerGetRegion),
};

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
    if (ms_dl_resolve(h, name, &lib, syms, sizeof syms / sizeof syms[0], why_buf, sizeof why_buf) != 0)
        return;
    *(void **)&lib.HPMmode = dlsym(h, "HPMmode");
    loaded = &lib;
}

const lk_lib *lk_lib_get(const char **why)
{
    pthread_once(&once, load);
    if (why)
        *why = why_buf;
    return loaded;
}
