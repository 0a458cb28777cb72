/*
 * --trace: Chrome trace-event JSON (the "JSON Object Format" that Perfetto
 * and chrome://tracing load):
 *
 *   {"traceEvents":[ ... ],"displayTimeUnit":"ns","otherData":{...}}
 *
 *   - each rank is a process: pid = world rank, named "rank N (host)" by a
 *     process_name metadata event ("ph":"M") and sorted by rank;
 *   - the tool's own stalls (tool_stalls.h) of thread T are a track of
 *     their own, "tool stalls (thread T)", sorted after the host threads;
 *   - each thread of a rank is a track: tid = the thread index in the log,
 *     named "thread T"; a GPU stream's track is named "GPU D stream S
 *     (context C)" and CUPTI's own records "GPU tool overhead", sorted after
 *     the host threads;
 *   - each call is a complete event ("ph":"X") named by its region, with
 *     "ts" and "dur" in microseconds (nanosecond digits) relative to the
 *     run's earliest event start (run->origin); "cat" is "mpi" for MPI
 *     calls, else "region"; MPI calls have args bytes, peer, tag, comm
 *     (and root, and request when the name has one) as in the name;
 *   - each waiting call of the wait-state analysis (run->waits) is a slice
 *     inside the call, "cat":"wait_state", named by its pattern
 *     ("late_sender"), from the call's entry to the end of its waiting,
 *     with args "waited_for_rank";
 *   - each matched point-to-point message is a flow: "ph":"s" at the start
 *     of the send call and "ph":"f" ("bp":"e", bound to the enclosing
 *     slice) at the start of the call that received it, with the same
 *     "id", "cat":"message" and "name":"message". flows.h says which
 *     messages are matched; every flow start has its finish.
 *   - a window (window.h: --from, --to, --ranks) keeps the calls inside
 *     it, the wait slices of those ranks inside it, and a flow when both
 *     its ends are kept: with --from or --to the logs are read once more
 *     before, to mark which ends are (two bits per flow id).
 *
 * Streamed: events are written as the replay of the timeline
 * (timeline_replay.h) delivers the calls. Memory holds, per log, one
 * prepared JSON fragment per region name and the threads seen, and for the
 * whole run the flow keys (flows.h): nothing grows with events.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../read/worlds.h"
#include "../reduce/flows.h"
#include "json_str.h"
#include "../reduce/p2p.h"
#include "../reduce/p2p_facts.h"
#include "report.h"
#include "timeline_replay.h"
#include "../reduce/tool_stalls.h"
#include "u32set.h"
#include "../waits/waits.h"

/* What a region of the log being read contributes to each of its events. */
/* Track ids of the tool's stalls: TOOL_TRACK + the thread index. */
#define TOOL_TRACK 0x40000000u

typedef struct trace_region {
    char *json;                /* "name":...,"cat":...[,"args":{...}] */
    ms_flow_key *key;          /* its flow key, or NULL */
    int dir;                   /* MS_P2P_SEND or MS_P2P_RECV with a key */
    int tool;                  /* the tool's own stalls: a track of their own */
    int mpi;
    ms_p2p_facts facts;        /* its calls' messages from their records */
} trace_region;

typedef struct trace_ctx {
    FILE *fp;
    const ms_run *run;
    const ms_rank_info *in;
    ms_flows *flows;
    trace_region *regions;
    size_t nregions, cap;
    ms_u32set threads;         /* threads named so far in this log */
    int first;                 /* no event written yet */
    const ms_window *w;        /* NULL: everything */
    int marking;               /* the pass that marks the flow ends kept */
    uint8_t *ends;             /* per flow id: 1 its send is kept, 2 its receive */
    uint64_t shown;            /* flows written */
    int nomem;
} trace_ctx;

static void sep(trace_ctx *c)
{
    fputs(c->first ? "\n" : ",\n", c->fp);
    c->first = 0;
}

