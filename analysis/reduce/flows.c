/* Matching sends to receives: see flows.h. */
#include "flows.h"

#include <stdlib.h>
#include <string.h>

static int cmp_i64(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

static int key_cmp(const void *a, const void *b)
{
    const ms_flow_key *x = a, *y = b;
    int c;
    if ((c = cmp_i64(x->src, y->src)) || (c = cmp_i64(x->dst, y->dst)) || (c = cmp_i64(x->comm, y->comm)))
        return c;
    return cmp_i64(x->tag, y->tag);
}

/* The channels of (rank, dir): [*lo, *hi) of the normalized array. */
static void chan_range(const ms_run *run, int32_t rank, int32_t dir, size_t *lo, size_t *hi)
{
    size_t a = 0, b = run->nchans;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        const ms_p2p_chan *c = &run->chans[m];
        if (c->rank < rank || (c->rank == rank && c->dir < dir))
            a = m + 1;
        else
            b = m;
    }
    *lo = a;
    while (a < run->nchans && run->chans[a].rank == rank && run->chans[a].dir == dir)
        a++;
    *hi = a;
}

/* Does a channel of `rank` with this dir possibly carry messages with
 * `other` (world rank), tag and comm that the counts do not attribute? */
static int may_carry(const ms_run *run, int32_t rank, int32_t dir, int32_t other, int64_t tag, int64_t comm)
{
    size_t lo, hi;
    chan_range(run, rank, dir, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        const ms_p2p_chan *c = &run->chans[i];
        if (c->comm >= 0 && c->comm != comm)
            continue;
        if (c->tag >= 0 && c->tag != tag)
            continue;
        if (c->world_peer >= 0 && c->world_peer != other)
            continue;
        return 1;
    }
    return 0;
}

/* An exact channel whose peer is not known (no communicator record). */
static int unmapped(const ms_run *run, int32_t rank, int32_t dir, int64_t comm)
{
    size_t lo, hi;
    chan_range(run, rank, dir, &lo, &hi);
    for (size_t i = lo; i < hi; i++)
        if (run->chans[i].world_peer < 0 && run->chans[i].comm == comm)
            return 1;
    return 0;
}

int ms_flows_build(const ms_run *run, ms_flows *out)
{
    memset(out, 0, sizeof *out);
    size_t n = 0;
    for (size_t i = 0; i < run->nchans; i++) {
        const ms_p2p_chan *c = &run->chans[i];
        n += (c->dir == MS_P2P_SEND || c->dir == MS_P2P_RECV) && c->world_peer >= 0;
    }
    if (n == 0)
        return 0;
    ms_flow_key *k = calloc(n, sizeof *k);
    if (!k)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < run->nchans; i++) {
        const ms_p2p_chan *c = &run->chans[i];
        if (c->world_peer < 0)
            continue;
        if (c->dir == MS_P2P_SEND)
            k[m++] = (ms_flow_key){.src = c->rank, .dst = c->world_peer, .comm = c->comm, .tag = c->tag,
                                   .sends = c->calls};
        else if (c->dir == MS_P2P_RECV)
            k[m++] = (ms_flow_key){.src = c->world_peer, .dst = c->rank, .comm = c->comm, .tag = c->tag,
                                   .recvs = c->calls};
    }
    qsort(k, m, sizeof *k, key_cmp);
    size_t w = 0;
    for (size_t i = 1; i < m; i++) {
        if (key_cmp(&k[w], &k[i]) == 0) {
            k[w].sends += k[i].sends;
            k[w].recvs += k[i].recvs;
        } else {
            k[++w] = k[i];
        }
    }
    m = w + 1;
    uint64_t base = 1;
    for (size_t i = 0; i < m; i++) {
        ms_flow_key *e = &k[i];
        int exact = !may_carry(run, e->src, MS_P2P_SEND_ANY, e->dst, e->tag, e->comm) &&
                    !may_carry(run, e->dst, MS_P2P_RECV_ANY, e->src, e->tag, e->comm) &&
                    !unmapped(run, e->src, MS_P2P_SEND, e->comm) && !unmapped(run, e->dst, MS_P2P_RECV, e->comm);
        e->n = exact ? (e->sends < e->recvs ? e->sends : e->recvs) : 0;
        e->base = base;
        base += e->n;
    }
    out->keys = k;
    out->nkeys = m;
    out->nflows = base - 1;
    return 0;
}

void ms_flows_free(ms_flows *f)
{
    free(f->keys);
    memset(f, 0, sizeof *f);
}

ms_flow_key *ms_flows_find(const ms_flows *f, int32_t src, int32_t dst, int64_t tag, int64_t comm)
{
    ms_flow_key key = {.src = src, .dst = dst, .comm = comm, .tag = tag};
    return bsearch(&key, f->keys, f->nkeys, sizeof key, key_cmp);
}

int ms_flows_send(ms_flow_key *k, uint64_t *id)
{
    uint64_t i = k->sent++;
    if (i >= k->n)
        return 0;
    *id = k->base + i;
    return 1;
}

int ms_flows_recv(ms_flow_key *k, uint64_t *id)
{
    uint64_t i = k->received++;
    if (i >= k->n)
        return 0;
    *id = k->base + i;
    return 1;
}
