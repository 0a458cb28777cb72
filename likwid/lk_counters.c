/*
 * Hardware counters through LIKWID (see lk_counters.h), stored as counter
 * sets and samples (preload/counter_records.h).
 *
 * Under likwid-perfctr -m the marker API measures: after each stop, the
 * region's events on the calling thread so far (likwid_markerGetRegion;
 * metrics are not known yet and stored as NaN), and once the program closes
 * the marker API, LIKWID's own evaluation of every region and thread with
 * its metrics, as final samples that replace the others. LIKWID versions
 * whose close keeps its results in the process are asked directly; others
 * (5.2) free them, and the marker file the close wrote is read back with
 * the perfmon API, as likwid-perfctr reads it.
 *
 * With MPISCOPE_LIKWID=<group> the group is set up with the perfmon API on
 * the CPUs of the rank's affinity mask and read at every marker start and
 * stop: each interval between two reads is added to the regions open on
 * any thread of the rank (counters count per CPU, not per thread); a
 * region's metrics are the interval metrics weighted by interval time
 * (exact for rates such as FLOP/s and bandwidth). At the end the whole run
 * is stored as region 0.
 */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../preload/collector.h"
#include "../preload/config.h"
#include "../preload/counter_records.h"
#include "../preload/diag.h"
#include "lk_counters.h"
#include "lk_lib.h"
#include "lk_settings.h"
#include "lk_tags.h"

enum { MODE_OFF, MODE_PERFCTR, MODE_PERFMON };

typedef struct lk_set {
    int gid;
    uint32_t nevents, n;
    char *group;
    char *names[MS_MAX_COUNTER_VALUES];
} lk_set;

typedef struct pm_region {
    char *tag;
    int open;              /* starts not yet stopped, all threads */
    uint64_t count;
    double time;           /* s, while open */
    double *ev;            /* [cpu][event] */
    double *mt;            /* [cpu][metric] x interval time */
} pm_region;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int mode;
static int perfctr_pending;   /* marker API measuring, noticed before recording */
static const lk_lib *L;
static lk_set sets[MS_MAX_COUNTER_SETS];
static uint32_t nsets;
static __thread uint64_t sets_defined;   /* bit i: set i defined in this thread */
_Static_assert(MS_MAX_COUNTER_SETS <= 64, "sets_defined has a bit per set");

/* MPISCOPE_LIKWID: the group, its CPUs and the regions seen. */
static int pm_gid, pm_set, pm_ncpu;
static int *pm_cpus;
static pm_region *pm_regions;
static size_t pm_nregions;

/* This collector's warnings (ms_warn_cause, at load). */
static enum ms_cause lk_cause = MS_WARN_COLLECTOR;

static void warn_off(const char *what, const char *why)
{
    ms_warn_once(lk_cause, "LIKWID: %s (%s); regions are timed without counters", what, why);
}

/* The set of group gid (caller holds lock); -1 when none can be made. */
static int set_of(int gid)
{
    for (uint32_t i = 0; i < nsets; i++)
        if (sets[i].gid == gid)
            return (int)i;
    int ne = L->fn_perfmon_getNumberOfEvents(gid);
    int nm = L->fn_perfmon_getNumberOfMetrics(gid);
    if (ne <= 0 || nsets >= MS_MAX_COUNTER_SETS)
        return -1;
    if (nm < 0)
        nm = 0;
    if ((unsigned)ne > MS_MAX_COUNTER_VALUES)
        ne = (int)MS_MAX_COUNTER_VALUES;
    if ((unsigned)(ne + nm) > MS_MAX_COUNTER_VALUES)
        nm = (int)MS_MAX_COUNTER_VALUES - ne;
    lk_set *s = &sets[nsets];
    /* The set's name in the log: its source, a space, its group. */
    const char *g = L->fn_perfmon_getGroupName(gid);
    size_t glen = strlen(g ? g : "") + sizeof "LIKWID ";
    s->group = malloc(glen);
    if (!s->group)
        return -1;
    snprintf(s->group, glen, "LIKWID %s", g ? g : "");
    for (int i = 0; i < ne + nm; i++) {
        const char *name = i < ne ? L->fn_perfmon_getEventName(gid, i) : L->fn_perfmon_getMetricName(gid, i - ne);
        s->names[i] = strdup(name ? name : "");
        if (!s->names[i]) {
            for (int k = 0; k < i; k++)
                free(s->names[k]);
            free(s->group);
            return -1;
        }
    }
    s->gid = gid;
    s->nevents = (uint32_t)ne;
    s->n = (uint32_t)(ne + nm);
    return (int)nsets++;
}

