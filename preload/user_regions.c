/*
 * User regions: mpiscope_region_begin/end (include/mpiscope.h) and, through
 * pmpi/pcontrol.c, MPI_Pcontrol(1/-1, name).
 *
 * Each thread keeps, in its own state (allocated at its first region, freed
 * when it exits):
 *   - a stack of open regions (name, start time), at most UR_DEPTH deep;
 *     begins beyond that are counted and their ends consumed unrecorded;
 *   - its names, interned without hashing on the usual call: a small cache
 *     keyed by the name's address gives the name, confirmed with one string
 *     comparison; other calls hash the string into the thread's table;
 *   - for each name, the thread-local region id it has in the log (defined
 *     the first time a region of that name is recorded).
 * An end records one event from the begin to the end, written at the end,
 * so a region's event follows those of the calls and regions inside it.
 * Nothing here is on the path of an MPI call.
 */
#include "user_regions.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "diag.h"
#include "../common/log_format.h"
#include "mpiscope.h"
#include "runtime.h"

#define UR_DEPTH 128u           /* open regions per thread */
#define UR_NAMES 4096u          /* distinct names per thread */
#define UR_TABLE (2u * UR_NAMES) /* hash table slots, a power of two */
#define UR_CACHE 64u            /* address cache slots, a power of two */
#define UR_NONE UINT32_MAX

#define UR_EXPORT __attribute__((visibility("default")))

typedef struct ur_name {
    char *str;
    size_t len;
    uint64_t hash;
    const ms_thread *owner;     /* the thread state its log id belongs to */
    uint32_t id;                /* region id in owner's log stream */
} ur_name;

typedef struct ur_open {
    uint32_t name;
    uint64_t t0;
} ur_open;

typedef struct ur_state {
    ur_open stack[UR_DEPTH];
    uint32_t depth;
    uint32_t lost;              /* begins beyond UR_DEPTH still open */
    struct {
        const char *ptr;
        uint32_t name;
    } cache[UR_CACHE];
    uint32_t table[UR_TABLE];   /* name index + 1; 0 empty */
    uint32_t nnames;
    ur_name names[UR_NAMES];
} ur_state;

enum ur_cause { UR_NULL_NAME, UR_NOT_OPEN, UR_ORDER, UR_DEPTH_FULL, UR_NAMES_FULL, UR_AT_FINALIZE, UR_NOMEM, UR_CAUSES };

static atomic_flag warned[UR_CAUSES];
static __thread ur_state *ur_tls;
static pthread_key_t ur_key;
static pthread_once_t ur_once = PTHREAD_ONCE_INIT;
static int ur_key_ok;

__attribute__((format(printf, 2, 3))) static void warn_once(enum ur_cause c, const char *fmt, ...)
{
    if (atomic_flag_test_and_set(&warned[c]))
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ms_info("%s", msg);
}

/* At the exit of the thread that owns p (run on that thread). */
static void free_state(void *p)
{
    ur_state *s = p;
    ur_tls = NULL;
    for (uint32_t i = 0; i < s->nnames; i++)
        free(s->names[i].str);
    free(s);
}

static void make_key(void)
{
    ur_key_ok = pthread_key_create(&ur_key, free_state) == 0;
}

static ur_state *state(void)
{
    ur_state *s = ur_tls;
    if (MS_LIKELY(s != NULL))
        return s;
    pthread_once(&ur_once, make_key);
    s = calloc(1, sizeof *s);
    if (!s) {
        warn_once(UR_NOMEM, "out of memory: user regions of a thread are not recorded");
        return NULL;
    }
    if (ur_key_ok)
        pthread_setspecific(ur_key, s);
    ur_tls = s;
    return s;
}

static uint64_t hash_str(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u;  /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3u;
    return h;
}

static size_t cache_slot(const char *p)
{
    uintptr_t x = (uintptr_t)p;
    return (size_t)((x ^ (x >> 7) ^ (x >> 13)) & (UR_CACHE - 1));
}

/* The thread's index of `name`, interned when new; UR_NONE when the table
 * is full. */
