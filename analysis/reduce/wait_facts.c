/* Gathering the wait-state analysis's facts from one log: see
 * wait_facts.h. */
#include "wait_facts.h"

#include <stdlib.h>
#include <string.h>

#include "../../common/op_class.h"
#include "../../common/op_names.h"
#include "../read/idmap.h"
#include "../../common/region_parse.h"
#include "../waits/grow.h"

static int64_t poll_gap_ns = MS_WX_POLL_GAP_NS;

void ms_wait_facts_set_poll_gap(int64_t ns)
{
    poll_gap_ns = ns;
}

/* What a region's calls are to the analysis. */
enum cls {
    C_SKIP = 0,        /* the tool's own, GPU activity */
    C_USER,            /* a user region */
    C_MPI,             /* an MPI call with no facts of its own */
    C_SEND,            /* a blocking send */
    C_SEND_POST,       /* a non-blocking send's post (isend, ..., isendrecv) */
    C_RECV,            /* a blocking receive: the actual source is in the name */
    C_SENDRECV,        /* a blocking sendrecv: the send half in the name */
    C_COMPLETE,        /* the wait and test families */
    C_START,           /* start, startall */
    C_COLL,            /* a blocking collective */
    C_COLL_POST,       /* a non-blocking collective's post */
};

/* What a call is to a poll run (see wait_facts.h). */
enum poll {
    P_NONE = 0,        /* any other MPI call: it ends the run */
    P_TEST,            /* the test family: polls that may complete ends */
    P_PROBE,           /* iprobe, improbe: polls for a message */
    P_RECV,            /* a blocking receive (recv, mrecv): takes a probed message */
    P_RECV_POST,       /* irecv, imrecv: posts the receive of a probed message */
    P_OUTSIDE,         /* not an MPI call (a user region): no part of runs */
};

typedef struct slot {
    uint8_t cls;
    uint8_t sync;      /* sends: see ms_wx_msg */
    uint8_t coll;      /* enum ms_wx_coll_class */
    uint8_t charge;
    uint8_t single_recv;  /* completions: the name attributes one receive */
    uint8_t single_send;  /* start: the name attributes one persistent send */
    uint8_t poll;         /* enum poll */
    uint32_t op;          /* the op's id (ms_op_id; 0: none) */
    int64_t comm, peer, root, tag;
    uint32_t name;     /* index into the facts' names of the pair met last; MS_WX_NONE: not yet */
    uint32_t name_site;   /* the call-site entry of that pair */
    char *tmpname;     /* the name until an event needs it */
} slot;

/* A thread's poll run: its polls so far, or the receive that takes its
 * probed message. */
enum run_state { R_NONE = 0, R_TEST, R_PROBE, R_POSTED };

typedef struct poll_run {
    int64_t first;     /* the first poll's start */
    int64_t last;      /* the last call's end */
    uint64_t post;     /* R_POSTED: the receive's post time */
    uint32_t op, site; /* the polls' op and call site (the log's index) */
    uint8_t state;     /* enum run_state */
} poll_run;

/* Requests posted and not yet completed: post time -> the end. */
typedef struct pend {
    uint64_t post;
    ms_wx_end end;
    uint32_t used;     /* 0 empty, 1 used, 2 deleted */
} pend;

struct ms_wait_acc {
    ms_wait_facts *out;
    const ms_comm_map *comms;
    int32_t rank;
    slot *slots;
    size_t nslots, slots_cap;
    ms_read_message *msgs;     /* message records waiting for their event */
    size_t nmsgs, msgs_cap;
    pend *pend;
    size_t pend_cap, pend_used, pend_live;
    ms_idmap pairs;            /* (slot, call-site entry) -> name index */
    ms_wx_end *evends;         /* the ends the event being read completes */
    size_t nevends, evends_cap;
    poll_run *runs;            /* per thread */
    size_t runs_cap;
};

void ms_wait_facts_init(ms_wait_facts *f)
{
    memset(f, 0, sizeof *f);
    ms_wx_spill_init(&f->spill);
}

void ms_wait_facts_free(ms_wait_facts *f)
{
    if (!f)
        return;
    ms_wx_spill_free(&f->spill);
    for (size_t i = 0; i < f->nnames; i++) {
        free(f->names[i]);
        if (f->places)
            free(f->places[i]);
    }
    free(f->names);
    free(f->name_site);
    free(f->places);
    memset(f, 0, sizeof *f);
}

