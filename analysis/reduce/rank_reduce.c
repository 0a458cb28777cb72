/*
 * One log -> its per-file result (reduce_partial.h: ms_file_job): the
 * reader's callbacks accumulate per-region statistics, call sites,
 * communicators, exclusive times, counters, GPU activity and clock-sync
 * measurements of the file, and the messages of its message records
 * (p2p_facts.h); then the rank's times, warnings, channels and region parts
 * are made from them.
 */
#include "reduce_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/nesting.h"
#include "chan_sum.h"
#include "p2p_facts.h"

/* A region of the file (by the reader's id): its calls so far. */
typedef struct file_slot {
    ms_stats stats;
    uint64_t window_ns;
    uint64_t excl_ns;              /* exclusive time (nesting.h) */
    int is_gpu;                    /* "cuda:": device time, never nested */
    int is_mpi;
    ms_p2p_facts facts;            /* what its message records say (p2p_facts.h) */
    uint64_t resolved;             /* its calls counted from their records */
} file_slot;

/* What the callbacks accumulate while the file is read. */
typedef struct file_ctx {
    ms_file_job *job;
    ms_reader *rd;
    file_slot *slots;
    size_t nslots, cap;
    uint64_t win_lo, win_hi;
    int has_events;
    uint64_t first_start, last_end;
    int has_end;
    ms_end_record end;
    ms_site_acc sites;
    ms_comm_map comms;             /* its communicator records (p2p.h) */
    ms_idmap comm_index;           /* communicator id -> its fact (comm_facts.h) */
    ms_nest nest;                  /* exclusive times (nesting.h) */
    ms_gpu_acc *gpu;               /* GPU activity (gpu.h) */
    ms_wait_acc *waits;            /* the wait-state facts (wait_facts.h) */
    int facts_on;                  /* calls wrote message records (p2p_facts.h) */
    ms_p2p_pending pending;        /* ... read since each thread's last call */
    ms_chan_sum mchans;            /* channels of the messages of those records */
    ms_ending_acc ending;          /* its ending blocks and last call (ending.h) */
    int trace_summary;             /* a trace log holds summaries: a full disk */
    uint64_t summary_first;        /* the earliest call they count */
    int nomem;
} file_ctx;

static int waits_on = 1;

void ms_reduce_set_waits(int on)
{
    waits_on = on;
}

static char *dup_str(const char *s)
{
    return strdup(s ? s : "");
}

static int on_header(void *ctx, const ms_log_meta *m)
{
    file_ctx *f = ctx;
    ms_rank_info *in = &f->job->info;
    const ms_file_header *h = &m->header;
    in->rank = h->rank;
    in->size = h->size;
    in->pid = h->pid;
    in->mode = h->mode;
    in->init_start_ns = h->init_start_ns;
    in->init_end_ns = h->init_end_ns;
    /* realtime - clock: both are within int64 (the reader checks clock). */
    in->clock_offset_ns = ms_sat_add_i64(h->realtime_ref_ns, -(int64_t)h->clock_ref_ns);
    in->host = dup_str(m->host);
    in->mpi_library = dup_str(m->mpi_library);
    in->argv0 = dup_str(m->argv0);
    in->run_dir = dup_str(m->run_dir);
    in->clock = dup_str(m->clock);
    in->run_id = dup_str(m->run_id);
    if (!in->host || !in->mpi_library || !in->argv0 || !in->run_dir || !in->clock || !in->run_id) {
        f->nomem = 1;
        return -1;
    }
    if (h->mode == MS_MODE_TRACE && waits_on) {
        if ((f->job->waits = calloc(1, sizeof *f->job->waits)))
            ms_wait_facts_init(f->job->waits);
        if (!f->job->waits || !(f->waits = ms_wait_acc_new(f->job->waits, &f->comms)) || ms_wait_acc_header(f->waits, h->rank, h->version) != 0) {
            f->nomem = 1;
            return -1;
        }
    }
    f->facts_on = ms_p2p_facts_on(h->version, h->mode);
    f->win_lo = h->init_end_ns;
    f->win_hi = (m->has_end_hint && m->end_hint.finalize_start_ns) ? m->end_hint.finalize_start_ns
                                                                    : UINT64_MAX;
    return 0;
}

