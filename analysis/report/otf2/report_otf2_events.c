/*
 * One rank's log -> OTF2 events of its locations (one per thread).
 *
 * The rank's calls are read into memory (one rank at a time), put on the
 * common clock and sorted by start (longer first at equal starts). Then:
 *
 * 1. Requests, in that order over all the rank's threads (requests belong to
 *    the process). Each isend/irecv opens a request; a completion call
 *    (region with request=isend/irecv/mixed, docs/FORMAT.md) closes the ones
 *    its fields allow, oldest first:
 *      wait, test, waitany, testany   exactly one: the oldest open request
 *                                     of the creating op whose comm, peer
 *                                     and tag agree with the call's
 *      waitall, testall               every open request of the op(s) that
 *                                     agrees with the call's fields
 *      waitsome, testsome             sends: the oldest agreeing ones whose
 *                                     bytes add up to the call's bytes;
 *                                     receives: the agreeing one when there
 *                                     is exactly one; else nothing
 *    A completed receive takes the call's source, tag (the status) and
 *    bytes; when one call completed several receives, the bytes they got
 *    together are shared out evenly (the log has only their sum) and a
 *    source the call does not name is the posted one. A receive whose
 *    source stays unknown (a wildcard among several), or that no call
 *    closes, gets no events at all; a send that no call closes keeps its
 *    MpiIsend without MpiIsendComplete.
 * 2. Events, per thread, as a properly nested Enter/Leave sequence (a call
 *    that overlaps the one enclosing it without ending inside it is cut at
 *    the enclosing call's end): MpiSend, MpiIsend, MpiIrecvRequest and
 *    MpiCollectiveBegin right after the Enter; MpiRecv, MpiIrecv,
 *    MpiIsendComplete and MpiCollectiveEnd right before the Leave.
 */
/* Built only with libotf2 (report_otf2.c says what happens without it). */
#ifdef MS_HAVE_OTF2

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_otf2_events.h"

enum act_type { ACT_SEND, ACT_RECV, ACT_ISEND, ACT_ISEND_DONE, ACT_IRECV_REQ, ACT_IRECV_DONE, ACT_COLL };

typedef struct call {
    uint64_t start, end;
    uint32_t thread;
    uint32_t region;    /* index into x->regions */
    size_t seq;         /* order in the log, to keep the sort stable */
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
    size_t call;        /* the creating call */
    int recv;
    int emit;           /* has a peer and a known communicator */
    int open;
    uint64_t id;
    int64_t peer, tag, comm, bytes;
} request;