void ms_wait_acc_free(ms_wait_acc *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->nslots; i++)
        free(a->slots[i].tmpname);
    ms_idmap_free(&a->pairs);
    free(a->slots);
    free(a->msgs);
    free(a->pend);
    free(a->evends);
    free(a->runs);
    free(a);
}

int ms_wait_acc_header(ms_wait_acc *a, int32_t rank, uint32_t version)
{
    a->rank = rank;
    a->out->has_records = version >= 5;
    return 0;
}

/* The wait-state class of a collective in any form (blocking, posted,
 * persistent); -1 for none. Scans synchronize as the n x n collectives do;
 * neighbour collectives, creations and frees are none. */
static int coll_class(ms_op_meaning m)
{
    switch (m.cls) {
    case MS_OPC_BARRIER: return MS_WX_BARRIER;
    case MS_OPC_NXN:
    case MS_OPC_SCAN: return MS_WX_NXN;
    case MS_OPC_BCAST: return MS_WX_BCAST;
    case MS_OPC_REDUCE: return MS_WX_REDUCE;
    default: return -1;
    }
}

/* A persistent send request (psend_init included). */
static int persistent_send(ms_op_meaning m)
{
    return m.cls == MS_OPC_SEND && (m.traits & MS_OPT_INIT);
}

static void classify(slot *s, const char *name)
{
    memset(s, 0, sizeof *s);
    s->name = MS_WX_NONE;
    s->comm = s->peer = s->root = s->tag = -1;
    if (strncmp(name, "mpiscope:", 9) == 0 || strncmp(name, "cuda:", 5) == 0) {
        s->cls = C_SKIP;
        return;
    }
    ms_region_info ri;
    if (!ms_region_is_mpi(name, strlen(name))) {
        s->cls = C_USER;
        s->poll = P_OUTSIDE;
        return;
    }
    s->cls = C_MPI;
    if (!ms_region_parse(name, &ri))
        return;
    s->comm = ri.comm;
    s->peer = ri.peer;
    s->root = ri.root;
    s->tag = ri.tag;
    ms_op_meaning op = ms_op_meaning_of(ri.op), req = ms_op_meaning_of(ri.request);
    int cc = coll_class(op), blocking = ms_op_blocking(op);
    s->op = ms_op_id(ri.op, strlen(ri.op));
    if (op.traits & MS_OPT_TEST)
        s->poll = ms_op_completes(op) ? P_TEST : op.cls == MS_OPC_PROBE ? P_PROBE : P_NONE;
    else if (op.cls == MS_OPC_RECV && blocking)
        s->poll = P_RECV;
    else if (op.cls == MS_OPC_RECV && (op.traits & MS_OPT_POST))
        s->poll = P_RECV_POST;
    if (op.cls == MS_OPC_SEND && blocking) {
        s->cls = C_SEND;
        s->sync = (op.traits & MS_OPT_SYNCHRONOUS) ? 1 : (op.traits & MS_OPT_STANDARD) ? 2 : 0;
    } else if (ms_op_sends(op) && (op.traits & MS_OPT_POST)) {
        /* isendrecv's send half too: posted at the call, as isend's. */
        s->cls = C_SEND_POST;
        s->sync = (op.traits & MS_OPT_SYNCHRONOUS) != 0;
    } else if (op.cls == MS_OPC_RECV && blocking) {
        s->cls = C_RECV;
    } else if (op.cls == MS_OPC_SENDRECV && blocking) {
        s->cls = C_SENDRECV;
    } else if (ms_op_completes(op)) {
        s->cls = C_COMPLETE;
        s->charge = !(op.traits & MS_OPT_TEST);
        /* Without message records, a single receive's completion. */
        s->single_recv = ms_op_completes_one(op) && req.cls == MS_OPC_RECV && !ms_op_blocking(req) && ri.peer >= 0;
    } else if (op.cls == MS_OPC_START_ONE || op.cls == MS_OPC_START_ALL) {
        s->cls = C_START;
        s->single_send = op.cls == MS_OPC_START_ONE && persistent_send(req) && ri.peer >= 0;
        s->sync = persistent_send(req) && (req.traits & MS_OPT_SYNCHRONOUS);
    } else if (cc >= 0 && blocking) {
        s->cls = C_COLL;
        s->coll = (uint8_t)cc;
    } else if (cc >= 0 && (op.traits & MS_OPT_POST)) {
        s->cls = C_COLL_POST;
        s->coll = (uint8_t)cc;
    }
    /* Blocking calls are charged; posts and the test family are not. */
    if (s->cls == C_SEND || s->cls == C_RECV || s->cls == C_SENDRECV || s->cls == C_COLL)
        s->charge = 1;
    /* MPI_COMM_SELF: each rank's own; nothing to match. */
    if (s->comm == 1 && (s->cls == C_COLL || s->cls == C_COLL_POST))
        s->cls = C_MPI;
}