/* Append set and a sample of it to t's stream (the set first, once per
 * thread). */
static void put_sample(ms_thread *t, int set, uint64_t region_plus1, uint32_t cthread, uint32_t cpu, uint64_t count,
                       uint32_t flags, double time_s, const double *values)
{
    const lk_set *s = &sets[set];
    if (!(sets_defined & (1ull << set))) {
        uint8_t *rec = malloc(MS_COUNTER_SET_MAX);
        if (!rec)
            return;
        uint8_t *p = ms_rec_counter_set(rec, (uint32_t)set, s->group, (const char *const *)s->names, s->nevents,
                                        s->n);
        ms_append(t, rec, (size_t)(p - rec));
        free(rec);
        sets_defined |= 1ull << set;
    }
    uint8_t rec[MS_COUNTER_SAMPLE_MAX];
    uint8_t *p = ms_rec_counter_sample(rec, (uint32_t)set, region_plus1, cthread, cpu, count, flags, time_s, values,
                                       s->n);
    ms_append(t, rec, (size_t)(p - rec));
}

/* ---- under likwid-perfctr -m ---- */

void lk_counters_marker_init(void)
{
    pthread_mutex_lock(&lock);
    if (getenv("LIKWID_EVENTS") && getenv("LIKWID_FILEPATH"))
        perfctr_pending = 1;
    pthread_mutex_unlock(&lock);
}

/* Called with t entered: turn the likwid-perfctr mode on once recording. */
static void perfctr_begin(void)
{
    if (!perfctr_pending || mode != MODE_OFF)
        return;
    perfctr_pending = 0;
    const char *why;
    L = lk_lib_get(&why);
    if (!L) {
        warn_off("the marker API's results cannot be read", why);
        return;
    }
    mode = MODE_PERFCTR;
}

static void perfctr_stop(ms_thread *t, const char *tag)
{
    double v[MS_MAX_COUNTER_VALUES], time_s = 0;
    int n = (int)MS_MAX_COUNTER_VALUES, count = -1;
    /* Asked first: it answers nothing (count stays -1) when the marker API
     * is not initialized, before anything else of perfmon is touched. */
    L->fn_likwid_markerGetRegion(tag, &n, v, &time_s, &count);
    int set = count < 0 ? -1 : set_of(L->fn_perfmon_getIdOfActiveGroup());
    if (set < 0) {
        warn_off("the marker API measures no events", "likwid_markerInit failed, or no group");
        mode = MODE_OFF;
        return;
    }
    const lk_set *s = &sets[set];
    for (int i = n < 0 ? 0 : n; i < (int)s->n; i++)
        v[i] = NAN;
    for (uint32_t i = s->nevents; i < s->n; i++)
        v[i] = NAN;
    uint32_t id;
    int cpu = sched_getcpu();
    if (lk_region_of(t, tag, &id) == 0)
        put_sample(t, set, (uint64_t)id + 1, t->index, cpu < 0 ? 0u : (uint32_t)cpu, count < 0 ? 0u : (uint64_t)count,
                   0, time_s >= 0 ? time_s : 0, v);
}

/* LIKWID's tag of a region is "<tag>-<group id>" in some versions. */
static void strip_group(char *tag, int gid)
{
    char suffix[24];
    snprintf(suffix, sizeof suffix, "-%d", gid);
    size_t n = strlen(tag), k = strlen(suffix);
    if (n > k && strcmp(tag + n - k, suffix) == 0)
        tag[n - k] = 0;
}