static int on_region(void *ctx, uint32_t region, const char *name, size_t len)
{
    file_ctx *f = ctx;
    if (region >= f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 64;
        while (cap <= region)
            cap *= 2;
        file_slot *s = realloc(f->slots, cap * sizeof *s);
        if (!s) {
            f->nomem = 1;
            return -1;
        }
        f->slots = s;
        f->cap = cap;
    }
    /* The reader numbers new names densely: region == f->nslots. */
    while (f->nslots <= region) {
        file_slot *s = &f->slots[f->nslots++];
        ms_stats_init(&s->stats);
        s->window_ns = 0;
        s->is_mpi = 0;
        s->excl_ns = 0;
        s->is_gpu = 0;
        s->facts = MS_P2P_FACTS_NONE;
        s->resolved = 0;
    }
    f->slots[region].is_mpi = ms_region_is_mpi(name, len);
    /* The callback's name is not NUL-terminated; the reader's copy is. */
    const char *z = ms_reader_region_name(f->rd, region, NULL);
    ms_region_info ri;
    if (f->slots[region].is_mpi && z && ms_region_parse(z, &ri)) {
        int64_t peer, tag, comm;
        f->slots[region].facts = ms_p2p_facts_of(&ri, ms_p2p_classify(&ri, &peer, &tag, &comm));
    }
    f->slots[region].is_gpu = len >= 5 && memcmp(name, "cuda:", 5) == 0;
    if (ms_gpu_acc_region(f->gpu, region, name, len) != 0 ||
        (f->waits && ms_wait_acc_region(f->waits, region, name, len) != 0)) {
        f->nomem = 1;
        return -1;
    }
    return 0;
}

/* One message of a record, added to its channel. */
static int add_message_chan(file_ctx *f, ms_p2p_dir dir, const ms_read_message *m)
{
    ms_p2p_chan c = {.rank = f->job->info.rank, .dir = dir, .comm = m->comm, .peer = m->peer, .tag = m->tag,
                     .world_peer = -1, .calls = 1, .bytes = m->bytes > 0 ? (uint64_t)m->bytes : 0};
    return ms_chan_sum_add(&f->mchans, &c);
}

/* The message records of an MPI call, read before its event: the messages
 * its name does not attribute (p2p_facts.h). */
static int take_messages(file_ctx *f, file_slot *s, uint32_t thread)
{
    size_t n;
    const ms_read_message *m = ms_p2p_pending_take(&f->pending, thread, &n);
    if (!f->facts_on || s->facts == MS_P2P_FACTS_NONE || !ms_p2p_facts_known(m, n))
        return 0;
    for (size_t i = 0; i < n; i++) {
        ms_p2p_dir dir = ms_p2p_fact_dir(s->facts, &m[i]);
        if (dir != MS_P2P_NONE && add_message_chan(f, dir, &m[i]) != 0)
            return -1;
    }
    s->resolved++;
    return 0;
}

static int on_event(void *ctx, const ms_read_event *ev)
{
    file_ctx *f = ctx;
    file_slot *s = &f->slots[ev->region];
    /* The tool's own events (its stalls) may come between a call's
     * records and its event. */
    if (s->is_mpi && take_messages(f, s, ev->thread) != 0) {
        f->nomem = 1;
        return -1;
    }
    uint64_t d = ev->end_ns - ev->start_ns;
    /* The reader keeps times within int64. */
    if (ms_stats_add(&s->stats, (int64_t)ev->start_ns, d) != 0) {
        f->nomem = 1;
        return -1;
    }
    if (s->is_mpi && ev->start_ns >= f->win_lo && ev->end_ns <= f->win_hi)
        s->window_ns += d;
    uint64_t excl = d;
    if (!s->is_gpu && ms_nest_event(&f->nest, ev->thread, ev->start_ns, ev->end_ns, &excl) != 0) {
        f->nomem = 1;
        return -1;
    }
    s->excl_ns += excl;
    if (s->is_mpi)
        ms_ending_acc_event(&f->ending, ev->region, ev->site, ev->end_ns);
    uint32_t site_entry = MS_WX_NONE;
    if (ev->site != MS_SITE_NONE) {
        if (ms_site_acc_add(&f->sites, ev->region, ev->site, d) != 0) {
            f->nomem = 1;
            return -1;
        }
        site_entry = f->sites.last;
    }
    if (s->is_gpu && ms_gpu_acc_event(f->gpu, ev) != 0) {
        f->nomem = 1;
        return -1;
    }
    if (f->waits && ms_wait_acc_event(f->waits, ev, site_entry) != 0) {
        f->nomem = 1;
        return -1;
    }
    if (!f->has_events || ev->start_ns < f->first_start)
        f->first_start = ev->start_ns;
    if (!f->has_events || ev->end_ns > f->last_end)
        f->last_end = ev->end_ns;
    f->has_events = 1;
    return 0;
}

