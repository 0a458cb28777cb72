/*
 * Request records (docs/FORMAT.md "Requests") in the writer thread.
 *
 * Summary mode matches them as the merge's reader does
 * (common/req_records.h), so that a completion call is counted under the
 * name that reports what it completed, and the application's path records
 * the same raw facts in both modes. A completion's name is a region of the
 * writer's own, with a thread-local id from MS_SUMRQ_ID_BASE on (the
 * application's ids stay below it), defined in the snapshot like any
 * region.
 *
 * A trace on a full disk (fallback.h) folds what it cannot write with the
 * same code; while its records are written it only follows them, cheaply:
 * the live requests created are kept by handle and address (every one, so
 * that a fold that begins later knows the requests created before it), and
 * the table of live requests is used only once a fold has begun.
 *
 * A thread's records are kept until its next event that is not a tool's.
 */
#ifndef MPISCOPE_SUMMARY_REQUESTS_H
#define MPISCOPE_SUMMARY_REQUESTS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/log_format.h"
#include "../common/req_records.h"
#include "records.h"

#define MS_SUMRQ_ID_BASE (1u << 20)

typedef struct ms_sumrq_name {
    ms_region_info *info; /* an MPI region's fields, else NULL */
    int is_tool;
    ms_rq_facts facts;    /* of a request an event of it creates */
} ms_sumrq_name;

typedef struct ms_sumrq_thread {
    ms_rq_record *pend;   /* records kept until the next event */
    size_t npend, pend_cap;
    uint64_t where;       /* the latest record's handle address */
    ms_sumrq_name *names; /* by the application's region id */
    uint32_t nnames;
    ms_rq_names derived;  /* (region id, fold) -> the writer's region */
    uint32_t nderived;
} ms_sumrq_thread;

typedef struct ms_sumrq_recent ms_sumrq_recent;

/* The process's requests. */
typedef struct ms_sumrq {
    ms_rq_table *rq;
    ms_sumrq_recent *recent;  /* following: the live requests created, by
                                 handle and address (open addressing) */
    size_t recent_mask, recent_used, recent_limit;   /* limit: 3/4 of the slots */
    int folded;               /* a fold applied records: the table is in use */
    int followed;             /* recent may hold requests */
} ms_sumrq;

/* 0, or -1 when out of memory. */
int ms_sumrq_init(ms_sumrq *g);
void ms_sumrq_release(ms_sumrq *g);
void ms_sumrq_free(ms_sumrq_thread *q);

/* A region definition of the thread: its name is kept when MPI's or the
 * tool's. 0, or -1 when out of memory. */
int ms_sumrq_define(ms_sumrq_thread *q, uint64_t id, const char *name, size_t len);

/* One request record after its head at *pp (advanced past it), kept for
 * the thread's next event (following: only what a follow needs). 0; -1
 * for a record this writer cannot read or no memory. */
int ms_sumrq_record(ms_sumrq *g, ms_sumrq_thread *q, const uint8_t **pp, const uint8_t *end, int following);

/* Keep a record for the thread's next event. 0, or -1 when out of memory. */
int ms_sumrq_keep(ms_sumrq_thread *q, const ms_rq_record *rec);

struct ms_sumrq_recent {
    uint64_t handle;      /* 0: empty */
    uint64_t where, post;   /* post: the creating call's start (log clock) */
    uint32_t thread;
    ms_rq_facts facts;
};
#define MS_SUMRQ_RECENT 1024u   /* slots at first; they grow, never drop */

static inline size_t ms_sumrq_recent_home(const ms_sumrq *g, uint64_t handle, uint64_t where)
{
    uint64_t h = (handle ^ where * 0xc2b2ae3d27d4eb4full) * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 32) & g->recent_mask;
}

/* The followed request of that handle and address, or NULL. */
static inline ms_sumrq_recent *ms_sumrq_recent_find(const ms_sumrq *g, uint64_t handle, uint64_t where)
{
    for (size_t i = ms_sumrq_recent_home(g, handle, where);; i = (i + 1) & g->recent_mask) {
        ms_sumrq_recent *e = &g->recent[i];
        if (e->handle == handle && e->where == where)
            return e;
        if (e->handle == 0)
            return NULL;
    }
}

