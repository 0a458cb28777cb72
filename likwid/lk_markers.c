/*
 * LIKWID's marker API, intercepted: each completed start/stop pair of a tag
 * on a thread is one call of region "likwid:<tag>", timed by the tool.
 * Every call is forwarded to the library the program linked (RTLD_NEXT);
 * without one, markers are only recorded. A stop without its start is not
 * a call; a start never stopped is not recorded.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../preload/clock.h"
#include "lk_counters.h"
#include "lk_lib.h"
#include "lk_tags.h"

typedef void (*void_fn)(void);
typedef int (*tag_fn)(const char *);
typedef void (*get_fn)(const char *, int *, double *, double *, int *);

/* The library's functions (NULL: none), looked up once. */
static struct {
    void_fn init, thread_init, next_group, close;
    tag_fn reg, reset, start, stop;
    get_fn get;
} nx;
static pthread_once_t nx_once = PTHREAD_ONCE_INIT;

static void resolve(void)
{
    *(void **)&nx.init = dlsym(RTLD_NEXT, "likwid_markerInit");
    *(void **)&nx.thread_init = dlsym(RTLD_NEXT, "likwid_markerThreadInit");
    *(void **)&nx.next_group = dlsym(RTLD_NEXT, "likwid_markerNextGroup");
    *(void **)&nx.close = dlsym(RTLD_NEXT, "likwid_markerClose");
    *(void **)&nx.reg = dlsym(RTLD_NEXT, "likwid_markerRegisterRegion");
    *(void **)&nx.reset = dlsym(RTLD_NEXT, "likwid_markerResetRegion");
    *(void **)&nx.start = dlsym(RTLD_NEXT, "likwid_markerStartRegion");
    *(void **)&nx.stop = dlsym(RTLD_NEXT, "likwid_markerStopRegion");
    *(void **)&nx.get = dlsym(RTLD_NEXT, "likwid_markerGetRegion");
}

#define NEXT() pthread_once(&nx_once, resolve)

__attribute__((visibility("default"))) void likwid_markerInit(void)
{
    NEXT();
    if (nx.init)
        nx.init();
    lk_counters_marker_init();
}

__attribute__((visibility("default"))) void likwid_markerThreadInit(void)
{
    NEXT();
    if (nx.thread_init)
        nx.thread_init();
}

__attribute__((visibility("default"))) void likwid_markerNextGroup(void)
{
    NEXT();
    if (nx.next_group)
        nx.next_group();
}

__attribute__((visibility("default"))) int likwid_markerRegisterRegion(const char *regionTag)
{
    NEXT();
    return nx.reg ? nx.reg(regionTag) : 0;
}

__attribute__((visibility("default"))) int likwid_markerResetRegion(const char *regionTag)
{
    NEXT();
    return nx.reset ? nx.reset(regionTag) : 0;
}

__attribute__((visibility("default"))) void likwid_markerGetRegion(const char *regionTag, int *nr_events,
                                                                   double *events, double *time, int *count)
{
    NEXT();
    if (nx.get)
        nx.get(regionTag, nr_events, events, time, count);
}

__attribute__((visibility("default"))) int likwid_markerStartRegion(const char *regionTag)
{
    NEXT();
    lk_tls *s = regionTag ? lk_tags_get() : NULL;
    int64_t i = s ? lk_tag_index(s, regionTag) : -1;
    ms_thread *t = ms_enter();
    if (t) {
        lk_counters_region(t, regionTag, 0);
        ms_leave(t);
    }
    int rc = nx.start ? nx.start(regionTag) : 0;
    if (i >= 0 && s->nopen < LK_MAX_OPEN)
        s->open[s->nopen++] = (lk_open){.tag = (uint32_t)i, .t0 = ms_now()};
    return rc;
}

__attribute__((visibility("default"))) int likwid_markerStopRegion(const char *regionTag)
{
    uint64_t t1 = ms_now();
    NEXT();
    int rc = nx.stop ? nx.stop(regionTag) : 0;
    lk_tls *s = regionTag ? lk_tags_peek() : NULL;
    if (!s)
        return rc;
    /* The innermost open region of this tag. */
    uint32_t k = s->nopen;
    while (k > 0 && strcmp(s->tags[s->open[k - 1].tag].tag, regionTag) != 0)
        k--;
    if (k == 0)
        return rc;
    lk_open o = s->open[k - 1];
    memmove(&s->open[k - 1], &s->open[k], (s->nopen - k) * sizeof *s->open);
    s->nopen--;
    ms_thread *t = ms_enter();
    if (t) {
        ms_event(t, lk_tag_region(t, &s->tags[o.tag]), o.t0, t1);
        lk_counters_region(t, regionTag, 1);
        ms_leave(t);
    }
    return rc;
}

__attribute__((visibility("default"))) void likwid_markerClose(void)
{
    NEXT();
    if (nx.close)
        nx.close();
    ms_thread *t = ms_enter();
    if (t) {
        lk_counters_marker_close(t);
        ms_leave(t);
    }
}
