/*
 * Files of MPI-IO: which communicator and file id a file handle has, so
 * that every call on the file reports `comm=` and `file=`. A file id is
 * given at open (and per MPI_File_delete), counted per process from 0; its
 * path goes into the log once, as a file record (docs/FORMAT.md "Files (version 5)").
 */
#include <stdatomic.h>
#include <string.h>

#include "../preload/diag.h"
#include "args.h"
#include "files.h"
#include "handle_map.h"

static ms_hmap files;
static _Atomic uint32_t next_id;

void ms_files_init(void)
{
    if (!files.slots)
        ms_hmap_init(&files, 10);
}

static inline uint64_t key_of(MPI_File fh)
{
    return ms_handle_bits(&fh, sizeof fh);
}

static int32_t define(ms_thread *t, int64_t comm_id, const char *name)
{
    uint32_t id = atomic_fetch_add_explicit(&next_id, 1u, memory_order_relaxed);
    if (id > MS_MAX_FILE_ID)
        return -1;
    size_t len = name ? strnlen(name, MS_MAX_FILE_PATH) : 0;
    if (len == 0)
        name = "?", len = 1;
    ms_file_define(t, id, comm_id, name, len);
    return (int32_t)id;
}

int32_t ms_file_new(ms_thread *t, MPI_File fh, int64_t comm_id, const char *name)
{
    if (fh == MPI_FILE_NULL)
        return -1;
    int32_t id = define(t, comm_id, name);
    ms_hmap_slot *s = id >= 0 ? ms_hmap_put(&files, key_of(fh)) : NULL;
    if (!s) {
        ms_warn_once(MS_WARN_FILES, "too many files open at once; calls on the others are reported without file=");
        return id;
    }
    s->value[0] = (uint64_t)comm_id;
    s->value[1] = (uint64_t)(uint32_t)id;
    return id;
}

void ms_file_of(ms_call *c, MPI_File fh)
{
    ms_hmap_slot *s = ms_hmap_get(&files, key_of(fh));
    if (!s)
        return;
    c->comm = (int64_t)s->value[0];
    c->file = (int32_t)(uint32_t)s->value[1];
}

void ms_file_forget(MPI_File fh)
{
    ms_hmap_slot *s = ms_hmap_get(&files, key_of(fh));
    if (s)
        ms_hmap_erase(&files, s);
}

int32_t ms_file_named(ms_thread *t, const char *name)
{
    return define(t, -1, name);
}
