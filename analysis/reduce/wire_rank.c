/* A rank's facts on the wire: see wire_rank.h. Each put_X / get_X pair
 * names every field of X in the same order. */
#include "wire_rank.h"

#include <stdlib.h>

/* A field added to a struct that travels changes its size: these stop the
 * build until the pair below carries it (sizes of LP64 machines). */
#if UINTPTR_MAX == UINT64_MAX && defined(__LP64__)
#define CARRIED(T, n) _Static_assert(sizeof(T) == (n), #T " changed: carry its new fields in " __FILE__)
CARRIED(ms_rank_info, 568);
CARRIED(ms_rank_ending, 120);
CARRIED(ms_end_req, 12);
CARRIED(ms_clock_obs, 40);
CARRIED(ms_clock_align, 128);
CARRIED(ms_gpu_rank, 88);
CARRIED(ms_gpu_origin, 24);
CARRIED(ms_io_file, 24);
CARRIED(ms_comm_fact, 136);
#endif

/* Smallest wire sizes of the items behind counts. */
#define ORIGIN_MIN (8 + 8 + 8)
#define IO_FILE_MIN (4 + 8 + 8)
#define COMM_MIN (8 + 8 + 8 + 4 * 6 + 4 + 4 + 8 + 8)

static void put_clock_obs(ms_pbuf *b, const ms_clock_obs *o)
{
    ms_wire_i32(b, o->has);
    ms_wire_i64(b, o->local);
    ms_wire_u64(b, o->peer_mono_ns);
    ms_wire_u64(b, o->rtt_ns);
    ms_wire_u32(b, o->exchanges);
}

static void get_clock_obs(ms_wire_in *r, ms_clock_obs *o)
{
    o->has = ms_wire_get_i32(r);
    o->local = ms_wire_get_i64(r);
    o->peer_mono_ns = ms_wire_get_u64(r);
    o->rtt_ns = ms_wire_get_u64(r);
    o->exchanges = ms_wire_get_u32(r);
}

static void put_clock_align(ms_pbuf *b, const ms_clock_align *a)
{
    put_clock_obs(b, &a->obs[0]);
    put_clock_obs(b, &a->obs[1]);
    ms_wire_i32(b, a->model);
    ms_wire_i64(b, a->offset_ns);
    ms_wire_i64(b, a->ref);
    ms_wire_f64(b, a->drift);
    ms_wire_i32(b, a->peer);
    ms_wire_i32(b, a->same_clock);
    ms_wire_i64(b, a->path_error_ns);
}

static void get_clock_align(ms_wire_in *r, ms_clock_align *a)
{
    get_clock_obs(r, &a->obs[0]);
    get_clock_obs(r, &a->obs[1]);
    a->model = ms_wire_get_i32(r);
    a->offset_ns = ms_wire_get_i64(r);
    a->ref = ms_wire_get_i64(r);
    a->drift = ms_wire_get_f64(r);
    a->peer = ms_wire_get_i32(r);
    a->same_clock = ms_wire_get_i32(r);
    a->path_error_ns = ms_wire_get_i64(r);
}

static void put_gpu(ms_pbuf *b, const ms_gpu_rank *g)
{
    ms_wire_u32(b, g->streams);
    ms_wire_u64(b, g->kernels);
    ms_wire_u64(b, g->copies);
    ms_wire_u64(b, g->memsets);
    ms_wire_u64(b, g->kernel_ns);
    ms_wire_u64(b, g->copy_ns);
    ms_wire_u64(b, g->memset_ns);
    ms_wire_u64(b, g->busy_ns);
    ms_wire_u64(b, g->dropped);
    ms_wire_u64(b, g->norigins);
    for (size_t i = 0; i < g->norigins; i++) {
        ms_wire_str(b, g->origins[i].region);
        ms_wire_u64(b, g->origins[i].calls);
        ms_wire_u64(b, g->origins[i].gpu_ns);
    }
}

static void get_gpu(ms_wire_in *r, ms_gpu_rank *g)
{
    g->streams = ms_wire_get_u32(r);
    g->kernels = ms_wire_get_u64(r);
    g->copies = ms_wire_get_u64(r);
    g->memsets = ms_wire_get_u64(r);
    g->kernel_ns = ms_wire_get_u64(r);
    g->copy_ns = ms_wire_get_u64(r);
    g->memset_ns = ms_wire_get_u64(r);
    g->busy_ns = ms_wire_get_u64(r);
    g->dropped = ms_wire_get_u64(r);
    size_t n = ms_wire_get_count(r, ORIGIN_MIN);
    if (!(g->origins = ms_wire_alloc(r, n, sizeof *g->origins)))
        return;
    for (size_t i = 0; i < n && ms_wire_ok(r); i++) {
        ms_gpu_origin *o = &g->origins[i];
        o->region = ms_wire_get_str_nn(r);
        o->calls = ms_wire_get_u64(r);
        o->gpu_ns = ms_wire_get_u64(r);
        if (o->region)
            g->norigins = i + 1;
    }
}

