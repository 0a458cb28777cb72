/* Matching request records to requests: see req_match.h. */
#include "req_match.h"

#include <stdlib.h>
#include <string.h>

#include "log_format.h"

#define NONE UINT32_MAX

typedef struct entry {
    uint64_t handle, where;
    uint64_t taken;       /* the call that took it last (ms_rq_call) */
    uint64_t post_ns;
    uint32_t prev, next;  /* the handle's live requests, oldest first; or
                             the free list (next) */
    uint32_t thread;
    uint8_t posted;       /* post_ns holds when it was posted (a persistent
                             request: while started) */
    uint8_t cancelled;    /* MPI_Cancel was called on it */
    uint8_t mark;         /* the caller's (ms_rq_each_unmarked) */
    ms_rq_facts f;
} entry;

/* A handle value's live requests (open addressing, linear probing). */
typedef struct slot {
    uint64_t handle;      /* 0: empty (a record never names handle 0) */
    uint32_t head, tail;
} slot;

struct ms_rq_table {
    entry *e;
    uint32_t n, cap, free_head;
    size_t live;
    slot *s;
    size_t mask, used;    /* slots - 1; slots in use */
    uint64_t call;
};

ms_rq_table *ms_rq_create(void)
{
    ms_rq_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->free_head = NONE;
    return t;
}

void ms_rq_destroy(ms_rq_table *t)
{
    if (!t)
        return;
    free(t->e);
    free(t->s);
    free(t);
}

void ms_rq_reset(ms_rq_table *t)
{
    t->n = 0;
    t->free_head = NONE;
    t->live = 0;
    if (t->s)
        memset(t->s, 0, (t->mask + 1) * sizeof *t->s);
    t->used = 0;
    t->call = 0;
}

size_t ms_rq_live(const ms_rq_table *t)
{
    return t->live;
}

void ms_rq_call(ms_rq_table *t)
{
    t->call++;
}

static size_t hash(uint64_t h)
{
    h *= 0x9e3779b97f4a7c15ull;
    return (size_t)(h ^ (h >> 29));
}

static slot *find_slot(const ms_rq_table *t, uint64_t handle)
{
    if (!t->s)
        return NULL;
    for (size_t i = hash(handle) & t->mask;; i = (i + 1) & t->mask) {
        if (t->s[i].handle == handle)
            return &t->s[i];
        if (t->s[i].handle == 0)
            return NULL;
    }
}

/* The slots rebuilt at their next size: twice as many, or as many when
 * the handle values whose requests all ended (their slots are kept, since
 * libraries give the same values again and again) make up half of them;
 * those go. */
static int grow_slots(ms_rq_table *t)
{
    size_t live = 0;
    for (size_t i = 0; t->s && i <= t->mask; i++)
        live += t->s[i].handle && t->s[i].head != NONE;
    size_t n = !t->s ? 1024 : live * 2 >= t->mask + 1 ? (t->mask + 1) * 2 : t->mask + 1;
    slot *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; t->s && i <= t->mask; i++) {
        if (!t->s[i].handle || t->s[i].head == NONE)
            continue;
        size_t j = hash(t->s[i].handle) & (n - 1);
        while (s[j].handle)
            j = (j + 1) & (n - 1);
        s[j] = t->s[i];
    }
    free(t->s);
    t->s = s;
    t->mask = n - 1;
    t->used = live;
    return 0;
}

/* The slot of a handle, made when it has none; NULL when out of memory. */
static slot *get_slot(ms_rq_table *t, uint64_t handle)
{
    slot *x = find_slot(t, handle);
    if (x)
        return x;
    if ((t->used + 1) * 4 > (t->s ? t->mask + 1 : 0) * 3 && grow_slots(t) != 0)
        return NULL;
    size_t i = hash(handle) & t->mask;
    while (t->s[i].handle)
        i = (i + 1) & t->mask;
    t->s[i] = (slot){.handle = handle, .head = NONE, .tail = NONE};
    t->used++;
    return &t->s[i];
}

int ms_rq_has(const ms_rq_table *t, uint64_t handle)
{
    const slot *x = find_slot(t, handle);
    return x && x->head != NONE;
}

/* A new live request of that handle value, the newest: its entry, linked
 * at the end of the handle's requests, for the caller to fill in (all but
 * prev and next); NULL when out of memory. */
static entry *place(ms_rq_table *t, uint64_t handle)
{
    uint32_t k;
    if (t->free_head != NONE) {
        k = t->free_head;
        t->free_head = t->e[k].next;
    } else {
        if (t->n == t->cap) {
            uint32_t cap = t->cap ? t->cap * 2 : 256;
            if (cap <= t->cap)
                return NULL;
            entry *e = realloc(t->e, (size_t)cap * sizeof *e);
            if (!e)
                return NULL;
            t->e = e;
            t->cap = cap;
        }
        k = t->n++;
    }
    slot *x = get_slot(t, handle);
    if (!x) {
        t->e[k].next = t->free_head;
        t->free_head = k;
        return NULL;
    }
    entry *e = &t->e[k];
    e->prev = x->tail;
    e->next = NONE;
    if (x->tail != NONE)
        t->e[x->tail].next = k;
    else
        x->head = k;
    x->tail = k;
    t->live++;
    return e;
}