typedef struct rank_ctx {
    ms_otf2 *x;
    const ms_reader *reader;
    const ms_rank_info *in;
    size_t nmap;
    int64_t *map;       /* per-file region -> index into x->regions, -1 unknown */
    size_t ncalls, capcalls;
    call *calls;
    size_t nacts, capacts;
    action *acts;
    size_t nreqs, capreqs;
    request *reqs;
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

static int on_region(void *ctx, uint32_t region, const char *name, size_t len)
{
    rank_ctx *c = ctx;
    if (region >= c->nmap) {
        size_t n = (size_t)region + 1;
        int64_t *m = realloc(c->map, n * sizeof *m);
        if (!m) {
            c->nomem = 1;
            return -1;
        }
        for (size_t i = c->nmap; i < n; i++)
            m[i] = -1;
        c->map = m;
        c->nmap = n;
    }
    /* Binary search of the run's names (sorted) for this one. */
    size_t lo = 0, hi = c->x->nregions;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *s = c->x->by_name[mid]->name;
        int cmp = strncmp(s, name, len);
        if (cmp == 0)
            cmp = s[len] != '\0';
        if (cmp == 0) {
            c->map[region] = c->x->by_name[mid] - c->x->run->regions;
            break;
        }
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

static int on_event(void *ctx, const ms_read_event *ev)
{
    rank_ctx *c = ctx;
    if (GROW(c->calls, c->ncalls, c->capcalls, 1024) != 0) {
        c->nomem = 1;
        return -1;
    }
    /* The region index is mapped once the whole file is read. */
    c->calls[c->ncalls] = (call){.start = (uint64_t)ms_rank_time(c->in, ev->start_ns),
                                 .end = (uint64_t)ms_rank_time(c->in, ev->end_ns),
                                 .thread = ev->thread,
                                 .region = ev->region,
                                 .seq = c->ncalls};
    c->ncalls++;
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

/* Does open request q agree with the fields of completion info? */
static int agrees(const request *q, const ms_region_info *in, const ms_otf2_region *r)
{
    if (!q->open || (q->recv ? !r->done_recvs : !r->done_sends))
        return 0;
    if (in->comm >= 0 && in->comm != q->comm)
        return 0;
    if (in->peer >= 0 && q->peer >= 0 && in->peer != q->peer)
        return 0;
    if (in->tag >= 0 && q->tag >= 0 && in->tag != q->tag)
        return 0;
    return 1;
}

/* Close the marked requests (open == 2) of completion call k. */
static int close_marked(rank_ctx *c, size_t k, const ms_region_info *in)
{
    int64_t send_bytes = 0, nrecv = 0;
    for (size_t i = 0; i < c->nreqs; i++)
        if (c->reqs[i].open == 2) {
            if (c->reqs[i].recv)
                nrecv++;
            else
                send_bytes += c->reqs[i].bytes > 0 ? c->reqs[i].bytes : 0;
        }
    int64_t recv_bytes = in->bytes >= 0 ? in->bytes - send_bytes : 0;
    if (recv_bytes < 0)
        recv_bytes = 0;
    int64_t share = nrecv ? recv_bytes / nrecv : 0, left = nrecv ? recv_bytes - share * (nrecv - 1) : 0;
    for (size_t i = 0; i < c->nreqs; i++) {
        request *q = &c->reqs[i];
        if (q->open != 2)
            continue;
        q->open = 0;
        if (!q->emit)
            continue;
        OTF2_CommRef comm = ms_otf2_comm_ref(c->x, q->comm);
        if (!q->recv) {
            if (add_action(c, k, ACT_ISEND_DONE, q->id, 0, 0, comm, 0) != 0)
                return -1;
            continue;
        }
        int64_t src = in->peer >= 0 ? in->peer : q->peer, tag = in->tag >= 0 ? in->tag : q->tag;
        int64_t bytes = --nrecv == 0 ? left : share;
        if (src < 0) {
            c->x->unmatched++;
            continue;
        }
        if (add_action(c, q->call, ACT_IRECV_REQ, q->id, 0, 0, comm, 0) != 0 ||
            add_action(c, k, ACT_IRECV_DONE, q->id, src, tag, comm, bytes) != 0)
            return -1;
    }
    return 0;
}

/* Mark which open requests completion call k completed. */
static void mark_completed(rank_ctx *c, const ms_otf2_region *r)
{
    const ms_region_info *in = &r->region->info;
    size_t nagree = 0, first = c->nreqs;
    for (size_t i = 0; i < c->nreqs; i++)
        if (agrees(&c->reqs[i], in, r)) {
            nagree++;
            if (first == c->nreqs)
                first = i;
        }
    if (nagree == 0)
        return;
    switch (r->cls) {
    case MS_OTF2_DONE_ONE:
        c->reqs[first].open = 2;
        break;
    case MS_OTF2_DONE_ALL:
        for (size_t i = 0; i < c->nreqs; i++)
            if (agrees(&c->reqs[i], in, r))
                c->reqs[i].open = 2;
        break;
    case MS_OTF2_DONE_SOME:
        if (r->done_recvs && !r->done_sends) {
            if (nagree == 1)
                c->reqs[first].open = 2;
        } else if (r->done_sends && !r->done_recvs && in->bytes >= 0) {
            int64_t sum = 0;
            size_t i;
            for (i = first; i < c->nreqs && sum < in->bytes; i++)
                if (agrees(&c->reqs[i], in, r))
                    sum += c->reqs[i].bytes > 0 ? c->reqs[i].bytes : 0;
            if (sum == in->bytes)
                for (size_t j = first; j < i; j++)
                    if (agrees(&c->reqs[j], in, r))
                        c->reqs[j].open = 2;
        }
        break;
    default:
        break;
    }
}

/* Pass 1: the message and collective records of every call. */
static int match(rank_ctx *c)
{
    uint64_t next_req = 0;
    for (size_t k = 0; k < c->ncalls; k++) {
        ms_otf2_region *r = region_of(c, &c->calls[k]);
        const ms_region_info *in = &r->region->info;
        int known = r->comm != OTF2_UNDEFINED_COMM;
        int rc = 0;
        switch (r->cls) {
        case MS_OTF2_SEND:
        case MS_OTF2_RECV:
            if (known && in->peer >= 0)
                rc = add_action(c, k, r->cls == MS_OTF2_SEND ? ACT_SEND : ACT_RECV, 0, in->peer, in->tag, r->comm,
                                in->bytes);
            break;
        case MS_OTF2_ISEND:
        case MS_OTF2_IRECV: {
            if (GROW(c->reqs, c->nreqs, c->capreqs, 256) != 0)
                return -1;
            request *q = &c->reqs[c->nreqs++];
            *q = (request){.call = k,
                           .recv = r->cls == MS_OTF2_IRECV,
                           .emit = known && (r->cls == MS_OTF2_IRECV || in->peer >= 0),
                           .open = 1,
                           .id = next_req++,
                           .peer = in->peer,
                           .tag = in->tag,
                           .comm = in->comm,
                           .bytes = in->bytes};
            if (q->emit && !q->recv)
                rc = add_action(c, k, ACT_ISEND, q->id, in->peer, in->tag, r->comm, in->bytes);
            break;
        }
        case MS_OTF2_DONE_ONE:
        case MS_OTF2_DONE_ALL:
        case MS_OTF2_DONE_SOME:
            mark_completed(c, r);
            rc = close_marked(c, k, in);
            break;
        case MS_OTF2_COLLECTIVE:
            if (known)
                rc = add_action(c, k, ACT_COLL, 0, in->root, 0, r->comm, in->bytes);
            break;
        default:
            break;
        }
        if (rc != 0)
            return -1;
    }
    for (size_t i = 0; i < c->nreqs; i++)
        if (c->reqs[i].open && c->reqs[i].emit)
            c->x->unmatched++;
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
                e = OTF2_EvtWriter_Leave(w, NULL, c->calls[t].end, c->calls[t].region);
            if (c->calls[t].end > c->x->last_ts)
                c->x->last_ts = c->calls[t].end;
        }
        if (!k || e != OTF2_SUCCESS)
            break;
        if (depth > 0 && k->end > c->calls[stack[depth - 1]].end)
            k->end = c->calls[stack[depth - 1]].end;
        e = OTF2_EvtWriter_Enter(w, NULL, k->start, k->region);
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
            if (c->calls[k].thread == thread)
                ix[n++] = k;
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

int ms_otf2_rank(ms_otf2 *x, ms_reader *r, const ms_rank_info *in, char *err, size_t errlen)
{
    rank_ctx c = {.x = x, .reader = r, .in = in};
    static const ms_read_callbacks cb = {.region = on_region, .event = on_event, .comm = on_comm};
    ms_read_result res;
    ms_read_status st = ms_reader_read(r, in->file, &cb, &c, &res);
    int rc = -1;
    if (c.nomem) {
        snprintf(err, errlen, "out of memory reading %s", in->file);
        goto out;
    }
    if (st != MS_READ_OK && st != MS_READ_TRUNCATED) {
        snprintf(err, errlen, "%s", res.message);
        goto out;
    }
    /* Per-file region indices -> the run's; a name the run does not know
     * (it cannot happen for a log the reduction read) drops its calls. */
    size_t n = 0;
    for (size_t k = 0; k < c.ncalls; k++) {
        int64_t g = c.calls[k].region < c.nmap ? c.map[c.calls[k].region] : -1;
        if (g < 0)
            continue;
        c.calls[n] = c.calls[k];
        c.calls[n++].region = (uint32_t)g;
    }
    c.ncalls = n;
    qsort(c.calls, c.ncalls, sizeof *c.calls, by_start);
    if (match(&c) != 0) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    rc = emit(&c, in, err, errlen);
out:
    free(c.map);
    free(c.calls);
    free(c.acts);
    free(c.reqs);
    return rc;
}

#endif