ms_wait_acc *ms_wait_acc_new(ms_wait_facts *out, const ms_comm_map *comms)
{
    ms_wait_acc *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->out = out;
    a->comms = comms;
    ms_idmap_init(&a->pairs);
    return a;
}

int ms_wait_acc_region(ms_wait_acc *a, uint32_t region, const char *name, size_t len)
{
    if (ms_grow((void **)&a->slots, &a->slots_cap, (size_t)region + 1, sizeof *a->slots) != 0)
        return -1;
    while (a->nslots <= region) {
        classify(&a->slots[a->nslots], "mpiscope:");
        a->slots[a->nslots++].tmpname = NULL;
    }
    slot *s = &a->slots[region];
    free(s->tmpname);
    char *copy = strndup(name, len);
    if (!copy)
        return -1;
    classify(s, copy);
    /* The name goes to the facts when an event first needs it. */
    s->tmpname = copy;
    return 0;
}

int ms_wait_acc_message(ms_wait_acc *a, const ms_read_message *m)
{
    a->out->messages_read++;
    if (ms_grow((void **)&a->msgs, &a->msgs_cap, a->nmsgs + 1, sizeof *a->msgs) != 0)
        return -1;
    a->msgs[a->nmsgs++] = *m;
    return 0;
}

/* ---- requests in flight: post time -> fact ---- */

static size_t pend_hash(uint64_t k, size_t mask)
{
    return (size_t)((k * 0x9e3779b97f4a7c15ull) >> 32) & mask;
}

static int pend_put(ms_wait_acc *a, uint64_t post, const ms_wx_end *x)
{
    if ((a->pend_used + 1) * 2 > a->pend_cap) {
        size_t cap = a->pend_cap ? a->pend_cap : 64;
        while ((a->pend_live + 1) * 4 > cap)
            cap *= 2;
        pend *p = calloc(cap, sizeof *p);
        if (!p)
            return -1;
        for (size_t i = 0; i < a->pend_cap; i++)
            if (a->pend[i].used == 1) {
                size_t j = pend_hash(a->pend[i].post, cap - 1);
                while (p[j].used)
                    j = (j + 1) & (cap - 1);
                p[j] = a->pend[i];
            }
        free(a->pend);
        a->pend = p;
        a->pend_cap = cap;
        a->pend_used = a->pend_live;
    }
    size_t j = pend_hash(post, a->pend_cap - 1);
    while (a->pend[j].used == 1)
        j = (j + 1) & (a->pend_cap - 1);
    if (a->pend[j].used == 0)
        a->pend_used++;
    a->pend[j] = (pend){.post = post, .end = *x, .used = 1};
    a->pend_live++;
    return 0;
}

/* Does the pending end x fit the completion record m? */
static int fits(const ms_wx_end *x, const ms_read_message *m, int32_t other)
{
    if (x->kind == MS_WX_END_COLL)
        return x->comm == m->comm;
    return x->kind == MS_WX_END_SEND && x->comm == m->comm && x->tag == m->tag && x->other == other;
}

/* Take the pending end posted at `post` that m completes into *out; 0 when
 * there is none. */
static int pend_take(ms_wait_acc *a, uint64_t post, const ms_read_message *m, int32_t other, ms_wx_end *out)
{
    if (!a->pend_cap)
        return 0;
    size_t mask = a->pend_cap - 1;
    for (size_t j = pend_hash(post, mask); a->pend[j].used; j = (j + 1) & mask) {
        pend *p = &a->pend[j];
        if (p->used == 1 && p->post == post && fits(&p->end, m, other)) {
            p->used = 2;
            a->pend_live--;
            *out = p->end;
            return 1;
        }
    }
    return 0;
}

/* ---- facts ---- */

/* The facts' name of the slot's region at call-site entry `site`: one per
 * pair, so that waits are told apart by call site. */