/* Read the marker file of a LIKWID whose close freed its results: perfmon
 * set up again with likwid-perfctr's CPUs (LIKWID_THREADS) and groups
 * (LIKWID_EVENTS, '|' between groups). Returns the regions read (0: none). */
static int read_marker_file(void)
{
    const char *path = getenv("LIKWID_FILEPATH"), *threads = getenv("LIKWID_THREADS");
    const char *events = getenv("LIKWID_EVENTS");
    if (!path || !threads || !events)
        return 0;
    int cpus[1024], n = 0;
    for (const char *p = threads; *p && n < 1024;) {
        char *end;
        long c = strtol(p, &end, 10);
        if (end == p || c < 0)
            return 0;
        cpus[n++] = (int)c;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return 0;
    }
    if (n == 0 || L->fn_topology_init() != 0 || L->fn_perfmon_init(n, cpus) < 0)
        return 0;
    char groups[4096];
    snprintf(groups, sizeof groups, "%s", events);
    char *save = NULL;
    for (char *g = strtok_r(groups, "|", &save); g; g = strtok_r(NULL, "|", &save))
        L->fn_perfmon_addEventSet(g);
    if (L->fn_perfmon_readMarkerFile(path) < 0) {
        L->fn_perfmon_finalize();
        return 0;
    }
    int nr = L->fn_perfmon_getNumberOfRegions();
    if (nr <= 0) {
        L->fn_perfmon_destroyMarkerResults();
        L->fn_perfmon_finalize();
    }
    return nr > 0 ? nr : 0;
}

void lk_counters_marker_close(ms_thread *t)
{
    pthread_mutex_lock(&lock);
    perfctr_begin();
    int nr = mode == MODE_PERFCTR ? L->fn_perfmon_getNumberOfRegions() : 0;
    int own = 0;
    if (mode == MODE_PERFCTR && nr <= 0)
        own = nr = read_marker_file();
    for (int r = 0; r < nr; r++) {
        int gid = L->fn_perfmon_getGroupOfRegion(r);
        int set = set_of(gid);
        const char *tag0 = L->fn_perfmon_getTagOfRegion(r);
        int nthr = L->fn_perfmon_getThreadsOfRegion(r);
        if (set < 0 || !tag0 || nthr <= 0)
            continue;
        char tag[MS_MAX_NAME + 1];
        snprintf(tag, sizeof tag, "%s", tag0);
        strip_group(tag, gid);
        uint32_t id;
        int *cpus = calloc((size_t)nthr, sizeof *cpus);
        if (!cpus || lk_region_of(t, tag, &id) != 0) {
            free(cpus);
            continue;
        }
        L->fn_perfmon_getCpulistOfRegion(r, nthr, cpus);
        const lk_set *s = &sets[set];
        double v[MS_MAX_COUNTER_VALUES];
        for (int th = 0; th < nthr; th++) {
            int count = L->fn_perfmon_getCountOfRegion(r, th);
            if (count <= 0)
                continue;
            for (uint32_t i = 0; i < s->n; i++)
                v[i] = i < s->nevents ? L->fn_perfmon_getResultOfRegionThread(r, (int)i, th)
                                      : L->fn_perfmon_getMetricOfRegionThread(r, (int)(i - s->nevents), th);
            double time_s = L->fn_perfmon_getTimeOfRegion(r, th);
            put_sample(t, set, (uint64_t)id + 1, (uint32_t)th, cpus[th] < 0 ? 0u : (uint32_t)cpus[th],
                       (uint64_t)count, MS_SAMPLE_FINAL, time_s >= 0 ? time_s : 0, v);
        }
        free(cpus);
    }
    if (own) {
        L->fn_perfmon_destroyMarkerResults();
        L->fn_perfmon_finalize();
    }
    pthread_mutex_unlock(&lock);
}

/* ---- MPISCOPE_LIKWID=<group> ---- */

