/*
 * The run's logs -> OTF2 events of their locations (one per thread).
 *
 * Each rank's calls, from the replay of the timeline (timeline_replay.h),
 * are held in memory (one rank at a time), with the message records (docs/FORMAT.md "Messages") that name the requests each
 * call completed, put on the common clock and sorted by start (longer
 * first at equal starts). Then:
 *
 * 1. Requests, in that order over all the rank's threads (requests belong to
 *    the process). Each isend/irecv opens a request, filed in a hash under
 *    the start of the call that created it (its log clock) and its
 *    direction; a completion call's message records say when each request
 *    it completed was posted, which finds it in one look-up (the oldest
 *    open one of that time and direction): the whole matching is linear in
 *    the calls. A completed send gives MpiIsend in its creating call and
 *    MpiIsendComplete in the completion; a completed receive
 *    MpiIrecvRequest and MpiIrecv with the source, tag and bytes its
 *    record gives (the status). A cancelled request, one that no call
 *    completes (a send keeps its MpiIsend) and a receive whose source is
 *    unknown get no completion events; logs without message records
 *    (format versions 1 to 4) give no request events at all.
 * 2. Events, per thread, as a properly nested Enter/Leave sequence (a call
 *    that overlaps the one enclosing it without ending inside it is cut at
 *    the enclosing call's end): MpiSend, MpiIsend, MpiIrecvRequest and
 *    MpiCollectiveBegin right after the Enter; MpiRecv, MpiIrecv,
 *    MpiIsendComplete and MpiCollectiveEnd right before the Leave.
 *
 * A window (window.h) keeps the calls inside it; a request's events are
 * kept when both its creating and its completing call are.
 */
/* Built only with libotf2 (report_otf2.c says what happens without it). */
#ifdef MS_HAVE_OTF2

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../reduce/p2p_facts.h"
#include "report_otf2_events.h"
#include "../timeline_replay.h"

enum act_type { ACT_SEND, ACT_RECV, ACT_ISEND, ACT_ISEND_DONE, ACT_IRECV_REQ, ACT_IRECV_DONE, ACT_COLL };

typedef struct call {
    uint64_t start, end;
    uint64_t post;      /* start on the log's clock: what message records name */
    uint32_t thread;
    uint32_t region;    /* index into x->regions */
    int kept;           /* inside the window */
    size_t seq;         /* order in the log, to keep the sort stable */
    size_t msg, nmsg;   /* its message records: msgs[msg .. msg + nmsg) */
} call;

typedef struct action {
    size_t call;        /* index into the sorted calls */
    size_t seq;         /* creation order, to keep the sort stable */
    enum act_type type;
    uint64_t req;
    uint32_t peer, tag;
    OTF2_CommRef comm;
    uint64_t bytes;
} action;

typedef struct request {
    size_t call;        /* the creating call (sorted index) */
    uint64_t key;       /* post time * 2 + receive */
    size_t next;        /* next request in its hash bucket */
    int open;
} request;

#define NONE SIZE_MAX

typedef struct rank_ctx {
    ms_otf2 *x;
    char *err;
    size_t errlen;
    size_t ncalls, capcalls;
    call *calls;
    size_t nmsgs, capmsgs;
    ms_read_message *msgs;
    int facts_on;            /* the log has message records */
    size_t nacts, capacts;
    action *acts;
    size_t nreqs, capreqs;
    request *reqs;
    size_t *buckets;    /* hash of the open requests by key */
    size_t nbuckets;
    int nomem;
} rank_ctx;

#define GROW(ptr, n, cap, first)                                                                  \
    ((n) < (cap) ? 0 : grow((void **)&(ptr), &(cap), sizeof *(ptr), (first)))

