/* liblikwid through dlopen: see lk_lib.h. */
#include "lk_lib.h"

#include <dlfcn.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>

#include "../common/dl_table.h"

static lk_lib lib;
static const lk_lib *loaded;
static char why_buf[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Each function by its name, into its member fn_<name>. */
#define LK_SYM(f) {#f, offsetof(lk_lib, fn_##f)}
static const ms_dl_sym syms[] = {
    LK_SYM(topology_init),
    LK_SYM(perfmon_init),
    LK_SYM(perfmon_addEventSet),
    LK_SYM(perfmon_setupCounters),
    LK_SYM(perfmon_startCounters),
    LK_SYM(perfmon_stopCounters),
    LK_SYM(perfmon_readCounters),
    LK_SYM(perfmon_finalize),
    LK_SYM(perfmon_getNumberOfEvents),
    LK_SYM(perfmon_getEventName),
    LK_SYM(perfmon_getNumberOfMetrics),
    LK_SYM(perfmon_getMetricName),
    LK_SYM(perfmon_getResult),
    LK_SYM(perfmon_getLastResult),
    LK_SYM(perfmon_getMetric),
    LK_SYM(perfmon_getLastMetric),
    LK_SYM(perfmon_getTimeOfGroup),
    LK_SYM(perfmon_getLastTimeOfGroup),
    LK_SYM(perfmon_getIdOfActiveGroup),
    LK_SYM(perfmon_getGroupName),
    LK_SYM(perfmon_getNumberOfRegions),
    LK_SYM(perfmon_getGroupOfRegion),
    LK_SYM(perfmon_getTagOfRegion),
    LK_SYM(perfmon_getThreadsOfRegion),
    LK_SYM(perfmon_getCpulistOfRegion),
    LK_SYM(perfmon_getTimeOfRegion),
    LK_SYM(perfmon_getCountOfRegion),
    LK_SYM(perfmon_getResultOfRegionThread),
    LK_SYM(perfmon_getMetricOfRegionThread),
    LK_SYM(perfmon_readMarkerFile),
    LK_SYM(perfmon_destroyMarkerResults),
    LK_SYM(likwid_markerGetRegion),
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
    *(void **)&lib.fn_HPMmode = dlsym(h, "HPMmode");
    loaded = &lib;
}

const lk_lib *lk_lib_get(const char **why)
{
    pthread_once(&once, load);
    if (why)
        *why = why_buf;
    return loaded;
}