static uint32_t name_of(ms_wait_acc *a, slot *s, uint32_t site)
{
    if (s->name != MS_WX_NONE && s->name_site == site)
        return s->name;
    uint64_t key = (uint64_t)(s - a->slots) << 32 | site;
    uint32_t k = s->name == MS_WX_NONE ? MS_IDMAP_NONE : ms_idmap_get(&a->pairs, key);
    if (k != MS_IDMAP_NONE) {
        s->name = k;
        s->name_site = site;
        return k;
    }
    ms_wait_facts *f = a->out;
    size_t cap = f->names_cap;
    if (ms_grow((void **)&f->names, &f->names_cap, f->nnames + 1, sizeof *f->names) != 0)
        return MS_WX_NONE;
    if (f->names_cap != cap || !f->name_site) {
        uint32_t *v = realloc(f->name_site, f->names_cap * sizeof *v);
        if (!v)
            return MS_WX_NONE;
        f->name_site = v;
    }
    /* The first pair takes the name; later ones copy it. */
    char *name = s->tmpname ? s->tmpname : s->name != MS_WX_NONE ? strdup(f->names[s->name]) : NULL;
    if (!name)
        return MS_WX_NONE;
    k = (uint32_t)f->nnames;
    if (ms_idmap_put(&a->pairs, key, k) != 0) {
        if (name != s->tmpname)
            free(name);
        return MS_WX_NONE;
    }
    s->tmpname = NULL;
    f->names[k] = name;
    f->name_site[k] = site;
    f->nnames++;
    s->name = k;
    s->name_site = site;
    return k;
}

int ms_wait_facts_places(ms_wait_facts *f, char *const *loc, size_t n)
{
    if (f->nnames == 0)
        return 0;
    if (!(f->places = calloc(f->nnames, sizeof *f->places)))
        return -1;
    for (size_t k = 0; k < f->nnames; k++) {
        uint32_t e = f->name_site[k];
        if (e != MS_WX_NONE && e < n && loc[e] && !(f->places[k] = strdup(loc[e])))
            return -1;
    }
    free(f->name_site);
    f->name_site = NULL;
    return 0;
}

/* A new end, numbered. */
static ms_wx_end new_end(ms_wait_acc *a, int kind, int64_t comm, int64_t entry, int32_t tag, int32_t other,
                         uint8_t sync)
{
    return (ms_wx_end){.entry = entry, .comm = comm, .seq = ms_wx_spill_seq(&a->out->spill), .ev = MS_WX_NONE,
                       .tag = tag, .other = other, .kind = (uint8_t)kind, .sync = sync};
}

/* End x completes in event ev (MS_WX_NONE: none kept): written when the
 * event is done, or now. */
static int to_event(ms_wait_acc *a, ms_wx_end x, uint32_t ev)
{
    if (ev == MS_WX_NONE)
        return ms_wx_spill_end(&a->out->spill, &x);
    if (ms_grow((void **)&a->evends, &a->evends_cap, a->nevends + 1, sizeof *a->evends) != 0)
        return -1;
    x.ev = ev;
    a->evends[a->nevends++] = x;
    return 0;
}

static int32_t world(const ms_wait_acc *a, int64_t comm, int64_t peer)
{
    return ms_comm_map_world(a->comms, comm, peer, a->rank);
}

/* A send of the event's own name (blocking, posted, or a persistent start). */
static int name_send_to(ms_wait_acc *a, const slot *s, int64_t entry, uint32_t ev, uint8_t sync, uint64_t post);

static inline int name_send(ms_wait_acc *a, const slot *s, int64_t entry, uint32_t ev, uint8_t sync, uint64_t post)
{
    /* No peer (MPI_PROC_NULL): no message. */
    return s->peer < 0 ? 0 : name_send_to(a, s, entry, ev, sync, post);
}

static int name_send_to(ms_wait_acc *a, const slot *s, int64_t entry, uint32_t ev, uint8_t sync, uint64_t post)
{
    int32_t other = world(a, s->comm, s->peer);
    if (other < 0)
        return 0;
    ms_wx_end m = new_end(a, MS_WX_END_SEND, s->comm, entry, (int32_t)s->tag, other, sync);
    /* Its completion is found through its post time: message records. */
    if (ev == MS_WX_NONE && a->out->has_records)
        return pend_put(a, post, &m);
    return to_event(a, m, ev);
}

