/* Live requests that share one handle value (request_groups.h). */
#include "request_groups.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_BYTES 4096u
#define CHUNK_SLOTS (CHUNK_BYTES / sizeof(ms_hmap_slot) - 1u)
#define BUCKETS 64u

typedef struct group group;

/* CHUNK_BYTES, aligned to them: a slot's chunk is its address rounded down. */
typedef struct chunk {
    struct chunk *prev, *next;      /* the group's chunks, oldest first */
    group *group;
    uint32_t used;                  /* slots filled, in order */
    uint32_t first;                 /* no live slot before this one */
    uint32_t live;
    char pad[sizeof(ms_hmap_slot) - 3 * sizeof(void *) - 3 * sizeof(uint32_t)];
    ms_hmap_slot slots[CHUNK_SLOTS];
} chunk;
_Static_assert(sizeof(chunk) == CHUNK_BYTES, "a chunk is its header and its slots");

struct group {
    uint64_t key;
    chunk *head, *tail;
    chunk *spare;                   /* emptied chunks, for the next entries */
    uint64_t live;
    uint64_t where;                 /* of every live entry, unless mixed */
    int mixed;
    group *next;                    /* in its bucket */
};

_Atomic int ms_reqgroup_used;
static group *buckets[BUCKETS];
static atomic_flag lock = ATOMIC_FLAG_INIT;
static uint64_t chunks;     /* allocated, under the lock */

static void take_lock(void)
{
    unsigned spins = 0;
    while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
        if (++spins % 64u == 0)
            sched_yield();
}

static void drop_lock(void)
{
    atomic_flag_clear_explicit(&lock, memory_order_release);
}

static group **bucket_of(uint64_t key)
{
    return &buckets[ms_hmap_mix(key) % BUCKETS];
}

static group *lookup(uint64_t key)
{
    for (group *g = *bucket_of(key); g; g = g->next)
        if (g->key == key)
            return g;
    return NULL;
}

static chunk *chunk_of(const ms_hmap_slot *slot)
{
    return (chunk *)((uintptr_t)slot & ~(uintptr_t)(CHUNK_BYTES - 1u));
}

static uint64_t slot_key(const ms_hmap_slot *s)
{
    return atomic_load_explicit(&s->key, memory_order_relaxed);
}

/* A chunk at the group's end: a spare one, else a new one. */
static chunk *append_chunk(group *g)
{
    chunk *c = g->spare;
    if (c)
        g->spare = c->next;
    else if (!(c = aligned_alloc(CHUNK_BYTES, CHUNK_BYTES)))
        return NULL;
    else
        chunks++;
    memset(c, 0, offsetof(chunk, slots));
    c->group = g;
    c->prev = g->tail;
    if (g->tail)
        g->tail->next = c;
    else
        g->head = c;
    g->tail = c;
    return c;
}

ms_hmap_slot *ms_reqgroup_add(uint64_t key, const void *value, size_t len)
{
    if (key <= MS_HMAP_BUSY || len > MS_HMAP_VALUE || len < 2 * sizeof(uint64_t))
        return NULL;
    take_lock();
    group *g = lookup(key);
    if (!g) {
        if (!(g = calloc(1, sizeof *g))) {
            drop_lock();
            return NULL;
        }
        g->key = key;
        group **b = bucket_of(key);
        g->next = *b;
        *b = g;
    }
    chunk *c = g->tail;
    if ((!c || c->used == CHUNK_SLOTS) && !(c = append_chunk(g))) {
        drop_lock();
        return NULL;
    }
    ms_hmap_slot *s = &c->slots[c->used++];
    memcpy(s->value, value, len);
    if (len < sizeof s->value)
        memset((char *)s->value + len, 0, sizeof s->value - len);
    atomic_store_explicit(&s->key, key, memory_order_relaxed);
    c->live++;
    uint64_t where = s->value[MS_REQGROUP_WHERE];
    if (g->live++ == 0) {
        g->where = where;
        g->mixed = 0;
    } else if (where != g->where) {
        g->mixed = 1;
    }
    drop_lock();
    if (!atomic_load_explicit(&ms_reqgroup_used, memory_order_relaxed))
        atomic_store_explicit(&ms_reqgroup_used, 1, memory_order_relaxed);
    return s;
}

ms_hmap_slot *ms_reqgroup_find(uint64_t key, uint64_t where, uint64_t token, int any)
{
    ms_hmap_slot *found = NULL, *oldest = NULL;
    take_lock();
    group *g = lookup(key);
    /* When every live entry was returned to one other address, none is
     * returned to this one: the oldest is the answer. */
    int by_where = g && (g->mixed || g->where == where);
    for (chunk *c = g && g->live ? g->head : NULL; c && !found; c = c->next) {
        if (!c->live)
            continue;
        for (uint32_t i = c->first; i < c->used; i++) {
            ms_hmap_slot *s = &c->slots[i];
            if (slot_key(s) != key || (token && s->value[MS_REQGROUP_CLAIM] == token))
                continue;
            if (!oldest)
                oldest = s;
            if (by_where && s->value[MS_REQGROUP_WHERE] == where) {
                found = s;
                break;
            }
            if (!by_where)
                break;
        }
        if (!by_where && oldest)
            break;
    }
    if (!found && any)
        found = oldest;
    if (found && token)
        found->value[MS_REQGROUP_CLAIM] = token;
    drop_lock();
    return found;
}

void ms_reqgroup_erase(ms_hmap_slot *slot)
{
    chunk *c = chunk_of(slot);
    take_lock();
    group *g = c->group;
    if (slot_key(slot) != g->key) {
        drop_lock();
        return;
    }
    atomic_store_explicit(&slot->key, MS_HMAP_DELETED, memory_order_relaxed);
    c->live--;
    g->live--;
    while (c->first < c->used && slot_key(&c->slots[c->first]) != g->key)
        c->first++;
    if (!c->live) {
        if (c->used < CHUNK_SLOTS) {
            /* The last chunk, being filled: filled again from its start. */
            c->used = c->first = 0;
        } else {
            /* Full and empty: a spare. */
            if (c->prev)
                c->prev->next = c->next;
            else
                g->head = c->next;
            if (c->next)
                c->next->prev = c->prev;
            else
                g->tail = c->prev;
            c->next = g->spare;
            g->spare = c;
        }
    }
    drop_lock();
}

uint64_t ms_reqgroup_live(uint64_t key)
{
    take_lock();
    group *g = lookup(key);
    uint64_t n = g ? g->live : 0;
    drop_lock();
    return n;
}

uint64_t ms_reqgroup_chunks(void)
{
    take_lock();
    uint64_t n = chunks;
    drop_lock();
    return n;
}