/* A live request as its fields say; posted: post_ns holds. 0, or -1 when
 * out of memory. */
static inline int add(ms_rq_table *t, uint32_t thread, uint64_t handle, uint64_t where, int posted,
                      uint64_t post_ns, const ms_rq_facts *f, int marked)
{
    entry *e = place(t, handle);
    if (!e)
        return -1;
    e->handle = handle;
    e->where = where;
    e->taken = 0;
    e->post_ns = posted ? post_ns : 0;
    e->thread = thread;
    e->posted = (uint8_t)(posted != 0);
    e->cancelled = 0;
    e->mark = (uint8_t)(marked != 0);
    e->f = *f;
    return 0;
}

int ms_rq_new(ms_rq_table *t, uint32_t thread, uint64_t handle, uint64_t where, const ms_rq_facts *f,
              uint64_t post_ns)
{
    return add(t, thread, handle, where, !f->persistent, post_ns, f, 0);
}

int ms_rq_add(ms_rq_table *t, const ms_rq_req *r, int marked)
{
    return add(t, r->thread, r->handle, r->where, r->posted, r->post_ns, &r->f, marked);
}

static void erase(ms_rq_table *t, slot *x, uint32_t k)
{
    entry *e = &t->e[k];
    if (e->prev != NONE)
        t->e[e->prev].next = e->next;
    else
        x->head = e->next;
    if (e->next != NONE)
        t->e[e->next].prev = e->prev;
    else
        x->tail = e->prev;
    e->next = t->free_head;
    t->free_head = k;
    t->live--;
}

/* The request a record names (see req_match.h), taken for the call; NONE
 * when none is live. By preference: the newest returned to that address on
 * the same thread, the newest returned to that address, the oldest of the
 * same thread, the oldest. Walked from the newest. */
static uint32_t find(ms_rq_table *t, slot *x, uint32_t thread, uint64_t where)
{
    uint32_t best[4] = {NONE, NONE, NONE, NONE};
    for (uint32_t k = x->tail; k != NONE; k = t->e[k].prev) {
        const entry *e = &t->e[k];
        if (e->taken == t->call)
            continue;
        int rank = (e->where == where ? 0 : 2) + (e->thread == thread ? 0 : 1);
        if (rank >= 2 || best[rank] == NONE)
            best[rank] = k;
        if (rank == 0)
            break;
    }
    for (int i = 0; i < 4; i++) {
        if (best[i] != NONE) {
            t->e[best[i]].taken = t->call;
            return best[i];
        }
    }
    return NONE;
}

int ms_rq_peek(const ms_rq_table *t, uint32_t thread, uint64_t handle, uint64_t where, ms_rq_facts *f)
{
    const slot *x = handle ? find_slot(t, handle) : NULL;
    if (!x)
        return -1;
    uint32_t best[4] = {NONE, NONE, NONE, NONE};
    for (uint32_t k = x->tail; k != NONE; k = t->e[k].prev) {
        const entry *e = &t->e[k];
        int rank = (e->where == where ? 0 : 2) + (e->thread == thread ? 0 : 1);
        if (rank >= 2 || best[rank] == NONE)
            best[rank] = k;
    }
    for (int i = 0; i < 4; i++)
        if (best[i] != NONE) {
            *f = t->e[best[i]].f;
            return 0;
        }
    return -1;
}

static void fold_into(ms_rq_fold *c, uint32_t op, int64_t bytes, int64_t peer, int64_t tag, int64_t comm)
{
    if (c->n++ == 0) {
        c->req_op = op;
        c->bytes = bytes;
        c->peer = peer;
        c->tag = tag;
        c->comm = comm;
        return;
    }
    if (c->req_op != op)
        c->req_op = MS_RQ_OP_MIXED;
    if (bytes >= 0)
        c->bytes = c->bytes >= 0 ? c->bytes + bytes : bytes;
    if (c->peer != peer)
        c->peer = -1;
    if (c->tag != tag)
        c->tag = -1;
    if (c->comm != comm)
        c->comm = -1;
}

/* A status's fields as a receive reports them: values out of range say
 * nothing. */
static int64_t rank_like(int64_t v)
{
    return v >= -1 && v <= INT32_MAX ? v : -1;
}