/* A message record of the event ev (kept at index ev, or MS_WX_NONE). */
static int record(ms_wait_acc *a, const ms_read_message *m, const ms_read_event *e, uint32_t ev)
{
    int64_t entry = (m->flags & MS_MSG_POSTED) ? (int64_t)m->post_ns : (int64_t)e->start_ns;
    int32_t other = world(a, m->comm, m->peer);
    if (m->flags & MS_MSG_CANCELLED)
        return 0;
    if (m->flags & MS_MSG_STARTED) {
        ms_op_meaning op = ms_op_meaning_of_id(m->op);
        int cc = coll_class(op);
        if (persistent_send(op) && other >= 0) {
            ms_wx_end x = new_end(a, MS_WX_END_SEND, m->comm, entry, m->tag, other,
                                  (op.traits & MS_OPT_SYNCHRONOUS) != 0);
            return pend_put(a, (uint64_t)entry, &x);
        }
        if (cc >= 0 && m->comm != 1) {
            ms_wx_end x = new_end(a, MS_WX_END_COLL, m->comm, entry, 0,
                                  m->root >= 0 ? world(a, m->comm, m->root) : -1, (uint8_t)cc);
            return pend_put(a, (uint64_t)entry, &x);
        }
        return 0;
    }
    if (m->flags & MS_MSG_RECV) {
        if (other < 0)
            return 0;
        return to_event(a, new_end(a, MS_WX_END_RECV, m->comm, entry, m->tag, other, 0), ev);
    }
    /* A send or a collective completed: link it to its post. */
    if (!(m->flags & MS_MSG_POSTED))
        return 0;
    ms_wx_end x;
    if (!pend_take(a, m->post_ns, m, other, &x))
        return 0;
    return to_event(a, x, ev);
}

/* Event e (slot s) taken into its thread's poll run (wait_facts.h);
 * `completes`: it completed requests. 1 when the ends it completes waited
 * from *from (the run's first poll) and are charged: all of them, or,
 * where *post is not UINT64_MAX, the receive posted then (a probed
 * message's irecv or imrecv, completed by a wait). 0 when they keep the
 * event's own start and charge; -1 when out of memory. */
static int poll_step(ms_wait_acc *a, const slot *s, const ms_read_event *e, int completes,
                     int64_t *from, uint64_t *post)
{
    *post = UINT64_MAX;
    if (s->poll == P_OUTSIDE)
        return 0;
    if (ms_grow((void **)&a->runs, &a->runs_cap, (size_t)e->thread + 1, sizeof *a->runs) != 0)
        return -1;
    poll_run *r = &a->runs[e->thread];
    int64_t start = (int64_t)e->start_ns;
    /* The call comes soon enough after the run's last one to continue it. */
    int near = r->state != R_NONE && start - r->last <= poll_gap_ns;
    int same = near && r->op == s->op && r->site == e->site;
    switch (s->poll) {
    case P_TEST:
        if (!(same && r->state == R_TEST)) {
            /* A new run; polls for the receive of a probed message go on
             * from the probe run's start. */
            int64_t first = near && r->state == R_POSTED ? r->first : start;
            *r = (poll_run){.first = first, .op = s->op, .site = e->site, .state = R_TEST};
        }
        r->last = (int64_t)e->end_ns;
        *from = r->first;
        if (completes)
            r->state = R_NONE;
        return 1;
    case P_PROBE:
        if (!(same && r->state == R_PROBE))
            *r = (poll_run){.first = start, .op = s->op, .site = e->site, .state = R_PROBE};
        r->last = (int64_t)e->end_ns;
        return 0;
    case P_RECV:
        if (near && r->state == R_PROBE) {
            *from = r->first;
            r->state = R_NONE;
            return 1;
        }
        break;
    case P_RECV_POST:
        if (near && r->state == R_PROBE) {
            r->state = R_POSTED;
            r->post = e->start_ns;
            r->last = (int64_t)e->end_ns;
            return 0;
        }
        break;
    default:
        if (near && r->state == R_POSTED && s->cls == C_COMPLETE && s->charge) {
            *from = r->first;
            *post = r->post;
            r->state = R_NONE;
            return 1;
        }
        break;
    }
    /* Any other call ends the run. */
    r->state = R_NONE;
    return 0;
}