static pm_region *pm_find(const char *tag)
{
    for (size_t i = 0; i < pm_nregions; i++)
        if (strcmp(pm_regions[i].tag, tag) == 0)
            return &pm_regions[i];
    pm_region *v = realloc(pm_regions, (pm_nregions + 1) * sizeof *v);
    if (!v)
        return NULL;
    pm_regions = v;
    const lk_set *s = &sets[pm_set];
    pm_region *r = &pm_regions[pm_nregions];
    memset(r, 0, sizeof *r);
    r->tag = strdup(tag);
    r->ev = calloc((size_t)pm_ncpu * s->nevents + 1, sizeof(double));
    r->mt = calloc((size_t)pm_ncpu * (s->n - s->nevents) + 1, sizeof(double));
    if (!r->tag || !r->ev || !r->mt) {
        free(r->tag);
        free(r->ev);
        free(r->mt);
        return NULL;
    }
    pm_nregions++;
    return r;
}

/* Read the counters; the interval since the last read goes to every open
 * region. Caller holds lock. */
static void pm_read(void)
{
    L->fn_perfmon_readCounters();
    const lk_set *s = &sets[pm_set];
    uint32_t ne = s->nevents, nm = s->n - s->nevents;
    double dt = L->fn_perfmon_getLastTimeOfGroup(pm_gid);
    if (!(dt >= 0))
        dt = 0;
    for (size_t i = 0; i < pm_nregions; i++) {
        pm_region *r = &pm_regions[i];
        if (r->open <= 0)
            continue;
        r->time += dt;
        for (int c = 0; c < pm_ncpu; c++) {
            for (uint32_t e = 0; e < ne; e++)
                r->ev[(size_t)c * ne + e] += L->fn_perfmon_getLastResult(pm_gid, (int)e, c);
            for (uint32_t m = 0; m < nm; m++)
                r->mt[(size_t)c * nm + m] += L->fn_perfmon_getLastMetric(pm_gid, (int)m, c) * dt;
        }
    }
}

static void pm_region_event(ms_thread *t, const char *tag, int is_stop)
{
    pm_read();
    pm_region *r = pm_find(tag);
    if (!r)
        return;
    if (!is_stop) {
        r->open++;
        return;
    }
    if (r->open <= 0)
        return;
    r->open--;
    r->count++;
    uint32_t id;
    if (lk_region_of(t, tag, &id) != 0)
        return;
    const lk_set *s = &sets[pm_set];
    uint32_t ne = s->nevents, nm = s->n - s->nevents;
    double v[MS_MAX_COUNTER_VALUES];
    for (int c = 0; c < pm_ncpu; c++) {
        for (uint32_t e = 0; e < ne; e++)
            v[e] = r->ev[(size_t)c * ne + e];
        for (uint32_t m = 0; m < nm; m++)
            v[ne + m] = r->time > 0 ? r->mt[(size_t)c * nm + m] / r->time : NAN;
        put_sample(t, pm_set, (uint64_t)id + 1, (uint32_t)c, (uint32_t)pm_cpus[c], r->count, 0, r->time, v);
    }
}

void lk_counters_region(ms_thread *t, const char *tag, int is_stop)
{
    if (!tag)
        return;
    pthread_mutex_lock(&lock);
    perfctr_begin();
    if (mode == MODE_PERFMON)
        pm_region_event(t, tag, is_stop);
    else if (mode == MODE_PERFCTR && is_stop)
        perfctr_stop(t, tag);
    pthread_mutex_unlock(&lock);
}

/* How LIKWID reaches the counters, chosen before perfmon_init: LIKWID's
 * access daemon, when it cannot start, ends the whole process (exit from
 * inside perfmon_init, after 10 s). As root the registers are read
 * directly (no daemon; no access is an error LIKWID returns); otherwise
 * the daemon must be there and setuid root. NULL when it may go on, else
 * why not. */
#ifndef MS_LIKWID_ACCESSD
#define MS_LIKWID_ACCESSD "/usr/sbin/likwid-accessD"
#endif
static const char *access_problem(void)
{
    if (geteuid() == 0) {
        if (L->fn_HPMmode)
            L->fn_HPMmode(ACCESSMODE_DIRECT);
        return NULL;
    }
    struct stat st;
    if (stat(MS_LIKWID_ACCESSD, &st) != 0 || st.st_uid != 0 || !(st.st_mode & S_ISUID) ||
        !(st.st_mode & S_IXOTH))
        return "no counter access: not root, and LIKWID's access daemon " MS_LIKWID_ACCESSD
               " is missing or not setuid root";
    if (L->fn_HPMmode)
        L->fn_HPMmode(ACCESSMODE_DAEMON);
    return NULL;
}