/* The same when the slots are full enough to grow first. */
ms_sumrq_recent *ms_sumrq_recent_put_grown(ms_sumrq *g, uint64_t handle, uint64_t where);

/* The slot of a request created while following, taken (its fields to
 * fill; one of the same handle and address is replaced); NULL when out of
 * memory. */
static inline ms_sumrq_recent *ms_sumrq_recent_put(ms_sumrq *g, uint64_t handle, uint64_t where)
{
    ms_sumrq_recent *e;
    for (size_t i = ms_sumrq_recent_home(g, handle, where);; i = (i + 1) & g->recent_mask) {
        e = &g->recent[i];
        if (e->handle == 0)
            break;
        if (e->handle == handle && e->where == where)
            return e;
    }
    if (__builtin_expect(g->recent_used >= g->recent_limit, 0))
        return ms_sumrq_recent_put_grown(g, handle, where);
    g->recent_used++;
    e->handle = handle;
    e->where = where;
    return e;
}

/* A followed request gone: its slot freed (linear probing's deletion:
 * later slots of the run move back into the hole when their home allows
 * it). */
static inline void ms_sumrq_recent_drop(ms_sumrq *g, ms_sumrq_recent *e)
{
    size_t mask = g->recent_mask, i = (size_t)(e - g->recent);
    for (size_t j = (i + 1) & mask; g->recent[j].handle; j = (j + 1) & mask) {
        size_t k = ms_sumrq_recent_home(g, g->recent[j].handle, g->recent[j].where);
        if (((j - k) & mask) >= ((j - i) & mask)) {
            g->recent[i] = g->recent[j];
            i = j;
        }
    }
    g->recent[i].handle = 0;
    g->recent_used--;
}

/* A request that ends (completed and not persistent, or freed) while
 * following: forgotten. */
static inline void ms_sumrq_forget(ms_sumrq *g, uint32_t kind, uint64_t handle, uint64_t where)
{
    if (kind != MS_REQ_DONE && kind != MS_REQ_FREE)
        return;
    ms_sumrq_recent *e = ms_sumrq_recent_find(g, handle, where);
    if (e && (kind == MS_REQ_FREE || !e->facts.persistent))
        ms_sumrq_recent_drop(g, e);
}

/* Following before any fold (the table not in use): one record after its
 * head at p, whole before the end of its buffer (MS_REQUEST_REC_MAX bytes
 * or more): a created request kept for its event; a request that ends
 * (completed, not persistent; freed) forgotten. Returns past it; NULL when
 * out of memory. */
static inline const uint8_t *ms_sumrq_follow_record(ms_sumrq *g, ms_sumrq_thread *q, const uint8_t *p)
{
    ms_rq_record r;
    p = ms_rq_read_in(p, &q->where, &r);
    uint32_t kind = r.what & MS_REQ_KIND_MASK;
    if (kind == MS_REQ_NEW)
        return ms_sumrq_keep(q, &r) == 0 ? p : NULL;
    ms_sumrq_forget(g, kind, r.handle, r.where);
    return p;
}

/* At an event of region `id` that started at post (the log clock, as
 * every time of the table): the kept records
 * applied. Returns 0 when the event keeps its region (records, if any,
 * stay kept past a tool's event), 1 when it is counted under the writer's
 * region *derived instead (a new one: *name, *len set for its definition,
 * NUL-terminated in name[cap]), -1 when out of memory. */
int ms_sumrq_apply(ms_sumrq *g, ms_sumrq_thread *q, uint32_t thread, uint64_t id, uint64_t post,
                   uint32_t *derived, char *name, size_t cap, size_t *len);

/* The same while following (nothing counted). 0, or -1 when out of
 * memory. */
int ms_sumrq_follow(ms_sumrq *g, ms_sumrq_thread *q, uint32_t thread, uint64_t id, uint64_t post);

/* Where thread `thread` (its records q)'s trace goes on after a gap: the
 * requests it created in the gap (folded) that are live, as carried
 * request records (records.h), each once, then a base record for the
 * address its next request record is relative to, through emit. 0, or
 * emit's error. */
int ms_sumrq_carry(ms_sumrq *g, const ms_sumrq_thread *q, uint32_t thread,
                   int (*emit)(void *ctx, uint32_t thread, const uint8_t *p, size_t n), void *ctx);

#endif