static int grow(void **p, size_t *cap, size_t size, size_t first)
{
    size_t n = *cap ? 2 * *cap : first;
    void *q = realloc(*p, n * size);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

static int on_call(void *ctx, const ms_replay_call *k)
{
    rank_ctx *c = ctx;
    /* A name the run does not know (it cannot happen for a log the
     * reduction read) drops its calls. */
    if (!k->run_region)
        return 0;
    if (GROW(c->calls, c->ncalls, c->capcalls, 1024) != 0) {
        c->nomem = 1;
        return -1;
    }
    c->facts_on = k->messages;
    call *q = &c->calls[c->ncalls];
    *q = (call){.start = (uint64_t)k->start_abs,
                .end = (uint64_t)k->end_abs,
                .post = k->ev->start_ns,
                .thread = k->thread,
                .region = (uint32_t)(k->run_region - c->x->run->regions),
                .kept = k->kept,
                .seq = c->ncalls,
                .msg = c->nmsgs};
    c->ncalls++;
    /* The records of an MPI call. */
    if (!k->run_region->is_mpi)
        return 0;
    for (size_t i = 0; i < k->nmsgs; i++) {
        if (GROW(c->msgs, c->nmsgs, c->capmsgs, 256) != 0) {
            c->nomem = 1;
            return -1;
        }
        c->msgs[c->nmsgs++] = k->msgs[i];
    }
    q = &c->calls[c->ncalls - 1];
    q->nmsg = k->nmsgs;
    return 0;
}

static int on_comm(void *ctx, uint32_t thread, uint64_t id, const int32_t *world_ranks, uint32_t n)
{
    (void)thread;
    rank_ctx *c = ctx;
    if (ms_otf2_comm_add(c->x, (int64_t)id, world_ranks, n) != 0) {
        c->nomem = 1;
        return -1;
    }
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const call *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end > y->end ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static int by_call(const void *a, const void *b)
{
    const action *x = a, *y = b;
    if (x->call != y->call)
        return x->call < y->call ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static ms_otf2_region *region_of(rank_ctx *c, const call *k)
{
    ms_otf2_region *r = &c->x->regions[k->region];
    if (!r->comm_resolved && r->region->info.is_mpi && r->region->info.comm >= 0) {
        r->comm = ms_otf2_comm_ref(c->x, r->region->info.comm);
        r->comm_resolved = r->comm != OTF2_UNDEFINED_COMM;
    }
    return r;
}

static int add_action(rank_ctx *c, size_t callix, enum act_type type, uint64_t req, int64_t peer, int64_t tag,
                      OTF2_CommRef comm, int64_t bytes)
{
    if (GROW(c->acts, c->nacts, c->capacts, 1024) != 0)
        return -1;
    c->acts[c->nacts] = (action){.call = callix,
                                 .seq = c->nacts,
                                 .type = type,
                                 .req = req,
                                 .peer = peer >= 0 ? (uint32_t)peer : OTF2_UNDEFINED_UINT32,
                                 .tag = tag >= 0 ? (uint32_t)tag : OTF2_UNDEFINED_UINT32,
                                 .comm = comm,
                                 .bytes = bytes > 0 ? (uint64_t)bytes : 0};
    c->nacts++;
    return 0;
}

/* The hash of open requests: buckets of chains, newest first. */
static size_t bucket_of(const rank_ctx *c, uint64_t key)
{
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9ull;
    key ^= key >> 32;
    return (size_t)(key & (c->nbuckets - 1));
}

static int open_request(rank_ctx *c, size_t k, int recv)
{
    if (GROW(c->reqs, c->nreqs, c->capreqs, 256) != 0)
        return -1;
    uint64_t key = c->calls[k].post * 2 + (uint64_t)recv;
    size_t b = bucket_of(c, key);
    c->reqs[c->nreqs] = (request){.call = k, .key = key, .next = c->buckets[b], .open = 1};
    c->buckets[b] = c->nreqs++;
    return 0;
}

/* The oldest open request of key, closed; NONE when there is none. */
static size_t take_request(rank_ctx *c, uint64_t key)
{
    size_t found = NONE;
    for (size_t i = c->buckets[bucket_of(c, key)]; i != NONE; i = c->reqs[i].next)
        if (c->reqs[i].open && c->reqs[i].key == key)
            found = i;
    if (found != NONE)
        c->reqs[found].open = 0;
    return found;
}

/* The MpiIsend of a request created by call q (its region's fields). */
static int add_isend(rank_ctx *c, size_t q, uint64_t id)
{
    const ms_otf2_region *r = &c->x->regions[c->calls[q].region];
    const ms_region_info *in = &r->region->info;
    return add_action(c, q, ACT_ISEND, id, in->peer, in->tag, r->comm, in->bytes);
}

/* The requests that call k's message records say it completed. */
static int complete(rank_ctx *c, size_t k)
{
    const call *kc = &c->calls[k];
    for (size_t i = kc->msg; i < kc->msg + kc->nmsg; i++) {
        const ms_read_message *m = &c->msgs[i];
        if (!(m->flags & MS_MSG_POSTED) || (m->flags & MS_MSG_STARTED))
            continue;
        int recv = (m->flags & MS_MSG_RECV) != 0;
        size_t q = take_request(c, m->post_ns * 2 + (uint64_t)recv);
        if (q == NONE)
            continue;   /* not an isend or irecv: persistent, collective */
        size_t from = c->reqs[q].call;
        const ms_otf2_region *r = &c->x->regions[c->calls[from].region];
        if ((m->flags & MS_MSG_CANCELLED) || r->comm == OTF2_UNDEFINED_COMM)
            continue;
        if (recv && m->peer < 0) {
            c->x->unmatched++;
            continue;
        }
        if (!c->calls[from].kept || !kc->kept)
            continue;
        int rc = recv ? add_action(c, from, ACT_IRECV_REQ, q, 0, 0, r->comm, 0) |
                            add_action(c, k, ACT_IRECV_DONE, q, m->peer, m->tag, r->comm, m->bytes)
                      : add_isend(c, from, q) | add_action(c, k, ACT_ISEND_DONE, q, 0, 0, r->comm, 0);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Pass 1: the message and collective records of every call. */
static int match(rank_ctx *c)
{
    size_t ncreate = 0;
    for (size_t k = 0; k < c->ncalls; k++) {
        ms_otf2_class cls = c->x->regions[c->calls[k].region].cls;
        ncreate += cls == MS_OTF2_ISEND || cls == MS_OTF2_IRECV;
    }
    for (c->nbuckets = 64; c->nbuckets < 2 * ncreate; c->nbuckets *= 2)
        ;
    if (!(c->buckets = malloc(c->nbuckets * sizeof *c->buckets)))
        return -1;
    for (size_t i = 0; i < c->nbuckets; i++)
        c->buckets[i] = NONE;
    for (size_t k = 0; k < c->ncalls; k++) {
        ms_otf2_region *r = region_of(c, &c->calls[k]);
        const ms_region_info *in = &r->region->info;
        int known = r->comm != OTF2_UNDEFINED_COMM, kept = c->calls[k].kept;
        int rc = 0;
        switch (r->cls) {
        case MS_OTF2_SEND:
        case MS_OTF2_RECV:
            if (kept && known && in->peer >= 0)
                rc = add_action(c, k, r->cls == MS_OTF2_SEND ? ACT_SEND : ACT_RECV, 0, in->peer, in->tag, r->comm,
                                in->bytes);
            break;
        case MS_OTF2_ISEND:
        case MS_OTF2_IRECV:
            if (c->facts_on && (r->cls == MS_OTF2_IRECV || in->peer >= 0))
                rc = open_request(c, k, r->cls == MS_OTF2_IRECV);
            break;
        case MS_OTF2_COLLECTIVE:
            if (kept && known)
                rc = add_action(c, k, ACT_COLL, 0, in->root, 0, r->comm, in->bytes);
            break;
        default:
            break;
        }
        if (rc == 0 && c->calls[k].nmsg)
            rc = complete(c, k);
        if (rc != 0)
            return -1;
    }
    /* A send that no call completed keeps its MpiIsend. */
    for (size_t i = 0; i < c->nreqs; i++) {
        const request *q = &c->reqs[i];
        if (!q->open || c->x->regions[c->calls[q->call].region].comm == OTF2_UNDEFINED_COMM)
            continue;
        c->x->unmatched++;
        if (!(q->key & 1) && c->calls[q->call].kept && add_isend(c, q->call, i) != 0)
            return -1;
    }
    if (c->nacts)
        qsort(c->acts, c->nacts, sizeof *c->acts, by_call);
    return 0;
}

static int is_leave_side(enum act_type t)
{
    return t == ACT_RECV || t == ACT_ISEND_DONE || t == ACT_IRECV_DONE || t == ACT_COLL;
}

/* The events of call k on one side (enter: after Enter; else before Leave). */
static OTF2_ErrorCode emit_actions(rank_ctx *c, OTF2_EvtWriter *w, size_t k, size_t *a, int enter, uint64_t ts)
{
    OTF2_ErrorCode e = OTF2_SUCCESS;
    for (size_t i = *a; i < c->nacts && c->acts[i].call == k && e == OTF2_SUCCESS; i++) {
        const action *p = &c->acts[i];
        int leave = is_leave_side(p->type);
        if (p->type == ACT_COLL) {
            if (enter)
                e = OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, ts);
            else
                e = OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, ts, c->x->regions[c->calls[k].region].coll, p->comm,
                                                    p->peer, p->bytes, 0);
            continue;
        }
        if (leave == enter)
            continue;
        switch (p->type) {
        case ACT_SEND:
            e = OTF2_EvtWriter_MpiSend(w, NULL, ts, p->peer, p->comm, p->tag, p->bytes);
            break;
        case ACT_RECV:
            e = OTF2_EvtWriter_MpiRecv(w, NULL, ts, p->peer, p->comm, p->tag, p->bytes);
            break;
        case ACT_ISEND:
            e = OTF2_EvtWriter_MpiIsend(w, NULL, ts, p->peer, p->comm, p->tag, p->bytes, p->req);
            break;
        case ACT_ISEND_DONE:
            e = OTF2_EvtWriter_MpiIsendComplete(w, NULL, ts, p->req);
            break;
        case ACT_IRECV_REQ:
            e = OTF2_EvtWriter_MpiIrecvRequest(w, NULL, ts, p->req);
            break;
        case ACT_IRECV_DONE:
            e = OTF2_EvtWriter_MpiIrecv(w, NULL, ts, p->peer, p->comm, p->tag, p->bytes, p->req);
            break;
        default:
            break;
        }
    }
    if (!enter)
        while (*a < c->nacts && c->acts[*a].call == k)
            (*a)++;
    return e;
}

/* Pass 2: the calls of one thread (indices `ix`, in start order). */
static OTF2_ErrorCode emit_thread(rank_ctx *c, OTF2_EvtWriter *w, const size_t *ix, size_t n, size_t *stack,
                                  size_t *acursor)
{
    OTF2_ErrorCode e = OTF2_SUCCESS;
    size_t depth = 0;
    for (size_t i = 0; i <= n && e == OTF2_SUCCESS; i++) {
        call *k = i < n ? &c->calls[ix[i]] : NULL;
        while (depth > 0 && e == OTF2_SUCCESS && (!k || c->calls[stack[depth - 1]].end <= k->start)) {
            size_t t = stack[--depth];
            e = emit_actions(c, w, t, &acursor[t], 0, c->calls[t].end);
            if (e == OTF2_SUCCESS)
                e = OTF2_EvtWriter_Leave(w, NULL, c->calls[t].end, c->x->regions[c->calls[t].region].ref);
            if (c->calls[t].end > c->x->last_ts)
                c->x->last_ts = c->calls[t].end;
        }
        if (!k || e != OTF2_SUCCESS)
            break;
        if (depth > 0 && k->end > c->calls[stack[depth - 1]].end)
            k->end = c->calls[stack[depth - 1]].end;
        e = OTF2_EvtWriter_Enter(w, NULL, k->start, c->x->regions[k->region].ref);
        if (e == OTF2_SUCCESS)
            e = emit_actions(c, w, ix[i], &acursor[ix[i]], 1, k->start);
        stack[depth++] = ix[i];
    }
    return e;
}

/* Every thread's calls into its location's events. */
static int emit(rank_ctx *c, const ms_rank_info *in, char *err, size_t errlen)
{
    size_t *ix = malloc((c->ncalls + 1) * sizeof *ix);
    size_t *stack = malloc((c->ncalls + 1) * sizeof *stack);
    size_t *cursor = malloc((c->ncalls + 1) * sizeof *cursor);
    int rc = -1;
    if (!ix || !stack || !cursor) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    /* Where each call's actions begin (acts are sorted by call). */
    for (size_t k = 0, a = 0; k < c->ncalls; k++) {
        while (a < c->nacts && c->acts[a].call < k)
            a++;
        cursor[k] = a;
    }
    /* Threads in ascending order; thread 0 always (the world's locations). */
    uint32_t thread = 0;
    for (;;) {
        size_t n = 0;
        uint32_t next = UINT32_MAX;
        for (size_t k = 0; k < c->ncalls; k++) {
            if (c->calls[k].thread == thread) {
                if (c->calls[k].kept)
                    ix[n++] = k;
            }
            else if (c->calls[k].thread > thread && c->calls[k].thread < next)
                next = c->calls[k].thread;
        }
        uint64_t loc = MS_OTF2_LOCATION(in->rank, thread);
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(c->x->archive, loc);
        if (!w) {
            snprintf(err, errlen, "cannot open the events of rank %d thread %u", (int)in->rank, thread);
            goto out;
        }
        OTF2_ErrorCode e = emit_thread(c, w, ix, n, stack, cursor);
        uint64_t events = 0;
        if (e == OTF2_SUCCESS)
            e = OTF2_EvtWriter_GetNumberOfEvents(w, &events);
        OTF2_ErrorCode e2 = OTF2_Archive_CloseEvtWriter(c->x->archive, w);
        if (e == OTF2_SUCCESS)
            e = e2;
        if (e != OTF2_SUCCESS) {
            snprintf(err, errlen, "writing the events of rank %d thread %u: %s", (int)in->rank, thread,
                     OTF2_Error_GetDescription(e));
            goto out;
        }
        if (ms_otf2_location_add(c->x, in->rank, thread, events) != 0) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        if (next == UINT32_MAX)
            break;
        thread = next;
    }
    rc = 0;
out:
    free(ix);
    free(stack);
    free(cursor);
    return rc;
}

/* Forget the rank's calls. */
static void rank_reset(rank_ctx *c)
{
    free(c->calls);
    free(c->acts);
    free(c->reqs);
    free(c->msgs);
    free(c->buckets);
    *c = (rank_ctx){.x = c->x, .err = c->err, .errlen = c->errlen};
}

/* A rank read: its events written. */
static int on_rank_done(void *ctx, const ms_rank_info *in, ms_read_status st, const char *message)
{
    rank_ctx *c = ctx;
    int rc = -1;
    if (c->nomem || st == MS_READ_NOMEM) {
        snprintf(c->err, c->errlen, "out of memory reading %s", in->file);
    } else if (st != MS_READ_OK && st != MS_READ_TRUNCATED) {
        snprintf(c->err, c->errlen, "%s", message);
    } else {
        /* A rank without calls (a log of a header and an end) has none to sort. */
        if (c->ncalls)
            qsort(c->calls, c->ncalls, sizeof *c->calls, by_start);
        if (match(c) != 0)
            snprintf(c->err, c->errlen, "out of memory");
        else
            rc = emit(c, in, c->err, c->errlen);
    }
    rank_reset(c);
    return rc;
}

int ms_otf2_events(ms_otf2 *x, char *err, size_t errlen)
{
    static const ms_replay_ops ops = {.call = on_call, .comm = on_comm, .rank_done = on_rank_done};
    rank_ctx c = {.x = x, .err = err, .errlen = errlen};
    int rc = ms_replay_run(x->run, &ops, &c);
    rank_reset(&c);
    return rc;
}

#endif