int ms_rq_take(ms_rq_table *t, uint32_t kind, uint32_t thread, uint64_t handle, uint64_t where,
               const ms_rq_status *st, uint64_t post_ns, ms_rq_fold *fold, ms_rq_message msg[2])
{
    slot *x = find_slot(t, handle);
    uint32_t k = x && x->head != NONE ? find(t, x, thread, where) : NONE;
    int completing = kind == MS_REQ_DONE;
    const ms_rq_status *s = st && st->has ? st : NULL;
    if (k == NONE) {
        fold_into(fold, MS_RQ_OP_UNKNOWN, -1, -1, -1, -1);
        if ((kind != MS_REQ_DONE && kind != MS_REQ_START) || !msg)
            return 0;
        msg[0] = (ms_rq_message){.op = 0, .flags = kind == MS_REQ_START ? MS_MESSAGE_STARTED : 0u, .comm = -1,
                                 .peer = -1, .tag = -1, .bytes = -1, .root = -1, .post_ns = 0};
        return 1;
    }
    entry *e = &t->e[k];
    const ms_rq_facts *f = &e->f;
    int64_t bytes = f->bytes, peer = f->peer, tag = f->tag;
    int cancelled = 0;
    if (e->cancelled && s && completing) {
        cancelled = s->cancelled;
        if (f->persistent)
            /* A restart is a new operation, cancelled only if asked again. */
            e->cancelled = 0;
    }
    if (cancelled) {
        /* Nothing moved, and the status's other fields are undefined
         * (MPI 4.0, 3.8.4): the posted peer and tag stand. */
        bytes = 0;
    } else if (completing && f->dir == 1 && s && f->io) {
        /* A file read: the status says the bytes; its source and tag are
         * not defined. */
        bytes = s->bytes >= -1 ? s->bytes : -1;
    } else if (kind == MS_REQ_REF && st && st->named > 0 && f->parts > 0 && bytes >= 0) {
        /* pready*: the partitions it named, of the request's equal ones. */
        bytes = bytes / f->parts * st->named;
    } else if (completing && (f->dir == 1 || (f->dir == 2 && !e->posted)) && s) {
        /* A partitioned receive (dir 2) receives what it posted; inactive,
         * it has the empty status, as any. */
        bytes = s->bytes >= -1 ? s->bytes : -1;
        peer = rank_like(s->peer);
        tag = rank_like(s->tag);
    }
    fold_into(fold, f->op, bytes, peer, tag, f->comm);
    int nmsg = 0;
    if (kind == MS_REQ_DONE && msg) {
        uint32_t flags = (f->dir ? MS_MESSAGE_RECV : 0u) | (cancelled ? MS_MESSAGE_CANCELLED : 0u) |
                         (e->posted ? MS_MESSAGE_POSTED : 0u);
        msg[0] = (ms_rq_message){.op = f->op, .flags = flags, .comm = f->comm, .peer = peer, .tag = tag,
                                 .bytes = bytes, .root = f->root, .post_ns = e->posted ? e->post_ns : 0};
        nmsg = 1;
        if (f->pair) {
            msg[1] = msg[0];
            msg[1].flags |= MS_MESSAGE_RECV;
            msg[1].peer = -1;
            msg[1].tag = -1;
            msg[1].bytes = cancelled ? 0 : -1;
            if (!cancelled && s) {
                msg[1].bytes = s->bytes >= -1 ? s->bytes : -1;
                msg[1].peer = rank_like(s->peer);
                msg[1].tag = rank_like(s->tag);
            }
            nmsg = 2;
        }
    }
    if (kind == MS_REQ_DONE) {
        if (!f->persistent)
            erase(t, x, k);
        else
            /* Inactive until started again. */
            e->posted = 0;
    } else if (kind == MS_REQ_START) {
        e->posted = 1;
        e->post_ns = post_ns;
        if (!msg)
            return 0;
        msg[0] = (ms_rq_message){.op = f->op, .flags = MS_MESSAGE_STARTED | MS_MESSAGE_POSTED |
                                 (f->dir ? MS_MESSAGE_RECV : 0u), .comm = f->comm, .peer = f->peer,
                                 .tag = f->tag, .bytes = f->bytes, .root = f->root, .post_ns = post_ns};
        nmsg = 1;
    } else if (kind == MS_REQ_CANCEL) {
        e->cancelled = 1;
    } else if (kind == MS_REQ_FREE) {
        erase(t, x, k);
    }
    return nmsg;
}

int ms_rq_each_unmarked(ms_rq_table *t, uint32_t thread, int (*fn)(void *ctx, const ms_rq_req *r, uint8_t *mark),
                        void *ctx)
{
    for (size_t i = 0; t->s && i <= t->mask; i++) {
        for (uint32_t k = t->s[i].handle ? t->s[i].head : NONE; k != NONE; k = t->e[k].next) {
            entry *e = &t->e[k];
            if (e->mark || e->thread != thread)
                continue;
            ms_rq_req r = {.thread = e->thread, .handle = e->handle, .where = e->where, .posted = e->posted,
                           .post_ns = e->post_ns, .f = e->f};
            int rc = fn(ctx, &r, &e->mark);
            if (rc != 0)
                return rc;
        }
    }
    return 0;
}
