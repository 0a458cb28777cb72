/* One rank's ending (ending.h). */
#include "ending.h"

#include <stdlib.h>
#include <string.h>

#include "../../common/op_class.h"
#include "../../common/op_names.h"
#include "../../common/region_parse.h"
#include "../../common/req_match.h"
#include "callsites.h"

void ms_rank_ending_free(ms_rank_ending *e)
{
    free(e->site);
    free(e->fault_site);
    free(e->members);
    free(e->last_site);
    free(e->reqs);
    memset(e, 0, sizeof *e);
}

/* The world ranks of communicator comm, seen from world rank `rank`. */
static int members_of(const ms_comm_map *comms, int64_t comm, int32_t rank, int32_t size, ms_rank_ending *out)
{
    uint32_t n = 0;
    const int32_t *from = NULL;
    if (comm == 0) {
        n = size > 0 ? (uint32_t)size : 0;
    } else if (comm == 1) {
        n = 1;
        from = &rank;
    } else {
        for (size_t i = 0; i < comms->n; i++)
            if (comms->v[i].id == (uint64_t)comm) {
                n = comms->v[i].n;
                from = comms->v[i].members;
            }
    }
    if (n == 0)
        return 0;
    if (!(out->members = malloc(n * sizeof *out->members)))
        return -1;
    for (uint32_t i = 0; i < n; i++)
        out->members[i] = from ? from[i] : (int32_t)i;
    out->nmembers = n;
    return 0;
}

/* The op id of region `region`'s name, 0 when it is not an MPI call. */
static uint32_t region_op(const ms_reader *rd, uint32_t region)
{
    size_t len;
    const char *name = ms_reader_region_name(rd, region, &len);
    ms_region_info ri;
    if (!name || !ms_region_parse(name, &ri))
        return 0;
    return ms_op_id(ri.op, strlen(ri.op));
}

/* The requests a completion call waits on, as the calls that created them
 * describe them (the reader's live requests at the end of the file). */
static int requests_of(const ms_ending_record *e, const ms_reader *rd, const ms_comm_map *comms, int32_t rank,
                       ms_rank_ending *out)
{
    uint32_t held = e->req_count < MS_ENDING_REQS ? e->req_count : MS_ENDING_REQS;
    out->req_count = e->req_count;
    if (!held)
        return 0;
    if (!(out->reqs = calloc(held, sizeof *out->reqs)))
        return -1;
    for (uint32_t i = 0; i < held; i++) {
        if (!e->reqs[i])
            continue;
        ms_end_req *q = &out->reqs[out->nreqs++];
        q->op = 0;
        q->peer = q->tag = -1;
        ms_rq_facts f;
        if (ms_reader_request(rd, e->thread, e->reqs[i], e->req_at + (uint64_t)i * e->req_stride, &f) != 0 ||
            !f.op || !ms_op_name(f.op))
            continue;
        q->op = f.op;
        q->tag = f.tag >= 0 && f.tag <= INT32_MAX ? (int32_t)f.tag : -1;
        if (f.peer >= 0 && f.peer <= INT32_MAX)
            q->peer = ms_comm_map_world(comms, f.comm, (int32_t)f.peer, rank);
    }
    return 0;
}

int ms_ending_resolve(const ms_ending_acc *a, uint64_t last_end, const ms_reader *rd, ms_symbolizer *sym,
                      const ms_comm_map *comms, int32_t rank, int32_t size, ms_rank_ending *out)
{
    memset(out, 0, sizeof *out);
    out->peer = out->tag = -1;
    if (a->has_last) {
        out->last_op = region_op(rd, a->last_region);
        out->last_end_ns = a->last_end;
        if (a->last_site != MS_SITE_NONE && !(out->last_site = ms_site_locate(rd, sym, a->last_site)))
            return -1;
    }
    if (!a->has)
        return 0;
    const ms_ending_record *e = &a->rec;
    int provisional = e->cause == MS_ENDING_BLOCKED || e->cause == MS_ENDING_STUCK;
    uint64_t began = e->call_since ? e->call_since : e->idle_since;
    if (provisional && last_end > began)
        return 0;
    out->cause = e->cause;
    out->signal = e->signal;
    out->code = e->code;
    out->at_ns = e->ticks;
    out->idle_ns = e->idle_since;
    if (e->fault_pc && !(out->fault_site = ms_pc_locate(rd, sym, e->fault_pc, 1)))
        return -1;
    if (!e->call_op || !ms_op_name(e->call_op))
        return 0;
    out->op = e->call_op;
    out->since_ns = e->call_since;
    out->tag = e->call_tag;
    out->peer = ms_comm_map_world(comms, e->call_comm, e->call_peer, rank);
    if (out->peer < 0 && e->call_root >= 0)
        out->peer = ms_comm_map_world(comms, e->call_comm, e->call_root, rank);
    if (e->call_pc && !(out->site = ms_pc_locate(rd, sym, e->call_pc, 0)))
        return -1;
    if (requests_of(e, rd, comms, rank, out) != 0)
        return -1;
    if (e->call_comm >= 0 && ms_op_data_collective(ms_op_meaning_of_id(e->call_op)))
        return members_of(comms, e->call_comm, rank, size, out);
    return 0;
}
