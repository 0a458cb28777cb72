/*
 * One intercepted call, as the wrappers describe it, and its recording: the
 * call's fields and its call site are interned per thread into a region id
 * (a hash of a few integers, never of a string), then appended as one event.
 */
#ifndef MPISCOPE_CALL_RECORD_H
#define MPISCOPE_CALL_RECORD_H

#include <stdint.h>
#include <string.h>

#include "messages.h"
#include "pmpi_ops.h"
#include "../preload/tstate.h"
#include "pmpi_collector.h"

typedef struct ms_call {
    uint16_t op;       /* enum ms_op */
    uint16_t req_op;   /* completion calls: op of the completed requests, MS_OP_MIXED,
                          MS_OP_UNKNOWN; MS_OP_NONE when nothing completed */
    int32_t peer;      /* -1: none */
    int32_t root;      /* -1: none */
    int32_t tag;       /* -1: none */
    int64_t bytes;     /* -1: not applicable or unknown */
    int64_t comm;      /* -1: none */
    uint64_t site;     /* call site key (callsite.h); 0: none */
    int32_t file;      /* MPI-IO: the file's id (its file record); -1: none */
    uint32_t unused;   /* 0 */
} ms_call;
_Static_assert(sizeof(ms_call) == 48, "ms_call has no padding");

MS_HOT ms_call ms_call_init(uint16_t op)
{
    ms_call c = {.op = op, .req_op = MS_OP_NONE, .peer = -1, .root = -1, .tag = -1, .bytes = -1, .comm = -1, .site = 0, .file = -1, .unused = 0};
    return c;
}

/* The call c, begun at t0 and returning to ra, is what thread t is inside
 * until ms_leave (for the ending blocks, preload/ending.h); peer and tag are
 * those it waits for (a receive's source and tag before its status), and
 * req_count the requests a completion call was given (ms_call_begin_reqs,
 * pmpi/requests.h, stores them first). The time, stored last, publishes
 * the rest. */
MS_HOT void ms_call_publish(ms_thread *t, const ms_call *c, uint64_t t0, void *ra, int32_t peer, int32_t tag,
                            uint32_t req_count)
{
    t->in_call.pc = (uint64_t)(uintptr_t)ra;
    t->in_call.comm = c->comm;
    t->in_call.op = c->op;
    t->in_call.peer = peer;
    t->in_call.tag = tag;
    t->in_call.root = c->root;
    t->in_call.req_count = req_count;
    atomic_store_explicit(&t->in_since, t0 ? t0 : 1, memory_order_release);
}

MS_HOT void ms_call_begin(ms_thread *t, const ms_call *c, uint64_t t0, void *ra, int32_t peer, int32_t tag)
{
    ms_call_publish(t, c, t0, ra, peer, tag, 0);
}

/* Per-thread cache from calls to region ids (open addressing). */
#define MS_CALL_CACHE_BITS 12u
#define MS_CALL_CACHE_SLOTS (1u << MS_CALL_CACHE_BITS)

typedef struct ms_call_entry {
    ms_call key;
    uint32_t id;
    uint32_t used;
    uint64_t pad;      /* 64 bytes: an index is a shift */
} ms_call_entry;
_Static_assert(sizeof(ms_call_entry) == 64, "ms_call_entry is one cache line");

/* The latest calls of each op are kept apart, one per low bits of peer
 * xor tag: a loop whose calls of one op alternate between a few peers or
 * tags (a halo exchange) finds each with one comparison. */
#define MS_CALL_LAST_WAYS 4u

typedef struct ms_call_cache {
    uint32_t count;
    ms_call_entry last[MS_OP_TABLE_SIZE][MS_CALL_LAST_WAYS];   /* the latest calls of each op */
    ms_call_entry e[MS_CALL_CACHE_SLOTS];
} ms_call_cache;

/* The entry of the latest calls of c's op that c would be. */
MS_HOT ms_call_entry *ms_call_last(ms_call_cache *k, const ms_call *c)
{
    return &k->last[c->op < MS_OP_TABLE_SIZE ? c->op : 0][(uint32_t)(c->peer ^ c->tag) & (MS_CALL_LAST_WAYS - 1u)];
}

/* The region id of a call seen for the first time on this thread (or no
 * cache yet): defined now. */
MS_HIDDEN uint32_t ms_call_id_new(ms_thread *t, const ms_call *c);

MS_HOT uint64_t ms_call_hash(const ms_call *c)
{
    uint64_t w[6];
    memcpy(w, c, sizeof w);
    uint64_t h = w[0] * 0x9e3779b97f4a7c15ull ^ w[1] * 0xc2b2ae3d27d4eb4full ^ w[2] * 0x165667b19e3779f9ull ^
                 w[3] * 0x85ebca77c2b2ae63ull ^ w[4] * 0x27d4eb2f165667c5ull ^ w[5] * 0x94d049bb133111ebull;
    return h ^ (h >> 32);
}

MS_HOT int ms_call_same(const ms_call *a, const ms_call *b)
{
    return a->op == b->op && a->req_op == b->req_op && a->peer == b->peer && a->root == b->root &&
           a->tag == b->tag && a->bytes == b->bytes && a->comm == b->comm && a->site == b->site &&
           a->file == b->file;
}

/* The cache slot of c: its entry, or the free slot where it belongs. */
MS_HOT uint32_t ms_call_slot(const ms_call_cache *k, const ms_call *c)
{
    uint32_t i = (uint32_t)ms_call_hash(c) & (MS_CALL_CACHE_SLOTS - 1);
    while (k->e[i].used && !ms_call_same(&k->e[i].key, c))
        i = (i + 1) & (MS_CALL_CACHE_SLOTS - 1);
    return i;
}

/* The thread-local region id of the call. A call like the previous one of
 * its op with the same low bits of peer xor tag (a loop) is one
 * comparison; another known call a hash of six words and a probe. */
MS_HOT uint32_t ms_call_id(ms_thread *t, const ms_call *c)
{
    ms_call_cache *k = t->slot[ms_pmpi_slot_calls];
    if (MS_LIKELY(k != NULL)) {
        ms_call_entry *last = ms_call_last(k, c);
        if (MS_LIKELY(last->used && ms_call_same(&last->key, c)))
            return last->id;
        uint32_t i = ms_call_slot(k, c);
        if (k->e[i].used) {
            *last = k->e[i];
            return k->e[i].id;
        }
    }
    return ms_call_id_new(t, c);
}

/* Record the call as one event from t0 to t1. */
MS_HOT void ms_call_record(ms_thread *t, const ms_call *c, uint64_t t0, uint64_t t1)
{
    ms_event(t, ms_call_id(t, c), t0, t1);
}

/* The same for a call that staged message records (messages.h): they are
 * written right before its event, after the definition of its region. */
MS_HOT void ms_call_record_msgs(ms_thread *t, const ms_call *c, uint64_t t0, uint64_t t1)
{
    uint32_t id = ms_call_id(t, c);
    ms_msg_stage *s = &ms_msg_tls;
    if (MS_LIKELY(s->len > 0 && !s->over)) {
        ms_event_pre(t, s->buf, s->len, id, t0, t1);
        s->len = 0;
        return;
    }
    s->len = 0;
    s->over = 0;
    ms_event(t, id, t0, t1);
}

/* The canonical region name of a call (DESIGN §4); returns its length. */
MS_HIDDEN size_t ms_call_name(const ms_call *c, char *buf, size_t cap);

#endif
