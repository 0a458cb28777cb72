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
