/* The run's communicators and their labels: see comms.h. */
#include "comms.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/op_class.h"
#include "../../common/op_names.h"

#define NAME_SHOWN 64u
#define LABEL_DEPTH 4

static int id_cmp(const void *a, const void *b)
{
    const ms_comm_row *x = a, *y = b;
    return (x->f.id > y->f.id) - (x->f.id < y->f.id);
}

const ms_comm_row *ms_comms_find(const ms_comms *c, int64_t id)
{
    ms_comm_row key = {.f.id = id};
    return c->n ? bsearch(&key, c->v, c->n, sizeof key, id_cmp) : NULL;
}

void ms_comms_free(ms_comms *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->v[i].f.name);
        free(c->v[i].f.where);
    }
    free(c->v);
    c->v = NULL;
    c->n = 0;
}

/* Drop suffix from the end of w when it is there. */
static void drop_suffix(char *w, const char *suffix)
{
    size_t n = strlen(w), k = strlen(suffix);
    if (n > k && strcmp(w + n - k, suffix) == 0)
        w[n - k] = '\0';
}

/* The word of the row (see comms.h), from its op's name and meaning. */
static void derive_kind(ms_comm_row *r)
{
    const char *word = r->f.id == 0 ? "world" : r->f.id == 1 ? "self" : !r->f.has_origin ? "comm"
                                                                     : r->f.op == 0 ? "parent" : NULL;
    const char *op = word ? NULL : ms_op_name(r->f.op);
    if (word || !op) {
        snprintf(r->kind, sizeof r->kind, "%s", word ? word : "comm");
        return;
    }
    if (strncmp(op, "comm_", 5) == 0 && op[5])
        op += 5;
    if (op[0] == 'i' && (ms_op_meaning_of(ms_op_name(r->f.op)).traits & MS_OPT_POST))
        op++;
    snprintf(r->kind, sizeof r->kind, "%s", op);
    drop_suffix(r->kind, "_with_info");
    drop_suffix(r->kind, "_adjacent");
    drop_suffix(r->kind, "_create");
}

const char *ms_comm_kind(const ms_comm_row *r)
{
    return r->kind;
}

/* Rows of one kind and parent together, each group in creation order. */
static int group_cmp(const void *a, const void *b)
{
    const ms_comm_row *x = *(const ms_comm_row *const *)a, *y = *(const ms_comm_row *const *)b;
    if (x->f.has_origin != y->f.has_origin)
        return x->f.has_origin ? -1 : 1;
    int c = strcmp(ms_comm_kind(x), ms_comm_kind(y));
    if (c)
        return c;
    if (x->f.has_origin && x->f.parent != y->f.parent)
        return x->f.parent < y->f.parent ? -1 : 1;
    if (x->f.has_origin && x->f.seq != y->f.seq)
        return x->f.seq < y->f.seq ? -1 : 1;
    if (x->f.low != y->f.low)
        return x->f.low < y->f.low ? -1 : 1;
    return (x->f.id > y->f.id) - (x->f.id < y->f.id);
}

static int number_rows(ms_comms *t)
{
    ms_comm_row **p = malloc((t->n ? t->n : 1) * sizeof *p);
    if (!p)
        return -1;
    for (size_t i = 0; i < t->n; i++)
        p[i] = &t->v[i];
    qsort(p, t->n, sizeof *p, group_cmp);
    for (size_t i = 0, start = 0; i < t->n; i++) {
        if (i > 0 && (p[i]->f.has_origin != p[i - 1]->f.has_origin ||
                      strcmp(ms_comm_kind(p[i]), ms_comm_kind(p[i - 1])) != 0 ||
                      (p[i]->f.has_origin && p[i]->f.parent != p[i - 1]->f.parent)))
            start = i;
        p[i]->number = (uint32_t)(i - start + 1);
    }
    /* A group's size: its last number. */
    for (size_t i = t->n; i-- > 0;)
        p[i]->of_kind = i + 1 < t->n && p[i + 1]->number > p[i]->number ? p[i + 1]->of_kind : p[i]->number;
    free(p);
    return 0;
}

/* The rows of every rank's facts, by rank order (index: id -> row). */
static int build(ms_comms *t, const ms_comm_facts *const *facts, size_t nranks, uint32_t world, ms_idmap *index)
{
    size_t cap = 2;
    for (size_t i = 0; i < nranks; i++)
        cap += facts[i]->n;
    if (!(t->v = calloc(cap, sizeof *t->v)))
        return -1;
    t->v[0].f = (ms_comm_fact){.id = 0, .parent = -1, .size = world, .low = 0};
    t->v[1].f = (ms_comm_fact){.id = 1, .parent = -1, .size = 1, .low = -1};
    t->v[0].ranks = t->v[1].ranks = (uint32_t)nranks;
    t->n = 2;
    if (ms_idmap_put(index, 0, 0) != 0 || ms_idmap_put(index, 1, 1) != 0)
        return -1;
    /* Ranks ascend: a row keeps the first rank's facts, and the first name
     * and call site a rank gives. */
    for (size_t r = 0; r < nranks; r++) {
        const ms_comm_facts *cf = facts[r];
        for (size_t i = 0; i < cf->n; i++) {
            const ms_comm_fact *c = &cf->v[i];
            uint32_t k = ms_idmap_get(index, (uint64_t)c->id);
            ms_comm_row *row = k == MS_IDMAP_NONE ? NULL : &t->v[k];
            if (!row) {
                if (ms_idmap_put(index, (uint64_t)c->id, (uint32_t)t->n) != 0)
                    return -1;
                row = &t->v[t->n++];
                row->f = *c;
                row->f.name = row->f.where = NULL;
            } else if (!row->f.has_origin && c->has_origin) {
                char *name = row->f.name, *where = row->f.where;
                row->f = *c;
                row->f.name = name, row->f.where = where;
            }
            row->ranks += c->id > 1;
            if (c->name && !row->f.name && !(row->f.name = strdup(c->name)))
                return -1;
            if (c->where && !row->f.where && !(row->f.where = strdup(c->where)))
                return -1;
        }
    }
    return 0;
}

