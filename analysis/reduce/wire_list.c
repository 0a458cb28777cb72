/* The MPI merge's list of logs on the wire: see wire_list.h. */
#include "wire_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../read/worlds.h"
#include "partial_pack.h"   /* MS_WIRE_VERSION */

#define LIST_MAGIC 0x534c534du   /* "MSLS" */
#define ENTRY_MIN (4 + 8)        /* an owner and an empty string's length */

int ms_wire_put_list(ms_pbuf *b, const ms_partial *p, const int32_t *owner)
{
    ms_wire_u32(b, LIST_MAGIC);
    ms_wire_u32(b, MS_WIRE_VERSION);
    ms_wire_u64(b, p->nfiles);
    for (size_t i = 0; i < p->nfiles; i++) {
        ms_wire_i32(b, owner[i]);
        ms_wire_str(b, p->files[i].base);
    }
    return b->nomem ? -1 : 0;
}

/* A log's name in the list: a file name, or one in a spawned world's
 * folder (`spawn-K/NAME`, --with-spawned); never a path elsewhere. */
static int log_name_ok(const char *name)
{
    const char *slash = strchr(name, '/');
    if (!slash)
        return name[0] != 0;
    char dir[32];
    size_t n = (size_t)(slash - name);
    if (n >= sizeof dir || !slash[1] || strchr(slash + 1, '/'))
        return 0;
    memcpy(dir, name, n);
    dir[n] = 0;
    return ms_spawn_dir_k(dir) != 0;
}

int ms_wire_get_list(const void *buf, size_t n, int nprocs, const char *dir, ms_partial *p, int32_t **owner,
                     size_t *nlisted, char *err, size_t errlen)
{
    ms_wire_in r = {.p = buf, .n = n};
    *owner = NULL;
    *nlisted = 0;
    uint32_t magic = ms_wire_get_u32(&r), version = ms_wire_get_u32(&r);
    if (r.bad || magic != LIST_MAGIC) {
        snprintf(err, errlen, "not a list of logs");
        return -2;
    }
    if (version != MS_WIRE_VERSION) {
        snprintf(err, errlen,
                 "a list of logs in wire format version %u; this program reads version %u "
                 "(every process must run the same mpiscope)",
                 version, MS_WIRE_VERSION);
        return -2;
    }
    size_t nf = ms_wire_get_count(&r, ENTRY_MIN);
    if (r.bad) {
        snprintf(err, errlen, "a list of logs with more logs than its bytes can hold");
        return -2;
    }
    char **names = calloc(nf ? nf : 1, sizeof *names);
    int32_t *own = malloc((nf ? nf : 1) * sizeof *own);
    int rc = names && own ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nf; i++) {
        own[i] = ms_wire_get_i32(&r);
        names[i] = ms_wire_get_str_nn(&r);
        if (r.nomem)
            rc = -1;
        else if (r.bad || own[i] < 0 || own[i] >= nprocs || !log_name_ok(names[i])) {
            snprintf(err, errlen, "a list of logs whose log %zu is %s", i,
                     r.bad ? "cut short" : own[i] < 0 || own[i] >= nprocs ? "read by no process" : "not a file name");
            rc = -2;
        }
    }
    if (rc == 0 && r.off != r.n) {
        snprintf(err, errlen, "a list of logs followed by %zu bytes", r.n - r.off);
        rc = -2;
    }
    if (rc == 0 && ms_partial_files(p, dir, (const char *const *)names, nf) != 0)
        rc = -1;
    for (size_t i = 0; names && i < nf; i++)
        free(names[i]);
    free(names);
    if (rc == -2) {
        free(own);
        return -2;
    }
    *nlisted = nf;
    if (rc != 0) {
        free(own);
        return -1;
    }
    *owner = own;
    return 0;
}