/* Summary mode: a region id's aggregate counts as all its calls. */
static int on_summary(void *ctx, const ms_summary_rec *r)
{
    file_ctx *f = ctx;
    file_slot *s = &f->slots[r->region];
    ms_stats part;
    ms_stats_init(&part);
    if (ms_stats_from_agg(&part, &r->agg) != 0 || ms_stats_merge(&s->stats, &part) != 0 ||
        (r->site != MS_SITE_NONE && ms_site_acc_add_calls(&f->sites, r->region, r->site, r->agg.calls,
                                                          r->agg.total_ns) != 0)) {
        ms_stats_free(&part);
        f->nomem = 1;
        return -1;
    }
    ms_stats_free(&part);
    s->window_ns += r->window_ns;
    s->excl_ns += r->excl_ns;
    if (s->is_mpi && r->agg.calls)
        ms_ending_acc_event(&f->ending, r->region, r->site, (uint64_t)r->agg.last_end);
    uint64_t first = (uint64_t)r->agg.first_start, last = (uint64_t)r->agg.last_end;
    if (f->job->info.mode == MS_MODE_TRACE && r->agg.calls &&
        (!f->trace_summary || first < f->summary_first)) {
        f->trace_summary = 1;
        f->summary_first = first;
    }
    if (!f->has_events || first < f->first_start)
        f->first_start = first;
    if (!f->has_events || last > f->last_end)
        f->last_end = last;
    f->has_events = 1;
    return 0;
}

static int on_ending(void *ctx, const ms_ending_record *e)
{
    file_ctx *f = ctx;
    f->ending.has = 1;
    f->ending.rec = *e;
    return 0;
}

static int on_end(void *ctx, const ms_end_record *e)
{
    file_ctx *f = ctx;
    f->has_end = 1;
    f->end = *e;
    return 0;
}

static int on_comm(void *ctx, uint32_t thread, uint64_t comm_id, const int32_t *world_ranks, uint32_t n)
{
    (void)thread;
    file_ctx *f = ctx;
    ms_comm_fact *c = ms_comm_facts_get(&f->job->info.comms, &f->comm_index, (int64_t)comm_id);
    if (!c || ms_comm_map_add(&f->comms, comm_id, world_ranks, n) != 0) {
        f->nomem = 1;
        return -1;
    }
    c->size = n;
    c->low = -1;
    for (uint32_t i = 0; i < n; i++)
        if (c->low < 0 || world_ranks[i] < c->low)
            c->low = world_ranks[i];
    return 0;
}

static int on_comm_origin(void *ctx, const ms_read_comm_origin *o)
{
    file_ctx *f = ctx;
    ms_comm_fact *c = ms_comm_facts_get(&f->job->info.comms, &f->comm_index, (int64_t)o->id);
    if (!c) {
        f->nomem = 1;
        return -1;
    }
    c->has_origin = 1;
    c->op = o->op;
    c->parent = o->parent;
    c->seq = o->seq;
    c->site = o->site;
    c->ndims = o->ndims;
    memcpy(c->dims, o->dims, sizeof c->dims);
    return 0;
}

static int on_comm_name(void *ctx, uint32_t thread, uint64_t comm_id, const char *name, uint32_t len)
{
    (void)thread;
    file_ctx *f = ctx;
    ms_comm_fact *c = ms_comm_facts_get(&f->job->info.comms, &f->comm_index, (int64_t)comm_id);
    if (!c || ms_comm_fact_name(c, name, len) != 0) {
        f->nomem = 1;
        return -1;
    }
    return 0;
}

