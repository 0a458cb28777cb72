/* The per-operation roll-up: see ops.h. */
#include "ops.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The operation of an MPI region, also when its fields do not parse. */
static void op_of(const ms_region *g, char *op, char *kind)
{
    if (g->info.is_mpi) {
        memcpy(op, g->info.op, MS_FIELD_MAX);
        memcpy(kind, g->info.kind, MS_FIELD_MAX);
        return;
    }
    const char *s = g->name + 4;
    size_t n = strcspn(s, " ");
    if (n >= MS_FIELD_MAX)
        n = MS_FIELD_MAX - 1;
    memcpy(op, s, n);
    op[n] = '\0';
    strcpy(kind, "?");
}

static int row_cmp(const void *a, const void *b)
{
    const ms_op_row *x = a, *y = b;
    if (x->total_ns != y->total_ns)
        return x->total_ns > y->total_ns ? -1 : 1;
    int c = strcmp(x->op, y->op);
    return c ? c : strcmp(x->kind, y->kind);
}

int ms_op_rollup(const ms_run *run, ms_op_row **out, size_t *nout)
{
    ms_op_row *rows = calloc(run->nregions ? run->nregions : 1, sizeof *rows);
    if (!rows)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < run->nregions; i++) {
        const ms_region *g = &run->regions[i];
        if (!g->is_mpi)
            continue;
        char op[MS_FIELD_MAX], kind[MS_FIELD_MAX];
        op_of(g, op, kind);
        size_t k = 0;
        while (k < n && (strcmp(rows[k].op, op) != 0 || strcmp(rows[k].kind, kind) != 0))
            k++;
        if (k == n) {
            memcpy(rows[n].op, op, sizeof op);
            memcpy(rows[n].kind, kind, sizeof kind);
            n++;
        }
        ms_op_row *r = &rows[k];
        r->calls = ms_sat_add(r->calls, g->summary.calls);
        r->total_ns = ms_sat_add(r->total_ns, g->total_ns);
        r->window_ns = ms_sat_add(r->window_ns, g->window_ns);
        if (g->info.is_mpi && g->info.bytes >= 0) {
            r->bytes = ms_sat_add(r->bytes, ms_sat_mul((uint64_t)g->info.bytes, g->summary.calls));
            r->has_bytes = 1;
        }
    }
    if (n > 1)
        qsort(rows, n, sizeof *rows, row_cmp);
    *out = rows;
    *nout = n;
    return 0;
}

const char *ms_comm_label(const ms_run *run, int64_t comm, char *buf, size_t cap)
{
    return ms_comms_label(&run->comms, comm, buf, cap);
}

void ms_long_name(const ms_run *run, char *buf, size_t cap, const char *name)
{
    const char *c = strncmp(name, "mpi:", 4) == 0 ? strstr(name, " comm=") : NULL;
    char *end = NULL;
    long long id = c ? strtoll(c + 6, &end, 10) : 0;
    if (!c || end == c + 6 || (*end && *end != ' ')) {
        snprintf(buf, cap, "%s", name);
        return;
    }
    char label[256];
    snprintf(buf, cap, "%.*s comm=%s%s", (int)(c - name), name, ms_comm_label(run, id, label, sizeof label), end);
}

void ms_short_name(const ms_run *run, char *buf, size_t cap, const ms_region *g)
{
    const ms_region_info *f = &g->info;
    if (!f->is_mpi) {
        snprintf(buf, cap, "%s", g->name);
        return;
    }
    size_t n = (size_t)snprintf(buf, cap, "%s", f->op);
#define ADD(...)                                                     \
    do {                                                             \
        if (n < cap)                                                 \
            n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__);    \
    } while (0)
    if (f->bytes >= 0)
        ADD(" bytes=%" PRId64, f->bytes);
    if (f->peer != -1)
        ADD(" peer=%" PRId64, f->peer);
    if (f->root != -1)
        ADD(" root=%" PRId64, f->root);
    if (f->tag != -1)
        ADD(" tag=%" PRId64, f->tag);
    if (f->comm != 0 && f->comm != -1) {
        char label[256];
        ADD(" comm=%s", ms_comm_label(run, f->comm, label, sizeof label));
    }
    if (f->request[0])
        ADD(" req=%s", f->request);
#undef ADD
}

int ms_size_histogram(const ms_run *run, uint64_t p2p[MS_SIZE_CLASSES], uint64_t coll[MS_SIZE_CLASSES])
{
    int any = 0;
    memset(p2p, 0, MS_SIZE_CLASSES * sizeof *p2p);
    memset(coll, 0, MS_SIZE_CLASSES * sizeof *coll);
    for (size_t i = 0; i < run->nregions; i++) {
        const ms_region_info *f = &run->regions[i].info;
        if (!f->is_mpi || f->bytes < 0)
            continue;
        int is_p2p = strcmp(f->kind, "point-to-point") == 0;
        if (!is_p2p && strcmp(f->kind, "collective") != 0)
            continue;
        unsigned k = 0;
        for (uint64_t b = (uint64_t)f->bytes; b; b >>= 1)
            k++;
        uint64_t *h = is_p2p ? p2p : coll;
        h[k] = ms_sat_add(h[k], run->regions[i].summary.calls);
        any = 1;
    }
    return any;
}