static void lk_start(void)
{
    if (!lk_group[0])
        return;
    const char *group = lk_group;
    if (getenv("LIKWID_EVENTS")) {
        ms_warn_config(lk_cause, "MPISCOPE_LIKWID=%s is ignored: LIKWID already measures (likwid-perfctr)",
                       group);
        return;
    }
    pthread_mutex_lock(&lock);
    const char *why;
    char what[128];
    snprintf(what, sizeof what, "cannot measure group %.64s", group);
    L = lk_lib_get(&why);
    cpu_set_t mask;
    int inited = 0;
    if (!L) {
        warn_off(what, why);
        goto out;
    }
    if (sched_getaffinity(0, sizeof mask, &mask) != 0 || CPU_COUNT(&mask) == 0) {
        warn_off(what, "the rank's CPU affinity cannot be read");
        goto out;
    }
    pm_cpus = malloc((size_t)CPU_COUNT(&mask) * sizeof *pm_cpus);
    if (!pm_cpus) {
        warn_off(what, "out of memory");
        goto out;
    }
    pm_ncpu = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &mask))
            pm_cpus[pm_ncpu++] = c;
    if (L->fn_topology_init() != 0) {
        warn_off(what, "topology_init failed");
        goto out;
    }
    /* After topology_init, which reads LIKWID's configuration. */
    if ((why = access_problem()) != NULL) {
        warn_off(what, why);
        goto out;
    }
    if (L->fn_perfmon_init(pm_ncpu, pm_cpus) < 0) {
        warn_off(what, "perfmon_init failed: no access to the hardware counters, or a CPU this LIKWID does not support");
        goto out;
    }
    inited = 1;
    pm_gid = L->fn_perfmon_addEventSet(group);
    if (pm_gid < 0) {
        warn_off(what, "the group is unknown on this CPU or its counters are not available");
        goto out;
    }
    if (L->fn_perfmon_setupCounters(pm_gid) < 0 || L->fn_perfmon_startCounters() < 0) {
        warn_off(what, "the counters cannot be set up and started");
        goto out;
    }
    pm_set = set_of(pm_gid);
    if (pm_set < 0) {
        L->fn_perfmon_stopCounters();
        warn_off(what, "the group has no events");
        goto out;
    }
    mode = MODE_PERFMON;
out:
    if (mode != MODE_PERFMON && inited)
        L->fn_perfmon_finalize();
    pthread_mutex_unlock(&lock);
}

static void lk_load(void)
{
    lk_cause = ms_warn_cause("the LIKWID collector");
}

static void lk_stop(void)
{
    pthread_mutex_lock(&lock);
    if (mode == MODE_PERFMON) {
        ms_thread *t = ms_enter();
        if (t) {
            pm_read();
            const lk_set *s = &sets[pm_set];
            double v[MS_MAX_COUNTER_VALUES], time_s = L->fn_perfmon_getTimeOfGroup(pm_gid);
            for (int c = 0; c < pm_ncpu; c++) {
                for (uint32_t i = 0; i < s->n; i++)
                    v[i] = i < s->nevents ? L->fn_perfmon_getResult(pm_gid, (int)i, c)
                                          : L->fn_perfmon_getMetric(pm_gid, (int)(i - s->nevents), c);
                put_sample(t, pm_set, 0, (uint32_t)c, (uint32_t)pm_cpus[c], 1, 0, time_s >= 0 ? time_s : 0, v);
            }
            ms_leave(t);
        }
        L->fn_perfmon_stopCounters();
        L->fn_perfmon_finalize();
    }
    mode = MODE_OFF;
    pthread_mutex_unlock(&lock);
}

static const ms_collector likwid_collector = {
    .name = "likwid",
    .order = 10,
    .load = lk_load,
    .start = lk_start,
    .stop = lk_stop,
};
MS_COLLECTOR_REGISTER(likwid_collector);