/* The call sites that made the rank's communicators. */
static int locate_comms(ms_comm_facts *cf, const ms_reader *rd, ms_symbolizer *sym)
{
    for (size_t i = 0; i < cf->n; i++) {
        ms_comm_fact *c = &cf->v[i];
        if (c->site != UINT32_MAX && !(c->where = ms_site_locate(rd, sym, c->site)))
            return -1;
        c->region = c->site = UINT32_MAX;
    }
    return 0;
}

static int on_file(void *ctx, const ms_read_file *r)
{
    file_ctx *f = ctx;
    if (ms_io_files_add(&f->job->info.io_files, r->id, r->comm, r->path, r->len) != 0) {
        f->nomem = 1;
        return -1;
    }
    return 0;
}

static int on_counter_set(void *ctx, uint32_t set, const ms_counter_set *def)
{
    file_ctx *f = ctx;
    if ((!f->job->counters && !(f->job->counters = ms_counter_acc_new())) ||
        ms_counter_acc_set(f->job->counters, set, def) != 0) {
        f->nomem = 1;
        return -1;
    }
    return 0;
}

static int on_counter_sample(void *ctx, const ms_counter_sample *s)
{
    file_ctx *f = ctx;
    if (!f->job->counters || ms_counter_acc_sample(f->job->counters, s) != 0) {
        f->nomem = 1;
        return -1;
    }
    return 0;
}

static int on_gpu(void *ctx, const ms_gpu_record *g)
{
    file_ctx *f = ctx;
    if (ms_gpu_acc_record(f->gpu, g) != 0) {
        f->nomem = 1;
        return -1;
    }
    return 0;
}

static int on_sync(void *ctx, const ms_sync_sample *s)
{
    file_ctx *f = ctx;
    ms_clock_obs_set(&f->job->info.align, s, f->job->info.clock_offset_ns);
    return 0;
}

static int on_message(void *ctx, const ms_read_message *m)
{
    file_ctx *f = ctx;
    if (f->facts_on && ms_p2p_pending_add(&f->pending, m) != 0) {
        f->nomem = 1;
        return -1;
    }
    if (f->waits && ms_wait_acc_message(f->waits, m) != 0) {
        f->nomem = 1;
        return -1;
    }
    return 0;
}

static const ms_read_callbacks reduce_callbacks = {
    .message = on_message,
    .gpu = on_gpu,
    .header = on_header,
    .region = on_region,
    .event = on_event,
    .comm = on_comm,
    .comm_origin = on_comm_origin,
    .comm_name = on_comm_name,
    .file = on_file,
    .end = on_end,
    .ending = on_ending,
    .counter_set = on_counter_set,
    .counter_sample = on_counter_sample,
    .summary = on_summary,
    .sync = on_sync,
};

static void free_slots(file_ctx *f)
{
    ms_wait_acc_free(f->waits);
    f->waits = NULL;
    ms_gpu_acc_free(f->gpu);
    f->gpu = NULL;
    ms_site_acc_free(&f->sites);
    ms_idmap_free(&f->comm_index);
    ms_comm_map_free(&f->comms);
    ms_nest_free(&f->nest);
    ms_p2p_pending_free(&f->pending);
    ms_chan_sum_free(&f->mchans);
    for (size_t i = 0; i < f->nslots; i++)
        ms_stats_free(&f->slots[i].stats);
    free(f->slots);
    f->slots = NULL;
    f->nslots = f->cap = 0;
}

/* The channels of the messages of message records, their peers mapped to
 * world ranks now that every communicator record is read. */
static int append_message_chans(file_ctx *f)
{
    ms_file_job *j = f->job;
    size_t n = ms_p2p_chans_normalize(f->mchans.v, f->mchans.n);
    if (n == 0)
        return 0;
    if (j->nchans + n > j->chans_cap) {
        size_t cap = j->nchans + n;
        ms_p2p_chan *v = realloc(j->chans, cap * sizeof *v);
        if (!v)
            return -1;
        j->chans = v;
        j->chans_cap = cap;
    }
    for (size_t i = 0; i < n; i++) {
        ms_p2p_chan c = f->mchans.v[i];
        c.world_peer = ms_comm_map_world(&f->comms, c.comm, c.peer, j->info.rank);
        j->chans[j->nchans++] = c;
    }
    return 0;
}

