/*
 * liblikwid, loaded with dlopen at run time (DESIGN section 2): the
 * functions the collector calls, typed from the installed <likwid.h>.
 * The library is the one the program linked, when it did, else the first
 * of liblikwid.so, liblikwid.so.5.2, liblikwid.so.5 the dynamic loader
 * finds (the tests put a fake one first on LD_LIBRARY_PATH).
 */
#ifndef MPISCOPE_LK_LIB_H
#define MPISCOPE_LK_LIB_H

#include <likwid.h>

/* Members are fn_<function>: apart from the functions this collector
 * interposes (lk_markers.c), which have the same names. */
#define LK_FN(name) __typeof__(name) *fn_##name
typedef struct lk_lib {
    LK_FN(topology_init);
    LK_FN(perfmon_init);
    LK_FN(perfmon_addEventSet);
    LK_FN(perfmon_setupCounters);
    LK_FN(perfmon_startCounters);
    LK_FN(perfmon_stopCounters);
    LK_FN(perfmon_readCounters);
    LK_FN(perfmon_finalize);
    LK_FN(perfmon_getNumberOfEvents);
    LK_FN(perfmon_getEventName);
    LK_FN(perfmon_getNumberOfMetrics);
    LK_FN(perfmon_getMetricName);
    LK_FN(perfmon_getResult);
    LK_FN(perfmon_getLastResult);
    LK_FN(perfmon_getMetric);
    LK_FN(perfmon_getLastMetric);
    LK_FN(perfmon_getTimeOfGroup);
    LK_FN(perfmon_getLastTimeOfGroup);
    LK_FN(perfmon_getIdOfActiveGroup);
    LK_FN(perfmon_getGroupName);
    LK_FN(perfmon_getNumberOfRegions);
    LK_FN(perfmon_getGroupOfRegion);
    LK_FN(perfmon_getTagOfRegion);
    LK_FN(perfmon_getThreadsOfRegion);
    LK_FN(perfmon_getCpulistOfRegion);
    LK_FN(perfmon_getTimeOfRegion);
    LK_FN(perfmon_getCountOfRegion);
    LK_FN(perfmon_getResultOfRegionThread);
    LK_FN(perfmon_getMetricOfRegionThread);
    LK_FN(perfmon_readMarkerFile);
    LK_FN(perfmon_destroyMarkerResults);
    LK_FN(likwid_markerGetRegion);
    LK_FN(HPMmode);       /* optional: NULL when the library lacks it */
} lk_lib;
#undef LK_FN

/* The library's functions, loaded once; NULL when it cannot be loaded or
 * lacks one of them (*why says which). Thread-safe. */
const lk_lib *lk_lib_get(const char **why);

#endif
