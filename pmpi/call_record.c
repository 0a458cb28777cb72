/* Interning calls into thread-local region ids: see call_record.h. */
#include "call_record.h"

#include <string.h>
#include <sys/mman.h>

#include "callsite.h"
#include "../common/region_name.h"

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
        .has_file = c->file >= 0,
        .file = c->file,
    };
    size_t n = ms_region_format(buf, cap, &f);
    return n < cap ? n : cap - 1;
}

/* A new region id for the call, and its call site. */
static uint32_t define(ms_thread *t, const ms_call *c)
{
    char name[MS_MAX_NAME];
    size_t n = ms_call_name(c, name, sizeof name);
    uint64_t pc[MS_MAX_SITE_FRAMES];
    unsigned frames = ms_site_frames(c->site, pc);
    if (frames > 0)
        ms_sites_cover(t, pc, frames);
    uint32_t id = ms_region_define(t, name, n);
    if (frames > 0) {
        uint8_t rec[MS_SITE_DEF_MAX];
        uint8_t *p = ms_rec_site(rec, id, pc, frames);
        ms_append(t, rec, (size_t)(p - rec));
    }
    return id;
}

uint32_t ms_call_id_new(ms_thread *t, const ms_call *c)
{
    ms_call_cache *k = t->slot[ms_pmpi_slot_calls];
    if (MS_UNLIKELY(!k)) {
        void *p = mmap(NULL, sizeof *k, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            /* No cache: every call defines its region again; nothing is lost. */
            return define(t, c);
        }
        k = t->slot[ms_pmpi_slot_calls] = p;
    }
    if (k->count >= MS_CALL_CACHE_SLOTS / 4u * 3u) {
        /* Full: start over. Regions seen again are defined again under new
         * ids; the reader joins them by name. */
        memset(k, 0, sizeof *k);
    }
    ms_call_entry *e = &k->e[ms_call_slot(k, c)];
    if (e->used)
        return e->id;
    e->key = *c;
    e->id = define(t, c);
    e->used = 1;
    k->count++;
    *ms_call_last(k, c) = *e;
    return e->id;
}