/* Per-rank times, once the file is read. */
static void finish_rank(file_ctx *f)
{
    ms_rank_info *in = &f->job->info;
    in->threads = f->job->res.threads;
    in->events = f->job->res.events + f->job->res.summarized;
    in->has_end = f->has_end;
    if (f->has_end) {
        in->finalize_start_ns = f->end.finalize_start_ns;
        in->finalized = f->end.finalize_start_ns != 0;
        in->dropped = f->end.dropped;
    }
    uint64_t lo = in->init_end_ns;
    if (lo == 0 && f->has_events)
        lo = f->first_start;
    uint64_t hi = lo;
    if (in->finalized)
        hi = in->finalize_start_ns;
    else if (f->has_events)
        hi = f->last_end;
    in->app_ns = hi > lo ? hi - lo : 0;
    uint64_t start = in->init_start_ns ? in->init_start_ns : lo;
    in->wall_ns = hi > start ? hi - start : 0;
    in->mpi_ns = 0;
    for (size_t i = 0; i < f->nslots; i++)
        if (f->slots[i].is_mpi)
            in->mpi_ns += f->slots[i].window_ns;
    in->mpi_pct = in->app_ns ? 100.0 * (double)in->mpi_ns / (double)in->app_ns : 0.0;
    in->has_events = f->has_events;
    if (f->has_events) {
        in->first_start = ms_sat_add_i64((int64_t)f->first_start, in->clock_offset_ns);
        in->last_end = ms_sat_add_i64((int64_t)f->last_end, in->clock_offset_ns);
    }
}

static int file_warnings(file_ctx *f)
{
    ms_file_job *j = f->job;
    ms_rank_info *in = &j->info;
    int rc = 0;
    if (j->res.status == MS_READ_TRUNCATED)
        rc |= ms_strlist_addf(&j->warnings, "%s; its readable part is used: %" PRIu64 " events in %" PRIu64
                              " checksummed frames before byte offset %" PRIu64, j->res.message, j->res.events,
                              j->res.frames, j->res.offset);
    if (j->name_rank >= 0 && j->name_rank != in->rank)
        rc |= ms_strlist_addf(&j->warnings, "%s: the file name says rank %lld, its header rank %" PRId32
                              "; rank %" PRId32 " is used", j->path, j->name_rank, in->rank, in->rank);
    if (f->has_end && f->end.dropped)
        rc |= ms_strlist_addf(&j->warnings, "%s: rank %" PRId32 " dropped %" PRIu64 " events while recording",
                              j->path, in->rank, f->end.dropped);
    if (f->trace_summary) {
        uint64_t from = in->init_end_ns && f->summary_first > in->init_end_ns ? f->summary_first - in->init_end_ns : 0;
        rc |= ms_strlist_addf(&j->warnings, "%s: rank %" PRId32 "'s log ran out of room (a full disk or a quota): "
                              "its %" PRIu64 " calls that did not fit, the first %.3f s after MPI_Init, are counted "
                              "from its summary, with exact counts and times, but are not on the timeline",
                              j->path, in->rank, j->res.summarized, (double)from / 1e9);
    }
    if (f->nest.inexact)
        rc |= ms_strlist_addf(&j->warnings, "%s: the exclusive time of %" PRIu64 " events is approximate: a thread "
                              "had more than %u events not yet inside another (common/nesting.h)", j->path,
                              f->nest.inexact, MS_NEST_EXACT + MS_NEST_BUCKETS);
    if (f->has_end && in->events + f->end.dropped < f->end.events)
        rc |= ms_strlist_addf(&j->warnings, "%s: its end record counts %" PRIu64 " events, %" PRIu64 " were read",
                              j->path, f->end.events, in->events);
    return rc;
}