static void put_io_files(ms_pbuf *b, const ms_io_files *f)
{
    ms_wire_u64(b, f->n);
    for (size_t i = 0; i < f->n; i++) {
        ms_wire_u32(b, f->v[i].id);
        ms_wire_i64(b, f->v[i].comm);
        ms_wire_str(b, f->v[i].path);
    }
}

static void get_io_files(ms_wire_in *r, ms_io_files *f)
{
    size_t n = ms_wire_get_count(r, IO_FILE_MIN);
    if (!(f->v = ms_wire_alloc(r, n, sizeof *f->v)))
        return;
    for (size_t i = 0; i < n && ms_wire_ok(r); i++) {
        ms_io_file *x = &f->v[i];
        x->id = ms_wire_get_u32(r);
        x->comm = ms_wire_get_i64(r);
        x->path = ms_wire_get_str_nn(r);
        if (x->path)
            f->n = i + 1;
    }
}

static void put_comm(ms_pbuf *b, const ms_comm_fact *c)
{
    ms_wire_i64(b, c->id);
    ms_wire_i64(b, c->parent);
    ms_wire_u64(b, c->seq);
    ms_wire_u32(b, c->op);
    ms_wire_u32(b, c->has_origin);
    ms_wire_u32(b, c->size);
    ms_wire_i32(b, c->low);
    ms_wire_u32(b, c->ndims);
    for (uint32_t d = 0; d < c->ndims && d < MS_MAX_COMM_DIMS; d++)
        ms_wire_u32(b, c->dims[d]);
    ms_wire_u32(b, c->region);
    ms_wire_u32(b, c->site);
    ms_wire_str(b, c->name);
    ms_wire_str(b, c->where);
}

static void get_comm(ms_wire_in *r, ms_comm_fact *c)
{
    c->id = ms_wire_get_i64(r);
    c->parent = ms_wire_get_i64(r);
    c->seq = ms_wire_get_u64(r);
    c->op = ms_wire_get_u32(r);
    c->has_origin = ms_wire_get_u32(r);
    c->size = ms_wire_get_u32(r);
    c->low = ms_wire_get_i32(r);
    c->ndims = ms_wire_get_u32_max(r, MS_MAX_COMM_DIMS);
    for (uint32_t d = 0; d < c->ndims; d++)
        c->dims[d] = ms_wire_get_u32(r);
    c->region = ms_wire_get_u32(r);
    c->site = ms_wire_get_u32(r);
    c->name = ms_wire_get_str(r);
    c->where = ms_wire_get_str(r);
}

static void put_comms(ms_pbuf *b, const ms_comm_facts *f)
{
    ms_wire_u64(b, f->n);
    for (size_t i = 0; i < f->n; i++)
        put_comm(b, &f->v[i]);
}

static void get_comms(ms_wire_in *r, ms_comm_facts *f)
{
    size_t n = ms_wire_get_count(r, COMM_MIN);
    if (!(f->v = ms_wire_alloc(r, n, sizeof *f->v)))
        return;
    for (size_t i = 0; i < n && ms_wire_ok(r); i++) {
        f->n = i + 1;  /* (freed with f, whatever arrived) */
        get_comm(r, &f->v[i]);
    }
}

static void put_ending(ms_pbuf *b, const ms_rank_ending *e)
{
    ms_wire_u32(b, e->cause);
    ms_wire_i32(b, e->signal);
    ms_wire_i32(b, e->code);
    ms_wire_u32(b, e->op);
    ms_wire_i32(b, e->peer);
    ms_wire_i32(b, e->tag);
    ms_wire_u64(b, e->at_ns);
    ms_wire_u64(b, e->since_ns);
    ms_wire_u64(b, e->idle_ns);
    ms_wire_str(b, e->site);
    ms_wire_str(b, e->fault_site);
    ms_wire_u64(b, e->nmembers);
    for (uint32_t i = 0; i < e->nmembers; i++)
        ms_wire_i32(b, e->members[i]);
    ms_wire_u32(b, e->last_op);
    ms_wire_str(b, e->last_site);
    ms_wire_u64(b, e->last_end_ns);
    ms_wire_u32(b, e->req_count);
    ms_wire_u64(b, e->nreqs);
    for (uint32_t i = 0; i < e->nreqs; i++) {
        ms_wire_u32(b, e->reqs[i].op);
        ms_wire_i32(b, e->reqs[i].peer);
        ms_wire_i32(b, e->reqs[i].tag);
    }
}