int ms_comms_build(ms_comms *t, const ms_comm_facts *const *facts, size_t nranks, uint32_t world)
{
    ms_idmap index;
    ms_idmap_init(&index);
    int rc = build(t, facts, nranks, world, &index);
    ms_idmap_free(&index);
    for (size_t i = 0; rc == 0 && i < t->n; i++)
        derive_kind(&t->v[i]);
    if (rc == 0)
        qsort(t->v, t->n, sizeof *t->v, id_cmp);
    return rc == 0 ? number_rows(t) : -1;
}

/* A name as the text and HTML show it: control characters as '?', cut. */
static size_t put_name(char *buf, size_t cap, const char *name)
{
    size_t n = strlen(name), shown = n > NAME_SHOWN ? NAME_SHOWN - 3 : n;
    while (shown < n && shown > 0 && ((unsigned char)name[shown] & 0xc0) == 0x80)
        shown--;   /* not inside a UTF-8 character */
    size_t k = 0;
    for (size_t i = 0; i < shown && k + 1 < cap; i++)
        buf[k++] = (unsigned char)name[i] < 0x20 || name[i] == 0x7f ? '?' : name[i];
    if (shown < n)
        for (int i = 0; i < 3 && k + 1 < cap; i++)
            buf[k++] = '.';
    if (cap)
        buf[k < cap ? k : cap - 1] = '\0';
    return k;
}

static size_t label(const ms_comms *run, int64_t comm, char *buf, size_t cap, int depth)
{
    if (cap == 0)
        return 0;
    if (comm == -1)
        return (size_t)snprintf(buf, cap, "none");
    if (comm == 0 || comm == 1)
        return (size_t)snprintf(buf, cap, "%s", comm == 0 ? "world" : "self");
    const ms_comm_row *r = ms_comms_find(run, comm);
    if (!r)
        return (size_t)snprintf(buf, cap, "unrecorded");
    if (r->f.name && r->f.name[0])
        return put_name(buf, cap, r->f.name);
    const char *kind = ms_comm_kind(r);
    size_t n = 0;
#define ADD(...)                                                                 \
    do {                                                                         \
        if (n < cap)                                                             \
            n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__);                \
    } while (0)
    if (r->f.ndims == 0 || r->of_kind > 1)
        ADD("%s#%" PRIu32, kind, r->number);
    else
        ADD("%s", kind);
    for (uint32_t i = 0; i < r->f.ndims; i++)
        ADD("%s%" PRIu32, i ? "\xc3\x97" : " ", r->f.dims[i]);
    if (r->f.has_origin && r->f.parent >= 0 && depth < LABEL_DEPTH) {
        ADD(" of ");
        if (n < cap)
            n += label(run, r->f.parent, buf + n, cap - n, depth + 1);
    } else if (r->f.has_origin && r->f.parent >= 0) {
        ADD(" of ...");
    }
    int sized = strcmp(kind, "dup") != 0 && strcmp(kind, "cart") != 0 && strcmp(kind, "parent") != 0 &&
                strcmp(kind, "intercomm") != 0 && strcmp(kind, "spawn") != 0 && strcmp(kind, "connect") != 0 &&
                strcmp(kind, "accept") != 0;
    if (depth == 0 && sized && r->f.size > 0)
        ADD(" (%" PRIu32 " rank%s)", r->f.size, r->f.size == 1 ? "" : "s");
#undef ADD
    return n < cap ? n : cap - 1;
}

const char *ms_comms_label(const ms_comms *comms, int64_t comm, char *buf, size_t cap)
{
    if (cap)
        buf[0] = '\0';
    label(comms, comm, buf, cap, 0);
    return buf;
}

int ms_comms_listed(const ms_comms *c)
{
    return c->n > 2 || (c->n && c->v[0].f.name) || (c->n > 1 && c->v[1].f.name);
}

const char *ms_comms_made_by(const ms_comms *c, const ms_comm_row *r, char *buf, size_t cap)
{
    char parent[256];
    if (r->f.id == 0 || r->f.id == 1)
        snprintf(buf, cap, "MPI_Init");
    else if (!r->f.has_origin)
        snprintf(buf, cap, "-");
    else if (r->f.op == 0)
        snprintf(buf, cap, "the spawning world");
    else if (r->f.parent < 0)
        snprintf(buf, cap, "%s", ms_comm_kind(r));
    else
        snprintf(buf, cap, "%s of %s", ms_comm_kind(r), ms_comms_label(c, r->f.parent, parent, sizeof parent));
    return buf;
}