int ms_reduce_file(ms_reader *rd, ms_file_job *j, size_t file_index, ms_symbolizer *sym, ms_region_table *tab,
                   ms_callsite **sites, size_t *nsites, size_t *sites_cap)
{
    file_ctx f;
    memset(&f, 0, sizeof f);
    f.job = j;
    f.rd = rd;
    ms_site_acc_init(&f.sites);
    if (!(f.gpu = ms_gpu_acc_new()))
        return -1;
    ms_reader_read(rd, j->path, &reduce_callbacks, &f, &j->res);
    j->read = 1;
    if (f.nomem || j->res.status == MS_READ_NOMEM) {
        free_slots(&f);
        return -1;
    }
    int ok = j->res.status == MS_READ_OK || j->res.status == MS_READ_TRUNCATED;
    if (!ok || !j->res.has_header) {
        if (ok && ms_strlist_addf(&j->warnings, "%s; no header, the file is ignored", j->res.message) != 0) {
            free_slots(&f);
            return -1;
        }
        free_slots(&f);
        return 0;
    }
    j->usable = 1;
    finish_rank(&f);
    if (j->counters && ms_counter_acc_resolve(j->counters, rd) != 0) {
        free_slots(&f);
        return -1;
    }
    /* The wait facts name their events' call sites by sum entry: each
     * entry's location replaces it. */
    char **loc = j->waits && f.sites.n ? calloc(f.sites.n, sizeof *loc) : NULL;
    int site_rc = j->waits && f.sites.n && !loc ? -1 : 0;
    if (site_rc == 0)
        site_rc = ms_site_acc_resolve(&f.sites, rd, j->info.rank, sym, sites, nsites, sites_cap, loc);
    if (site_rc == 0 && j->waits)
        site_rc = ms_wait_acc_finish(f.waits);
    if (site_rc == 0 && j->waits)
        site_rc = ms_wait_facts_places(j->waits, loc, loc ? f.sites.n : 0);
    for (size_t i = 0; loc && i < f.sites.n; i++)
        free(loc[i]);
    free(loc);
    if (site_rc == 0)
        site_rc = locate_comms(&j->info.comms, rd, sym);
    if (site_rc == 0)
        site_rc = ms_ending_resolve(&f.ending, f.ending.has_last ? f.ending.last_end : 0, rd, sym, &f.comms, j->info.rank,
                                    j->info.size, &j->info.ending);
    if (site_rc != 0) {
        free_slots(&f);
        return -1;
    }
    if (file_warnings(&f) != 0) {
        free_slots(&f);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < f.nslots; i++) {
        file_slot *s = &f.slots[i];
        if (rc != 0 || s->stats.calls == 0) {
            ms_stats_free(&s->stats);
            continue;
        }
        ms_stats_shift(&s->stats, j->info.clock_offset_ns);
        size_t len;
        const char *name = ms_reader_region_name(rd, (uint32_t)i, &len);
        /* Calls counted from their message records leave the name's
         * pattern to the others. */
        uint64_t unresolved = s->stats.calls - (s->resolved < s->stats.calls ? s->resolved : s->stats.calls);
        if (s->is_mpi && ms_p2p_add_region(&j->chans, &j->nchans, &j->chans_cap, j->info.rank, name, unresolved,
                                           &f.comms) != 0)
            rc = -1;
        ms_region_rank part = {.rank_index = (uint32_t)file_index, .window_ns = s->window_ns, .excl_ns = s->excl_ns,
                               .stats = s->stats};
        if (ms_region_table_add(tab, name, len, &part) != 0) {
            ms_stats_free(&s->stats);
            rc = -1;
        }
    }
    if (rc == 0 && append_message_chans(&f) != 0)
        rc = -1;
    free(f.slots);
    ms_wait_acc_free(f.waits);
    f.waits = NULL;
    ms_nest_free(&f.nest);
    ms_site_acc_free(&f.sites);
    ms_idmap_free(&f.comm_index);
    ms_comm_map_free(&f.comms);
    ms_p2p_pending_free(&f.pending);
    ms_chan_sum_free(&f.mchans);
    /* GPU activity: a second read of the log when launches are to be
     * charged to their enclosing regions (gpu.h). */
    ms_rank_info *in = &j->info;
    uint64_t wall_lo = in->init_start_ns ? in->init_start_ns : in->init_end_ns ? in->init_end_ns : f.first_start;
    ms_gpu_acc *gpu = f.gpu;
    f.gpu = NULL;
    if (rc == 0 && ms_gpu_acc_finish(gpu, rd, j->path, wall_lo, wall_lo + in->wall_ns, &in->gpu) != 0)
        rc = -1;
    else if (rc != 0)
        ms_gpu_acc_free(gpu);
    return rc;
}
