/* Files of MPI-IO in the reports: see io_rows.h. */
#include "io_rows.h"

#include <stdlib.h>
#include <string.h>

#include "../../common/op_class.h"

enum ms_io_class ms_io_class_of(const char *op)
{
    /* The calls that move bytes (a split collective's _end, not its _begin). */
    ms_op_meaning m = ms_op_meaning_of(op);
    return (m.traits & MS_OPT_READ) ? MS_IO_READ : (m.traits & MS_OPT_WRITE) ? MS_IO_WRITE : MS_IO_OTHER;
}

static int row_cmp(const void *a, const void *b)
{
    const ms_io_row *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    if (c)
        return c;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return strcmp(x->op, y->op);
}

/* The row of (path, rank, op) in rows[0..n): its index, or n. */
static size_t find_row(const ms_io_row *rows, size_t n, const char *path, int32_t rank, const char *op)
{
    for (size_t i = 0; i < n; i++)
        if (rows[i].rank == rank && strcmp(rows[i].op, op) == 0 && strcmp(rows[i].path, path) == 0)
            return i;
    return n;
}

int ms_io_rows(const ms_run *run, ms_io_row **rows, size_t *n)
{
    *rows = NULL;
    *n = 0;
    size_t cap = 0;
    for (size_t i = 0; i < run->nregions; i++) {
        const ms_region *g = &run->regions[i];
        if (!g->is_mpi || g->info.file < 0 || strcmp(g->info.kind, "io") != 0)
            continue;
        for (size_t k = 0; k < g->nranks; k++) {
            const ms_region_rank *part = &g->ranks[k];
            const ms_rank_info *in = &run->ranks[part->rank_index];
            const ms_io_file *f = ms_io_files_find(&in->io_files, (uint32_t)g->info.file);
            if (!f || part->stats.calls == 0)
                continue;
            size_t at = find_row(*rows, *n, f->path, in->rank, g->info.op);
            if (at == *n) {
                if (*n == cap) {
                    size_t nc = cap ? 2 * cap : 16;
                    ms_io_row *v = realloc(*rows, nc * sizeof *v);
                    if (!v) {
                        free(*rows);
                        *rows = NULL;
                        *n = 0;
                        return -1;
                    }
                    *rows = v;
                    cap = nc;
                }
                (*rows)[(*n)++] = (ms_io_row){.path = f->path, .rank = in->rank, .op = g->info.op};
            }
            ms_io_row *r = &(*rows)[at];
            r->calls += part->stats.calls;
            r->bytes += g->info.bytes > 0 ? part->stats.calls * (uint64_t)g->info.bytes : 0;
            r->total_ns += part->stats.total_ns;
        }
    }
    if (*n)
        qsort(*rows, *n, sizeof **rows, row_cmp);
    return 0;
}

int ms_io_sums(const ms_io_row *rows, size_t n, ms_io_sum **sums, size_t *nsums)
{
    *sums = NULL;
    *nsums = 0;
    if (n == 0)
        return 0;
    ms_io_sum *v = calloc(n, sizeof *v);
    if (!v)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const ms_io_row *r = &rows[i];
        if (m == 0 || strcmp(v[m - 1].path, r->path) != 0)
            v[m++].path = r->path;
        ms_io_sum *s = &v[m - 1];
        if (i == 0 || strcmp(rows[i - 1].path, r->path) != 0 || rows[i - 1].rank != r->rank)
            s->ranks++;
        switch (ms_io_class_of(r->op)) {
        case MS_IO_READ:
            s->reads += r->calls;
            s->read_bytes += r->bytes;
            break;
        case MS_IO_WRITE:
            s->writes += r->calls;
            s->write_bytes += r->bytes;
            break;
        default:
            s->others += r->calls;
        }
        s->total_ns += r->total_ns;
    }
    *sums = v;
    *nsums = m;
    return 0;
}