int ms_wait_acc_event(ms_wait_acc *a, const ms_read_event *e, uint32_t site)
{
    slot *s = &a->slots[e->region];
    /* The tool's own events (a stall between the parts of a call's message
     * records) leave the records to the call's event. */
    if (s->cls == C_SKIP)
        return 0;
    /* The message records of this thread belong to this event. */
    size_t nrec = 0;
    for (size_t i = 0; i < a->nmsgs; i++)
        nrec += a->msgs[i].thread == e->thread;
    int rc = 0;
    /* Every thread's MPI calls and user regions are kept: the critical
     * path follows the thread that waited or sent. */
    ms_wait_facts *f = a->out;
    uint32_t name = name_of(a, s, site);
    if (name == MS_WX_NONE || f->nev == MS_WX_NONE - 1)
        return -1;
    uint32_t ev = f->nev++;
    ms_wx_event kept = {.start = (int64_t)e->start_ns, .end = (int64_t)e->end_ns, .region = name,
                        .thread = e->thread, .kind = s->cls == C_USER ? MS_WX_USER : MS_WX_MPI,
                        .charge = s->charge};
    if (ms_wx_spill_event(&f->spill, ev, &kept) != 0)
        return -1;
    int64_t start = (int64_t)e->start_ns;
    switch (s->cls) {
    case C_SEND:
        rc = name_send(a, s, start, ev, s->sync, 0);
        break;
    case C_SEND_POST:
        rc = name_send(a, s, start, MS_WX_NONE, s->sync, e->start_ns);
        break;
    case C_SENDRECV:
        /* The send half completes in the call itself; the received half
         * is in its message record. */
        rc = name_send(a, s, start, ev, 0, 0);
        break;
    case C_RECV: {
        int32_t other = world(a, s->comm, s->peer);
        if (other >= 0)
            rc = to_event(a, new_end(a, MS_WX_END_RECV, s->comm, start, (int32_t)s->tag, other, 0), ev);
        break;
    }
    case C_COMPLETE:
        if (nrec == 0 && s->single_recv) {
            int32_t other = world(a, s->comm, s->peer);
            if (other >= 0)
                rc = to_event(a, new_end(a, MS_WX_END_RECV, s->comm, start, (int32_t)s->tag, other, 0), ev);
        }
        break;
    case C_START:
        if (nrec == 0 && s->single_send)
            rc = name_send(a, s, start, MS_WX_NONE, s->sync, e->start_ns);
        break;
    case C_COLL:
        rc = to_event(a, new_end(a, MS_WX_END_COLL, s->comm, start, 0, world(a, s->comm, s->root), s->coll), ev);
        break;
    case C_COLL_POST: {
        ms_wx_end x = new_end(a, MS_WX_END_COLL, s->comm, start, 0, world(a, s->comm, s->root), s->coll);
        rc = a->out->has_records ? pend_put(a, e->start_ns, &x) : to_event(a, x, MS_WX_NONE);
        break;
    }
    default:
        break;
    }
    /* Then the records, in order; those of other threads stay. */
    size_t k = 0;
    for (size_t i = 0; i < a->nmsgs; i++) {
        if (a->msgs[i].thread != e->thread) {
            a->msgs[k++] = a->msgs[i];
            continue;
        }
        if (rc == 0)
            rc = record(a, &a->msgs[i], e, ev);
    }
    a->nmsgs = k;
    /* A poll run's ends waited from its first poll. */
    int64_t from = 0;
    uint64_t post = UINT64_MAX;
    int polled = rc == 0 ? poll_step(a, s, e, a->nevends > 0 || nrec > 0, &from, &post) : 0;
    if (polled < 0)
        rc = -1;
    /* The event is done: its ends, each with what its match needs of it. */
    for (size_t i = 0; rc == 0 && i < a->nevends; i++) {
        ms_wx_end *x = &a->evends[i];
        int run = polled == 1 && (post == UINT64_MAX || (x->kind == MS_WX_END_RECV && (uint64_t)x->entry == post));
        x->ev_start = run ? from : kept.start;
        x->ev_end = kept.end;
        x->region = kept.region;
        x->thread = kept.thread;
        x->charge = run ? 1 : kept.charge;
        rc = ms_wx_spill_end(&a->out->spill, x);
    }
    a->nevends = 0;
    return rc;
}

int ms_wait_acc_finish(ms_wait_acc *a)
{
    /* Requests never completed: ends without an event. */
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < a->pend_cap; i++)
        if (a->pend[i].used == 1) {
            a->pend[i].used = 2;
            rc = ms_wx_spill_end(&a->out->spill, &a->pend[i].end);
        }
    a->pend_live = 0;
    if (rc == 0)
        rc = ms_wx_spill_finish(&a->out->spill);
    return rc;
}