static uint32_t intern(ur_state *s, const char *name)
{
    size_t c = cache_slot(name);
    if (s->cache[c].ptr == name && strcmp(s->names[s->cache[c].name].str, name) == 0)
        return s->cache[c].name;
    size_t len = strnlen(name, MS_MAX_NAME);
    uint64_t h = hash_str(name, len);
    size_t i = (size_t)h & (UR_TABLE - 1);
    for (; s->table[i]; i = (i + 1) & (UR_TABLE - 1)) {
        ur_name *n = &s->names[s->table[i] - 1];
        if (n->hash == h && n->len == len && memcmp(n->str, name, len) == 0) {
            s->cache[c].ptr = name;
            s->cache[c].name = s->table[i] - 1;
            return s->table[i] - 1;
        }
    }
    if (s->nnames == UR_NAMES) {
        warn_once(UR_NAMES_FULL, "more than %u region names on a thread: regions of further names are not recorded",
                  UR_NAMES);
        return UR_NONE;
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        warn_once(UR_NOMEM, "out of memory: some user regions are not recorded");
        return UR_NONE;
    }
    memcpy(copy, name, len);
    copy[len] = 0;
    uint32_t k = s->nnames++;
    s->names[k] = (ur_name){.str = copy, .len = len, .hash = h, .owner = NULL, .id = 0};
    s->table[i] = k + 1;
    /* Names cut at MS_MAX_NAME never match their pointer's string again:
     * they are found through the table. */
    if (len < MS_MAX_NAME) {
        s->cache[c].ptr = name;
        s->cache[c].name = k;
    }
    return k;
}

/* Record region `name` of s from t0 to t1 on the entered thread t. */
static void record(ms_thread *t, ur_state *s, uint32_t name, uint64_t t0, uint64_t t1)
{
    ur_name *n = &s->names[name];
    if (n->owner != t) {
        n->id = ms_region_define(t, n->str, n->len);
        n->owner = t;
    }
    ms_event(t, n->id, t0, t1);
}

void ms_user_begin(const char *name)
{
    if (!ms_runtime_allowed())
        return;
    if (!name) {
        warn_once(UR_NULL_NAME, "a user region with a NULL name is ignored");
        return;
    }
    ur_state *s = state();
    if (!s)
        return;
    if (s->depth == UR_DEPTH || s->lost) {
        warn_once(UR_DEPTH_FULL, "more than %u user regions open on a thread: the innermost are not recorded",
                  UR_DEPTH);
        s->lost++;
        return;
    }
    uint32_t k = intern(s, name);
    if (k == UR_NONE) {
        s->lost++;
        return;
    }
    s->stack[s->depth].name = k;
    s->stack[s->depth].t0 = ms_now();
    s->depth++;
}

void ms_user_end(const char *name)
{
    uint64_t t1 = ms_now();
    if (!ms_runtime_allowed())
        return;
    if (!name) {
        warn_once(UR_NULL_NAME, "a user region with a NULL name is ignored");
        return;
    }
    ur_state *s = ur_tls;
    if (s && s->lost) {
        /* Ends the innermost of the regions that were not recorded. */
        s->lost--;
        return;
    }
    uint32_t k = s ? intern(s, name) : UR_NONE;
    uint32_t at = UR_NONE;
    for (uint32_t i = s ? s->depth : 0; i-- > 0;) {
        if (s->stack[i].name == k) {
            at = i;
            break;
        }
    }
    if (k == UR_NONE || at == UR_NONE) {
        warn_once(UR_NOT_OPEN, "mpiscope_region_end or MPI_Pcontrol(-1) of region \"%.200s\", which is not open "
                               "on its thread, is ignored",
                  name);
        return;
    }
    if (at + 1 != s->depth)
        warn_once(UR_ORDER, "region \"%.200s\" ended while a region begun inside it was still open "
                            "(regions overlap instead of nesting)",
                  name);
    uint64_t t0 = s->stack[at].t0;
    memmove(&s->stack[at], &s->stack[at + 1], (s->depth - at - 1) * sizeof s->stack[0]);
    s->depth--;
    ms_thread *t = ms_enter();
    if (t) {
        record(t, s, k, t0, t1);
        ms_leave(t);
    }
}

void ms_user_close_all(ms_thread *t, uint64_t now)
{
    ur_state *s = ur_tls;
    if (!s || (!s->depth && !s->lost))
        return;
    warn_once(UR_AT_FINALIZE, "%u user region(s) still open at MPI_Finalize are closed there",
              s->depth + s->lost);
    /* Innermost first: each event is written at its end, as always. */
    while (s->depth) {
        s->depth--;
        record(t, s, s->stack[s->depth].name, s->stack[s->depth].t0, now);
    }
    s->lost = 0;
}

UR_EXPORT void mpiscope_region_begin(const char *name)
{
    ms_user_begin(name);
}

UR_EXPORT void mpiscope_region_end(const char *name)
{
    ms_user_end(name);
}
