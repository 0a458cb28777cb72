/* Point-to-point messages in region names: see p2p.h. */
#include "p2p.h"

#include <stdlib.h>
#include <string.h>

#include "../../common/op_class.h"

/* A persistent send request (psend_init included: each start sends one
 * message). */
static int persistent_send(ms_op_meaning r)
{
    return r.cls == MS_OPC_SEND && (r.traits & MS_OPT_INIT);
}

/* A request whose completion is the receipt of one message (irecv,
 * imrecv, recv_init, precv_init). */
static int recv_request(ms_op_meaning r)
{
    return r.cls == MS_OPC_RECV && !ms_op_blocking(r);
}

ms_p2p_dir ms_p2p_classify(const ms_region_info *ri, int64_t *peer, int64_t *tag, int64_t *comm)
{
    *peer = ri->peer;
    *tag = ri->tag;
    *comm = ri->comm;
    if (!ri->is_mpi)
        return MS_P2P_NONE;
    ms_op_meaning op = ms_op_meaning_of(ri->op), req = ms_op_meaning_of(ri->request);
    /* Request words of a completion that name no op (DESIGN section 4). */
    int mixed = strcmp(ri->request, "mixed") == 0, unknown = strcmp(ri->request, "unknown") == 0;
    int known = ri->peer >= 0 && ri->comm >= 0;

    /* One send posted at the call: blocking or non-blocking, sendrecv's
     * send half included; not a persistent init (its starts send). */
    if (!ri->request[0] && ms_op_sends(op) && !(op.traits & MS_OPT_INIT))
        return known ? MS_P2P_SEND : MS_P2P_NONE;
    if (op.cls == MS_OPC_START_ONE && persistent_send(req))
        return known ? MS_P2P_SEND : MS_P2P_NONE;
    if ((op.cls == MS_OPC_START_ALL && (persistent_send(req) || mixed)) ||
        ((op.cls == MS_OPC_START_ONE || op.cls == MS_OPC_START_ALL) && unknown))
        return MS_P2P_SEND_ANY;

    if (!ri->request[0] && op.cls == MS_OPC_RECV && ms_op_blocking(op))
        return known && ri->tag >= 0 ? MS_P2P_RECV : MS_P2P_NONE;
    if (ms_op_completes_one(op) && recv_request(req) && known && ri->tag >= 0)
        return MS_P2P_RECV;

    if (ms_op_completes(op) && (recv_request(req) || req.cls == MS_OPC_SENDRECV || mixed || unknown)) {
        if (req.cls == MS_OPC_SENDRECV) {
            *peer = -1;    /* the name holds the send half */
            *tag = -1;
        }
        return MS_P2P_RECV_ANY;
    }
    return MS_P2P_NONE;
}

int ms_p2p_is_completion(const ms_region_info *ri)
{
    return ri->is_mpi && ms_op_completes(ms_op_meaning_of(ri->op));
}

static int cmp_i64(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

int ms_p2p_chan_cmp(const void *a, const void *b)
{
    const ms_p2p_chan *x = a, *y = b;
    int c;
    if ((c = cmp_i64(x->rank, y->rank)) || (c = cmp_i64(x->dir, y->dir)) || (c = cmp_i64(x->comm, y->comm)) ||
        (c = cmp_i64(x->peer, y->peer)))
        return c;
    return cmp_i64(x->tag, y->tag);
}

size_t ms_p2p_chans_normalize(ms_p2p_chan *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, ms_p2p_chan_cmp);
    size_t k = 0;
    for (size_t i = 1; i < n; i++) {
        if (ms_p2p_chan_cmp(&v[k], &v[i]) == 0) {
            v[k].calls += v[i].calls;
            v[k].bytes += v[i].bytes;
        } else {
            v[++k] = v[i];
        }
    }
    return k + 1;
}

const ms_p2p_chan *ms_p2p_chan_find(const ms_p2p_chan *v, size_t n, int32_t rank, int32_t dir,
                                    int64_t comm, int64_t peer, int64_t tag)
{
    ms_p2p_chan key = {.rank = rank, .dir = dir, .comm = comm, .peer = peer, .tag = tag};
    return bsearch(&key, v, n, sizeof key, ms_p2p_chan_cmp);
}

/* ---- communicators ---- */

void ms_comm_map_init(ms_comm_map *m)
{
    memset(m, 0, sizeof *m);
}

void ms_comm_map_free(ms_comm_map *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->v[i].members);
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* Index of the first entry with id >= id (entries sorted by id). */
static size_t lower_bound(const ms_comm_map *m, uint64_t id)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int ms_comm_map_add(ms_comm_map *m, uint64_t id, const int32_t *world_ranks, uint32_t n)
{
    size_t at = lower_bound(m, id);
    int exists = at < m->n && m->v[at].id == id;
    uint64_t kept = m->members - (exists ? m->v[at].n : 0);
    if ((!exists && m->n >= MS_COMM_MAP_MAX_COMMS) || kept + n > MS_COMM_MAP_MAX_MEMBERS)
        return 0;
    int32_t *members = malloc((n ? n : 1) * sizeof *members);
    if (!members)
        return -1;
    if (n)
        memcpy(members, world_ranks, n * sizeof *members);
    if (exists) {
        free(m->v[at].members);
    } else {
        if (m->n == m->cap) {
            size_t cap = m->cap ? m->cap * 2 : 8;
            ms_comm_entry *v = realloc(m->v, cap * sizeof *v);
            if (!v) {
                free(members);
                return -1;
            }
            m->v = v;
            m->cap = cap;
        }
        memmove(m->v + at + 1, m->v + at, (m->n - at) * sizeof *m->v);
        m->n++;
    }
    m->v[at] = (ms_comm_entry){.id = id, .n = n, .members = members};
    m->members = kept + n;
    return 0;
}

int32_t ms_comm_map_world(const ms_comm_map *m, int64_t comm, int64_t peer, int32_t self)
{
    if (comm < 0 || peer < 0 || peer > INT32_MAX)
        return -1;
    if (comm == 0)
        return (int32_t)peer;
    if (comm == 1)
        return peer == 0 ? self : -1;
    size_t at = lower_bound(m, (uint64_t)comm);
    if (at == m->n || m->v[at].id != (uint64_t)comm || (uint64_t)peer >= m->v[at].n)
        return -1;
    return m->v[at].members[peer];
}

int ms_p2p_add_region(ms_p2p_chan **v, size_t *n, size_t *cap, int32_t rank, const char *name,
                      uint64_t calls, const ms_comm_map *comms)
{
    ms_region_info ri;
    if (calls == 0 || !ms_region_parse(name, &ri))
        return 0;
    int64_t peer, tag, comm;
    ms_p2p_dir dir = ms_p2p_classify(&ri, &peer, &tag, &comm);
    if (dir == MS_P2P_NONE)
        return 0;
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        ms_p2p_chan *p = realloc(*v, c * sizeof *p);
        if (!p)
            return -1;
        *v = p;
        *cap = c;
    }
    uint64_t per_call = ri.bytes > 0 ? (uint64_t)ri.bytes : 0;
    (*v)[(*n)++] = (ms_p2p_chan){
        .rank = rank,
        .dir = dir,
        .comm = comm,
        .peer = peer,
        .tag = tag,
        .world_peer = ms_comm_map_world(comms, comm, peer, rank),
        .calls = calls,
        .bytes = per_call * calls,
    };
    return 0;
}
