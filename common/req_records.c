/* Request records as their readers use them: see req_records.h. */
#include "req_records.h"

#include <stdlib.h>
#include <string.h>

#include "log_format.h"
#include "op_class.h"
#include "op_names.h"
#include "region_name.h"

void ms_rq_facts_of(const ms_region_info *info, int is_mpi, ms_rq_facts *out)
{
    *out = (ms_rq_facts){.op = 0, .comm = -1, .peer = -1, .tag = -1, .bytes = -1, .root = -1, .parts = 0};
    if (!info || !is_mpi)
        return;
    out->op = ms_op_id(info->op, strlen(info->op));
    out->io = strcmp(info->kind, "io") == 0;
    ms_op_meaning m = ms_op_meaning_of(info->op);
    /* A request that sends one message and receives one (isendrecv). */
    out->pair = m.cls == MS_OPC_SENDRECV && (m.traits & MS_OPT_POST);
    /* A name's fields outside what a message can say (DESIGN §4: -1, or
     * a rank or tag that fits an int; bytes -1 or more) are not known. */
    out->comm = info->comm >= -1 ? info->comm : -1;
    out->peer = ms_rq_int_field(info->peer) ? info->peer : -1;
    out->tag = ms_rq_int_field(info->tag) ? info->tag : -1;
    out->bytes = info->bytes >= -1 ? info->bytes : -1;
    /* A persistent rooted collective (bcast_init, reduce_init, ...): its
     * starts and completions name the root the creating call named. */
    out->root = ms_rq_int_field(info->root) ? info->root : -1;
}

int ms_rq_apply_new(ms_rq_table *t, uint32_t thread, const ms_rq_record *rec, const ms_rq_facts *facts,
                    uint64_t start_ns)
{
    ms_rq_facts f = *facts;
    f.dir = (uint8_t)((rec->what & MS_REQF_DIR) >> MS_REQF_DIR_SHIFT);
    f.persistent = (rec->what & MS_REQF_PERSISTENT) != 0;
    f.parts = rec->parts;
    if (f.dir == 1)
        /* A receive's bytes are what its status will say. */
        f.bytes = -1;
    return ms_rq_new(t, thread, rec->handle, rec->where, &f, start_ns);
}

int ms_rq_apply(ms_rq_table *t, uint32_t thread, const ms_rq_record *recs, size_t n, const ms_rq_facts *facts,
                uint64_t start_ns, ms_rq_fold *fold, int (*on_msg)(void *ctx, const ms_rq_message *m),
                void *ctx)
{
    ms_rq_call(t);
    int took = 0;
    for (size_t i = 0; i < n; i++) {
        const ms_rq_record *p = &recs[i];
        uint32_t kind = p->what & MS_REQ_KIND_MASK;
        if (kind == MS_REQ_NEW) {
            if (ms_rq_apply_new(t, thread, p, facts, start_ns) != 0)
                return -1;
            continue;
        }
        ms_rq_status st = {.named = p->parts, .has = (p->what & MS_REQF_STATUS) != 0,
                           .cancelled = (p->what & MS_REQF_CANCELLED) != 0,
                           .peer = p->peer, .tag = p->tag, .bytes = p->bytes};
        ms_rq_message m[2];
        int k = ms_rq_take(t, kind, thread, p->handle, p->where, &st, start_ns, fold, on_msg ? m : NULL);
        took = 1;
        for (int j = 0; j < k && on_msg; j++)
            if (on_msg(ctx, &m[j]) != 0)
                return -2;
    }
    return took;
}

size_t ms_rq_name(char *buf, size_t cap, const ms_region_info *raw, const ms_rq_fold *fold)
{
    const char *req = fold->req_op == MS_RQ_OP_MIXED ? "mixed" : ms_op_name(fold->req_op);
    ms_region_fields f = {
        .op = raw->op,
        .kind = raw->kind,
        .bytes = fold->bytes,
        .peer = (int32_t)fold->peer,
        .root = (int32_t)raw->root,
        .tag = (int32_t)fold->tag,
        .comm = fold->comm,
        .request = req ? req : "unknown",
        .has_file = raw->file >= 0,
        .file = raw->file,
    };
    return ms_region_format(buf, cap, &f);
}

/* ---- completion names found again ---- */

typedef struct ms_rq_name_slot {
    uint64_t raw;
    uint32_t req_op, id;
    int64_t bytes, peer, tag, comm;
    int used;
} ms_rq_name_slot;

static uint64_t key_hash(uint64_t raw, const ms_rq_fold *f)
{
    uint64_t h = raw * 0x9e3779b97f4a7c15ull ^ (uint64_t)f->req_op * 0xc2b2ae3d27d4eb4full ^
                 (uint64_t)f->bytes * 0x165667b19e3779f9ull ^ (uint64_t)f->peer * 0x85ebca77c2b2ae63ull ^
                 (uint64_t)f->tag * 0x27d4eb2f165667c5ull ^ (uint64_t)f->comm * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

static int same(const ms_rq_name_slot *s, uint64_t raw, const ms_rq_fold *f)
{
    return s->raw == raw && s->req_op == f->req_op && s->bytes == f->bytes && s->peer == f->peer &&
           s->tag == f->tag && s->comm == f->comm;
}

void ms_rq_names_init(ms_rq_names *n)
{
    memset(n, 0, sizeof *n);
}

void ms_rq_names_free(ms_rq_names *n)
{
    free(n->s);
    memset(n, 0, sizeof *n);
}

int ms_rq_names_find(const ms_rq_names *n, uint64_t raw, const ms_rq_fold *fold, uint32_t *id)
{
    if (!n->s)
        return 0;
    for (size_t i = key_hash(raw, fold) & n->mask; n->s[i].used; i = (i + 1) & n->mask) {
        if (same(&n->s[i], raw, fold)) {
            *id = n->s[i].id;
            return 1;
        }
    }
    return 0;
}

int ms_rq_names_put(ms_rq_names *n, uint64_t raw, const ms_rq_fold *fold, uint32_t id)
{
    if ((n->used + 1) * 4 > (n->s ? n->mask + 1 : 0) * 3) {
        size_t cap = n->s ? (n->mask + 1) * 2 : 256;
        ms_rq_name_slot *a = calloc(cap, sizeof *a);
        if (!a)
            return -1;
        for (size_t i = 0; n->s && i <= n->mask; i++) {
            if (!n->s[i].used)
                continue;
            ms_rq_fold f = {.req_op = n->s[i].req_op, .bytes = n->s[i].bytes, .peer = n->s[i].peer,
                            .tag = n->s[i].tag, .comm = n->s[i].comm};
            size_t j = key_hash(n->s[i].raw, &f) & (cap - 1);
            while (a[j].used)
                j = (j + 1) & (cap - 1);
            a[j] = n->s[i];
        }
        free(n->s);
        n->s = a;
        n->mask = cap - 1;
    }
    size_t i = key_hash(raw, fold) & n->mask;
    while (n->s[i].used)
        i = (i + 1) & n->mask;
    n->s[i] = (ms_rq_name_slot){.raw = raw, .req_op = fold->req_op, .id = id, .bytes = fold->bytes,
                                .peer = fold->peer, .tag = fold->tag, .comm = fold->comm, .used = 1};
    n->used++;
    return 0;
}