static void get_ending(ms_wire_in *r, ms_rank_ending *e)
{
    e->cause = ms_wire_get_u32_max(r, MS_ENDING_ABORT);
    e->signal = ms_wire_get_i32(r);
    e->code = ms_wire_get_i32(r);
    e->op = ms_wire_get_u32(r);
    e->peer = ms_wire_get_i32(r);
    e->tag = ms_wire_get_i32(r);
    e->at_ns = ms_wire_get_u64(r);
    e->since_ns = ms_wire_get_u64(r);
    e->idle_ns = ms_wire_get_u64(r);
    e->site = ms_wire_get_str(r);
    e->fault_site = ms_wire_get_str(r);
    size_t n = ms_wire_get_count(r, 4);
    if (n > UINT32_MAX)
        n = 0;
    if ((e->members = ms_wire_alloc(r, n, sizeof *e->members)))
        for (size_t i = 0; i < n && ms_wire_ok(r); i++) {
            e->members[i] = ms_wire_get_i32(r);
            e->nmembers = (uint32_t)(i + 1);
        }
    e->last_op = ms_wire_get_u32(r);
    e->last_site = ms_wire_get_str(r);
    e->last_end_ns = ms_wire_get_u64(r);
    e->req_count = ms_wire_get_u32(r);
    size_t nq = ms_wire_get_count(r, 12);
    if (nq > MS_ENDING_REQS)
        nq = 0;
    if ((e->reqs = ms_wire_alloc(r, nq, sizeof *e->reqs)))
        for (size_t i = 0; i < nq && ms_wire_ok(r); i++) {
            e->reqs[i].op = ms_wire_get_u32(r);
            e->reqs[i].peer = ms_wire_get_i32(r);
            e->reqs[i].tag = ms_wire_get_i32(r);
            e->nreqs = (uint32_t)(i + 1);
        }
}

void ms_wire_put_rank_info(ms_pbuf *b, const ms_rank_info *in)
{
    ms_wire_i32(b, in->rank);
    ms_wire_i32(b, in->size);
    ms_wire_i64(b, in->pid);
    ms_wire_str(b, in->file);
    ms_wire_str(b, in->host);
    ms_wire_str(b, in->mpi_library);
    ms_wire_str(b, in->argv0);
    ms_wire_str(b, in->run_dir);
    ms_wire_str(b, in->clock);
    ms_wire_str(b, in->run_id);
    ms_wire_u32(b, in->mode);
    ms_wire_u32(b, (uint32_t)in->status);
    ms_wire_i32(b, in->has_end);
    ms_wire_i32(b, in->finalized);
    ms_wire_u32(b, in->threads);
    ms_wire_u64(b, in->events);
    ms_wire_u64(b, in->dropped);
    ms_wire_u64(b, in->init_start_ns);
    ms_wire_u64(b, in->init_end_ns);
    ms_wire_u64(b, in->finalize_start_ns);
    ms_wire_i64(b, in->clock_offset_ns);
    put_clock_align(b, &in->align);
    ms_wire_i32(b, in->has_events);
    ms_wire_i64(b, in->first_start);
    ms_wire_i64(b, in->last_end);
    ms_wire_u64(b, in->app_ns);
    ms_wire_u64(b, in->mpi_ns);
    ms_wire_u64(b, in->wall_ns);
    ms_wire_f64(b, in->mpi_pct);
    put_gpu(b, &in->gpu);
    put_io_files(b, &in->io_files);
    put_comms(b, &in->comms);
    put_ending(b, &in->ending);
}

void ms_wire_get_rank_info(ms_wire_in *r, ms_rank_info *in)
{
    in->rank = ms_wire_get_i32(r);
    in->size = ms_wire_get_i32(r);
    in->pid = ms_wire_get_i64(r);
    in->file = ms_wire_get_str(r);
    in->host = ms_wire_get_str(r);
    in->mpi_library = ms_wire_get_str(r);
    in->argv0 = ms_wire_get_str(r);
    in->run_dir = ms_wire_get_str(r);
    in->clock = ms_wire_get_str(r);
    in->run_id = ms_wire_get_str(r);
    in->mode = ms_wire_get_u32(r);
    in->status = (ms_read_status)ms_wire_get_u32_max(r, MS_READ_STOPPED);
    in->has_end = ms_wire_get_i32(r);
    in->finalized = ms_wire_get_i32(r);
    in->threads = ms_wire_get_u32(r);
    in->events = ms_wire_get_u64(r);
    in->dropped = ms_wire_get_u64(r);
    in->init_start_ns = ms_wire_get_u64(r);
    in->init_end_ns = ms_wire_get_u64(r);
    in->finalize_start_ns = ms_wire_get_u64(r);
    in->clock_offset_ns = ms_wire_get_i64(r);
    get_clock_align(r, &in->align);
    in->has_events = ms_wire_get_i32(r);
    in->first_start = ms_wire_get_i64(r);
    in->last_end = ms_wire_get_i64(r);
    in->app_ns = ms_wire_get_u64(r);
    in->mpi_ns = ms_wire_get_u64(r);
    in->wall_ns = ms_wire_get_u64(r);
    in->mpi_pct = ms_wire_get_f64(r);
    get_gpu(r, &in->gpu);
    get_io_files(r, &in->io_files);
    get_comms(r, &in->comms);
    get_ending(r, &in->ending);
}
