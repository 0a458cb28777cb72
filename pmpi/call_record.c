/* Interning calls into thread-local region ids: see call_record.h. */
#include "call_record.h"

#include <string.h>
#include <sys/mman.h>

#include "region_name.h"

#define CACHE_BITS 12u
#define CACHE_SLOTS (1u << CACHE_BITS)
#define CACHE_LIMIT (CACHE_SLOTS / 4u * 3u)

typedef struct cache_entry {
    ms_call key;
    uint32_t id;
    uint32_t used;
} cache_entry;

typedef struct region_cache {
    uint32_t count;
    cache_entry e[CACHE_SLOTS];
} region_cache;

static const char *const kind_names[] = {
    [MS_KIND_P2P] = "point-to-point", [MS_KIND_COLLECTIVE] = "collective", [MS_KIND_WAIT] = "wait",
    [MS_KIND_RMA] = "rma",            [MS_KIND_IO] = "io",                 [MS_KIND_OTHER] = "other",
};

size_t ms_call_name(const ms_call *c, char *buf, size_t cap)
{
    const char *req = NULL;
    if (c->req_op == MS_OP_MIXED)
        req = "mixed";
    else if (c->req_op == MS_OP_UNKNOWN)
        req = "unknown";
    else if (c->req_op != MS_OP_NONE && c->req_op < MS_OP_TABLE_SIZE)
        req = ms_op_names[c->req_op];
    unsigned op = c->op < MS_OP_TABLE_SIZE ? c->op : 0;
    ms_region_fields f = {
        .op = ms_op_names[op],
        .kind = kind_names[ms_op_kinds[op]],
        .bytes = c->bytes,
        .peer = c->peer,
        .root = c->root,
        .tag = c->tag,
        .comm = c->comm,
        .request = req,
    };
    size_t n = ms_region_format(buf, cap, &f);
    return n < cap ? n : cap - 1;
}

static inline uint64_t hash_call(const ms_call *c)
{
    uint64_t h = ((uint64_t)c->op << 16 | c->req_op) * 0x9e3779b97f4a7c15ull;
    h ^= ((uint64_t)(uint32_t)c->peer << 32 | (uint32_t)c->tag) * 0xc2b2ae3d27d4eb4full;
    h ^= (uint64_t)c->bytes * 0x165667b19e3779f9ull;
    h ^= ((uint64_t)c->comm + (uint64_t)(uint32_t)c->root * 0x27d4eb2f165667c5ull) * 0x85ebca77c2b2ae63ull;
    return h ^ (h >> 29);
}

static inline int same_call(const ms_call *a, const ms_call *b)
{
    return a->op == b->op && a->req_op == b->req_op && a->peer == b->peer && a->tag == b->tag &&
           a->bytes == b->bytes && a->comm == b->comm && a->root == b->root;
}

static uint32_t define(ms_thread *t, const ms_call *c)
{
    char name[MS_MAX_NAME];
    size_t n = ms_call_name(c, name, sizeof name);
    return ms_region_define(t, name, n);
}

void ms_call_record(ms_thread *t, const ms_call *c, uint64_t t0, uint64_t t1)
{
    region_cache *k = t->collector[MS_COLLECTOR_PMPI];
    if (MS_UNLIKELY(!k)) {
        void *p = mmap(NULL, sizeof *k, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            /* No cache: every call defines its region again; nothing is lost. */
            ms_event(t, define(t, c), t0, t1);
            return;
        }
        k = t->collector[MS_COLLECTOR_PMPI] = p;
    }
    uint32_t i = (uint32_t)hash_call(c) & (CACHE_SLOTS - 1);
    for (;;) {
        cache_entry *e = &k->e[i];
        if (MS_LIKELY(e->used && same_call(&e->key, c))) {
            ms_event(t, e->id, t0, t1);
            return;
        }
        if (!e->used)
            break;
        i = (i + 1) & (CACHE_SLOTS - 1);
    }
    if (k->count >= CACHE_LIMIT) {
        /* Full: start over. Regions seen again are defined again under new
         * ids; the reader joins them by name. */
        memset(k, 0, sizeof *k);
        i = (uint32_t)hash_call(c) & (CACHE_SLOTS - 1);
    }
    cache_entry *e = &k->e[i];
    e->key = *c;
    e->id = define(t, c);
    e->used = 1;
    k->count++;
    ms_event(t, e->id, t0, t1);
}
