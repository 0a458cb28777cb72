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
#include "lk_collector.h"
#include "lk_lib.h"

/* Most distinct tags and nested open regions per thread. */
#define LK_MAX_TAGS 4096u
#define LK_MAX_OPEN 256u

typedef struct lk_tag {
    char *tag;
    uint32_t id;           /* region id in the thread's stream */
    int defined;
} lk_tag;

typedef struct lk_open {
    uint32_t tag;          /* index into tags */
    uint64_t t0;
} lk_open;

typedef struct lk_tls {
    lk_tag *tags;
    uint32_t ntags, cap;
    uint32_t *slots;       /* open-addressed hash: tag index + 1, 0 empty */
    uint32_t nslots;
    lk_open open[LK_MAX_OPEN];
    uint32_t nopen;
} lk_tls;

static __thread lk_tls *tls;
static pthread_key_t tls_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void tls_free(void *p)
{
    lk_tls *s = p;
    for (uint32_t i = 0; i < s->ntags; i++)
        free(s->tags[i].tag);
    free(s->tags);
    free(s->slots);
    free(s);
}

static void make_key(void)
{
    pthread_key_create(&tls_key, tls_free);
}

static lk_tls *get_tls(void)
{
    if (tls)
        return tls;
    pthread_once(&key_once, make_key);
    tls = calloc(1, sizeof *tls);
    if (tls)
        pthread_setspecific(tls_key, tls);
    return tls;
}

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static int rehash(lk_tls *s, uint32_t n)
{
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (uint32_t i = 0; i < s->ntags; i++) {
        uint32_t k = hash(s->tags[i].tag) & (n - 1);
        while (slots[k])
            k = (k + 1) & (n - 1);
        slots[k] = i + 1;
    }
    free(s->slots);
    s->slots = slots;
    s->nslots = n;
    return 0;
}

/* The index of tag in the thread's table, added when new; -1 when full. */
static int64_t tag_index(lk_tls *s, const char *tag)
{
    uint32_t h = hash(tag);
    if (s->nslots) {
        for (uint32_t k = h & (s->nslots - 1); s->slots[k]; k = (k + 1) & (s->nslots - 1))
            if (strcmp(s->tags[s->slots[k] - 1].tag, tag) == 0)
                return s->slots[k] - 1;
    }
    if (s->ntags >= LK_MAX_TAGS)
        return -1;
    if ((s->ntags + 1) * 2 > s->nslots && rehash(s, s->nslots ? s->nslots * 2 : 64) != 0)
        return -1;
    if (s->ntags == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 16;
        lk_tag *v = realloc(s->tags, cap * sizeof *v);
        if (!v)
            return -1;
        s->tags = v;
        s->cap = cap;
    }
    char *copy = strdup(tag);
    if (!copy)
        return -1;
    uint32_t i = s->ntags++;
    s->tags[i] = (lk_tag){.tag = copy};
    uint32_t k = h & (s->nslots - 1);
    while (s->slots[k])
        k = (k + 1) & (s->nslots - 1);
    s->slots[k] = i + 1;
    return i;
}

static uint32_t define(ms_thread *t, lk_tag *g)
{
    if (!g->defined) {
        char name[MS_MAX_NAME + 1];
        size_t n = strlen(g->tag);
        if (n > MS_MAX_NAME - 7)
            n = MS_MAX_NAME - 7;
        memcpy(name, "likwid:", 7);
        memcpy(name + 7, g->tag, n);
        g->id = ms_region_define(t, name, n + 7);
        g->defined = 1;
    }
    return g->id;
}

int lk_region_of(ms_thread *t, const char *tag, uint32_t *id)
{
    lk_tls *s = get_tls();
    int64_t i = s && tag ? tag_index(s, tag) : -1;
    if (i < 0)
        return -1;
    *id = define(t, &s->tags[i]);
    return 0;
}

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
    lk_tls *s = regionTag ? get_tls() : NULL;
    int64_t i = s ? tag_index(s, regionTag) : -1;
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
    lk_tls *s = regionTag ? tls : NULL;
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
        ms_event(t, define(t, &s->tags[o.tag]), o.t0, t1);
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