/* ns as microseconds with 3 decimals, exactly. */
static void put_us(FILE *fp, int64_t ns)
{
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    fprintf(fp, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", a / 1000u, a % 1000u);
}

static int appendf(char **buf, size_t *n, size_t *cap, const char *fmt, int64_t v)
{
    char tmp[64];
    int len = snprintf(tmp, sizeof tmp, fmt, v);
    return ms_json_append(buf, n, cap, tmp, (size_t)len);
}

/* The flow key of this rank's channel (dir MS_P2P_SEND or MS_P2P_RECV,
 * comm, peer in comm, tag), or NULL. */
static ms_flow_key *flow_key(trace_ctx *c, ms_p2p_dir dir, int64_t comm, int64_t peer, int64_t tag)
{
    const ms_p2p_chan *ch = ms_p2p_chan_find(c->run->chans, c->run->nchans, c->in->rank, dir, comm, peer, tag);
    if (!ch || ch->world_peer < 0)
        return NULL;
    int32_t me = c->in->rank, other = ch->world_peer;
    return dir == MS_P2P_SEND ? ms_flows_find(c->flows, me, other, tag, comm)
                              : ms_flows_find(c->flows, other, me, tag, comm);
}

/* The JSON fragment of a region and its flow key; name is NUL-terminated. */
static int prepare_region(trace_ctx *c, trace_region *tr, const char *name, size_t len)
{
    char *b = NULL;
    size_t n = 0, cap = 0;
    ms_region_info ri;
    int mpi = strlen(name) == len && ms_region_parse(name, &ri);
    int rc = ms_json_append(&b, &n, &cap, "\"name\":", 7);
    rc |= ms_json_append_str(&b, &n, &cap, name, len);
    if (!mpi) {
        rc |= ms_json_append(&b, &n, &cap, ",\"cat\":\"region\"", 15);
    } else {
        rc |= ms_json_append(&b, &n, &cap, ",\"cat\":\"mpi\",\"args\":{", 21);
        rc |= appendf(&b, &n, &cap, "\"bytes\":%" PRId64, ri.bytes);
        rc |= appendf(&b, &n, &cap, ",\"peer\":%" PRId64, ri.peer);
        rc |= appendf(&b, &n, &cap, ",\"tag\":%" PRId64, ri.tag);
        rc |= appendf(&b, &n, &cap, ",\"comm\":%" PRId64, ri.comm);
        rc |= appendf(&b, &n, &cap, ",\"root\":%" PRId64, ri.root);
        if (ri.request[0]) {
            rc |= ms_json_append(&b, &n, &cap, ",\"request\":", 11);
            rc |= ms_json_append_str(&b, &n, &cap, ri.request, strlen(ri.request));
        }
        rc |= ms_json_append(&b, &n, &cap, "}", 1);
    }
    if (rc != 0) {
        free(b);
        return -1;
    }
    tr->json = b;
    tr->key = NULL;
    tr->dir = MS_P2P_NONE;
    tr->tool = ms_stall_name(name, len);
    tr->mpi = mpi;
    tr->facts = MS_P2P_FACTS_NONE;
    if (!mpi || !c->flows->nkeys)
        return 0;
    int64_t peer, tag, comm;
    ms_p2p_dir dir = ms_p2p_classify(&ri, &peer, &tag, &comm);
    tr->facts = ms_p2p_facts_of(&ri, dir);
    if (dir != MS_P2P_SEND && dir != MS_P2P_RECV)
        return 0;
    tr->key = flow_key(c, dir, comm, peer, tag);
    tr->dir = dir;
    return 0;
}

static int on_region(void *ctx, uint32_t region, const char *name, size_t len, const ms_region *g)
{
    (void)g;
    trace_ctx *c = ctx;
    if (region >= c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        while (cap <= region)
            cap *= 2;
        trace_region *r = realloc(c->regions, cap * sizeof *r);
        if (!r) {
            c->nomem = 1;
            return -1;
        }
        c->regions = r;
        c->cap = cap;
    }
    /* The reader numbers new names densely. */
    while (c->nregions <= region)
        c->regions[c->nregions++] = (trace_region){.dir = MS_P2P_NONE};
    if (prepare_region(c, &c->regions[region], name, len) != 0) {
        c->nomem = 1;
        return -1;
    }
    return 0;
}

/* Name a thread's track the first time it is seen: "thread T", or the
 * label given (GPU streams, sorted after the host threads). */
static int name_thread_as(trace_ctx *c, uint32_t t, const char *label, uint64_t sort)
{
    int added = ms_u32set_add(&c->threads, t);
    if (added <= 0)
        return added;
    sep(c);
    fprintf(c->fp, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%" PRId32 ",\"tid\":%" PRIu32
                   ",\"args\":{\"name\":\"",
            c->in->rank, t);
    if (label)
        fputs(label, c->fp);
    else
        fprintf(c->fp, "thread %" PRIu32, t);
    fputs("\"}}", c->fp);
    sep(c);
    fprintf(c->fp,
            "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%" PRId32 ",\"tid\":%" PRIu32
            ",\"args\":{\"sort_index\":%" PRIu64 "}}",
            c->in->rank, t, label ? sort : t);
    return 0;
}

static int name_thread(trace_ctx *c, uint32_t t)
{
    return name_thread_as(c, t, NULL, 0);
}

/* GPU streams and CUPTI's overhead records are tracks of their own. */
static int on_gpu(void *ctx, const ms_gpu_record *g)
{
    trace_ctx *c = ctx;
    char label[96];
    if (g->kind == MS_GPU_STREAM)
        snprintf(label, sizeof label, "GPU %" PRIu32 " stream %" PRIu32 " (context %" PRIu32 ")", g->device,
                 g->stream, g->context);
    else if (g->kind == MS_GPU_TOOL)
        snprintf(label, sizeof label, "GPU tool overhead");
    else
        return 0;
    if (name_thread_as(c, g->thread, label, (1ull << 32) + g->thread) < 0) {
        c->nomem = 1;
        return -1;
    }
    return 0;
}

static void put_flow(trace_ctx *c, const char *ph, uint64_t id, uint32_t thread, int64_t ts)
{
    sep(c);
    fprintf(c->fp, "{\"ph\":\"%s\",%s\"name\":\"message\",\"cat\":\"message\",\"id\":%" PRIu64 ",\"pid\":%" PRId32
                   ",\"tid\":%" PRIu32 ",\"ts\":",
            ph, ph[0] == 'f' ? "\"bp\":\"e\"," : "", id, c->in->rank, thread);
    put_us(c->fp, ts);
    fputc('}', c->fp);
}

/* Whether flow id of key k is drawn: both its ends kept. */
static int flow_shown(const trace_ctx *c, const ms_flow_key *k, uint64_t id)
{
    if (!c->w)
        return 1;
    if (c->w->timed)
        return c->ends[id] == 3;
    return ms_window_rank(c->w, k->src) && ms_window_rank(c->w, k->dst);
}

/* One end of a message of key k (a send or a receive) in a call: counted,
 * then marked (the marking pass) or written when its flow is drawn. */
static void flow_end(trace_ctx *c, ms_flow_key *k, ms_p2p_dir dir, uint32_t thread, int64_t ts, int kept)
{
    uint64_t id;
    if (!k || !(dir == MS_P2P_SEND ? ms_flows_send(k, &id) : dir == MS_P2P_RECV ? ms_flows_recv(k, &id) : 0))
        return;
    if (c->marking) {
        if (kept)
            c->ends[id] |= dir == MS_P2P_SEND ? 1 : 2;
        return;
    }
    if (!kept || !flow_shown(c, k, id))
        return;
    put_flow(c, dir == MS_P2P_SEND ? "s" : "f", id, thread, ts);
    c->shown += dir == MS_P2P_SEND;
}

/* The arrows of the messages a call's records name (p2p_facts.h). */
static void put_message_flows(trace_ctx *c, const trace_region *tr, const ms_read_message *m, size_t n,
                              uint32_t thread, int64_t ts, int kept)
{
    if (tr->facts == MS_P2P_FACTS_NONE || !ms_p2p_facts_known(m, n))
        return;
    for (size_t i = 0; i < n; i++) {
        ms_p2p_dir dir = ms_p2p_fact_dir(tr->facts, &m[i]);
        ms_flow_key *k = dir == MS_P2P_NONE ? NULL : flow_key(c, dir, m[i].comm, m[i].peer, m[i].tag);
        flow_end(c, k, dir, thread, ts, kept);
    }
}

static int on_call(void *ctx, const ms_replay_call *k)
{
    trace_ctx *c = ctx;
    if (k->region >= c->nregions)
        return 0;
    trace_region *tr = &c->regions[k->region];
    int64_t ts = k->start, dur = k->dur;
    if (k->kept && !c->marking) {
        /* The tool's stalls of thread T go on a track of their own, after
         * the thread's, named for it. */
        uint32_t tid = tr->tool ? TOOL_TRACK + k->thread : k->thread;
        char label[64];
        if (tr->tool)
            snprintf(label, sizeof label, "tool stalls (thread %" PRIu32 ")", k->thread);
        if ((tr->tool ? name_thread_as(c, tid, label, (1ull << 31) + k->thread) : name_thread(c, k->thread)) < 0) {
            c->nomem = 1;
            return -1;
        }
        sep(c);
        fprintf(c->fp, "{\"ph\":\"X\",%s,\"pid\":%" PRId32 ",\"tid\":%" PRIu32 ",\"ts\":", tr->json, c->in->rank,
                tid);
        put_us(c->fp, ts);
        fputs(",\"dur\":", c->fp);
        put_us(c->fp, dur);
        fputc('}', c->fp);
    }
    flow_end(c, tr->key, tr->dir, k->thread, ts, k->kept);
    if (tr->mpi && k->messages)
        put_message_flows(c, tr, k->msgs, k->nmsgs, k->thread, ts, k->kept);
    return 0;
}

static void free_regions(trace_ctx *c)
{
    for (size_t i = 0; i < c->nregions; i++)
        free(c->regions[i].json);
    c->nregions = 0;
}

static int put_process(trace_ctx *c)
{
    char label[64];
    snprintf(label, sizeof label, "rank %s (", ms_rank_s(c->in->rank).s);
    char *b = NULL;
    size_t n = 0, cap = 0;
    int rc = ms_json_append(&b, &n, &cap, label, strlen(label));
    rc |= ms_json_append(&b, &n, &cap, c->in->host, strlen(c->in->host));
    rc |= ms_json_append(&b, &n, &cap, ")", 1);
    sep(c);
    fprintf(c->fp, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%" PRId32 ",\"args\":{\"name\":", c->in->rank);
    if (rc == 0)
        rc = ms_json_put_str(c->fp, b, n);
    free(b);
    fputs("}}", c->fp);
    sep(c);
    fprintf(c->fp,
            "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":%" PRId32 ",\"args\":{\"sort_index\":%" PRId32
            "}}",
            c->in->rank, c->in->rank);
    return rc;
}

static int on_rank(void *ctx, const ms_rank_info *in)
{
    trace_ctx *c = ctx;
    c->in = in;
    if (!c->marking && put_process(c) != 0) {
        errno = ENOMEM;
        return -1;
    }
    c->threads.n = 0;
    return in->has_events ? 0 : 1;
}

static int on_rank_done(void *ctx, const ms_rank_info *in, ms_read_status st, const char *message)
{
    (void)in;
    trace_ctx *c = ctx;
    free_regions(c);
    if (c->nomem || st == MS_READ_NOMEM || st == MS_READ_STOPPED) {
        errno = ENOMEM;
        return -1;
    }
    if (st != MS_READ_OK && st != MS_READ_TRUNCATED) {
        fprintf(stderr, "mpiscope-merge: reading again for the trace: %s\n", message);
        errno = EIO;
        return -1;
    }
    return ferror(c->fp) ? -1 : 0;
}

static const ms_replay_ops trace_ops = {
    .rank = on_rank, .region = on_region, .call = on_call, .gpu = on_gpu, .rank_done = on_rank_done};

/* The waiting calls, as slices inside them: read back from the analysis's
 * file a batch at a time. 0, or -1 on a read error. */
static int wait_slices(trace_ctx *c)
{
    const ms_waits *w = c->run->waits;
    enum { BATCH = 1024 };
    ms_wx_instance *v = w && w->ninst ? malloc(BATCH * sizeof *v) : NULL;
    if (w && w->ninst && !v)
        return -1;
    for (size_t at = 0; w && at < w->ninst; at += BATCH) {
        size_t n = w->ninst - at < BATCH ? w->ninst - at : BATCH;
        if (ms_waits_inst_read(w, at, n, v) != 0) {
            free(v);
            return -1;
        }
        for (size_t i = 0; i < n; i++) {
            const ms_wx_instance *x = &v[i];
            if (!ms_window_rank(c->w, x->rank) ||
                !ms_window_time(c->w, x->from - c->run->origin, x->to - c->run->origin))
                continue;
            sep(c);
            fprintf(c->fp, "{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"wait_state\",\"pid\":%" PRId32
                    ",\"tid\":%" PRIu32 ",\"ts\":", ms_wx_pattern_name(x->pattern), x->rank, x->thread);
            put_us(c->fp, x->from - c->run->origin);
            fputs(",\"dur\":", c->fp);
            put_us(c->fp, x->to - x->from);
            fprintf(c->fp, ",\"args\":{\"waited_for_rank\":%" PRId32 "}}", x->cause);
        }
    }
    free(v);
    return 0;
}

int ms_report_trace(FILE *fp, const ms_run *run)
{
    ms_flows flows;
    if (ms_flows_build(run, &flows) != 0) {
        errno = ENOMEM;
        return -1;
    }
    trace_ctx c = {.fp = fp, .run = run, .flows = &flows, .first = 1, .w = run->window};
    int rc = 0;
    if (c.w && c.w->timed) {
        /* Which ends of each flow the window keeps. */
        c.marking = 1;
        if (!(c.ends = calloc(flows.nflows + 1, 1))) {
            errno = ENOMEM;
            rc = -1;
        }
        if (rc == 0)
            rc = ms_replay_run(run, &trace_ops, &c);
        for (size_t k = 0; k < flows.nkeys; k++)
            flows.keys[k].sent = flows.keys[k].received = 0;
        c.marking = 0;
    }
    fputs("{\"traceEvents\":[", fp);
    if (rc == 0)
        rc = ms_replay_run(run, &trace_ops, &c);
    if (rc == 0 && wait_slices(&c) != 0) {
        errno = errno ? errno : EIO;
        rc = -1;
    }
    fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"ranks\":", fp);
    fprintf(fp, "%zu,\"messages_with_flows\":%" PRIu64 ",\"dir\":", run->nranks, c.w ? c.shown : flows.nflows);
    if (rc == 0)
        rc = ms_json_put_str(fp, run->dir, strlen(run->dir));
    fputs("}}\n", fp);
    free_regions(&c);
    free(c.regions);
    free(c.threads.v);
    free(c.ends);
    ms_flows_free(&flows);
    return rc != 0 || ferror(fp) ? -1 : 0;
}
