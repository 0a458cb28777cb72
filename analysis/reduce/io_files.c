/* Files of MPI-IO: see io_files.h. */
#include "io_files.h"

#include <stdlib.h>
#include <string.h>


int ms_io_files_add(ms_io_files *f, uint32_t id, int64_t comm, const char *path, size_t len)
{
    char *p = malloc(len + 1);
    if (!p)
        return -1;
    memcpy(p, path, len);
    p[len] = '\0';
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].id == id) {
            free(f->v[i].path);
            f->v[i].path = p;
            f->v[i].comm = comm;
            return 0;
        }
    ms_io_file *v = realloc(f->v, (f->n + 1) * sizeof *v);
    if (!v) {
        free(p);
        return -1;
    }
    f->v = v;
    f->v[f->n++] = (ms_io_file){.id = id, .comm = comm, .path = p};
    return 0;
}

const ms_io_file *ms_io_files_find(const ms_io_files *f, uint32_t id)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].id == id)
            return &f->v[i];
    return NULL;
}

void ms_io_files_free(ms_io_files *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->v[i].path);
    free(f->v);
    f->v = NULL;
    f->n = 0;
}

/* ---- carried between merge processes (partial_pack.h) ---- */

size_t ms_io_files_encode(const ms_io_files *f, unsigned char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++) {
        const ms_io_file *x = &f->v[i];
        uint64_t len = strlen(x->path);
        if (out) {
            memcpy(out + n, &x->id, sizeof x->id);
            memcpy(out + n + sizeof x->id, &x->comm, sizeof x->comm);
            memcpy(out + n + sizeof x->id + sizeof x->comm, &len, sizeof len);
            memcpy(out + n + sizeof x->id + sizeof x->comm + sizeof len, x->path, (size_t)len);
        }
        n += sizeof x->id + sizeof x->comm + sizeof len + (size_t)len;
    }
    return n;
}

int ms_io_files_decode(ms_io_files *f, size_t n, const unsigned char *p, size_t len, size_t *off)
{
    f->v = NULL;
    f->n = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t id;
        int64_t comm;
        uint64_t plen;
        if (len - *off < sizeof id + sizeof comm + sizeof plen)
            return -2;
        memcpy(&id, p + *off, sizeof id);
        memcpy(&comm, p + *off + sizeof id, sizeof comm);
        memcpy(&plen, p + *off + sizeof id + sizeof comm, sizeof plen);
        *off += sizeof id + sizeof comm + sizeof plen;
        if (plen > len - *off || memchr(p + *off, '\0', (size_t)plen))
            return -2;
        if (ms_io_files_add(f, id, comm, (const char *)p + *off, (size_t)plen) != 0)
            return -1;
        *off += (size_t)plen;
    }
    return f->n == n ? 0 : -2;
}
