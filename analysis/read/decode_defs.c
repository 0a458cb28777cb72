/*
 * The log reader's definition records (docs/FORMAT.md "Data blocks and
 * records"): region definitions and the bindings of region ids, call
 * sites, objects of the load map, communicators, and files of MPI-IO.
 */
#include <stdlib.h>
#include <string.h>

#include "log_reader_int.h"

/* The thread-local region ids up to this bound are looked up in a plain
 * array; it grows with the ids a thread defines, never past this. */
#define DENSE_IDS 4096u

static int define_id(thread_state *t, uint64_t id, uint32_t region)
{
    t->ndefs++;
    if (id < t->ndense) {
        t->dense[id] = region;
        return 0;
    }
    /* The array grows only in step with the definitions made. */
    if (id < DENSE_IDS && id < 16u * (uint64_t)t->ndefs + 64u) {
        uint32_t n = t->ndense ? t->ndense : 64u;
        while (n <= id)
            n *= 2;
        if (n > DENSE_IDS)
            n = DENSE_IDS;
        uint32_t *d = realloc(t->dense, n * sizeof *d);
        if (!d)
            return -1;
        /* Ids already in the map move to the array. */
        for (uint32_t i = t->ndense; i < n; i++)
            d[i] = ms_idmap_get(&t->ids, i);
        t->dense = d;
        t->ndense = n;
        t->dense[id] = region;
        return 0;
    }
    return ms_idmap_put(&t->ids, id, region);
}

/* A new binding of a region id to name index `region`, without a site. */
static int new_binding(ms_reader *r, uint32_t region, uint32_t *b)
{
    if (r->nbinds == r->binds_cap) {
        size_t n = r->binds_cap ? r->binds_cap * 2 : 256;
        uint32_t *a = realloc(r->bind_region, n * sizeof *a);
        if (!a)
            return -1;
        r->bind_region = a;
        uint32_t *c = realloc(r->bind_site, n * sizeof *c);
        if (!c)
            return -1;
        r->bind_site = c;
        r->binds_cap = n;
    }
    r->bind_region[r->nbinds] = region;
    r->bind_site[r->nbinds] = MS_SITE_NONE;
    *b = (uint32_t)r->nbinds++;
    return 0;
}

ms_read_status ms_rd_region_def(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    uint64_t id, len;
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &len) != 0)
        return ms_rd_corrupt_at(r, "region record runs past its block");
    if (len > MS_MAX_NAME)
        return ms_rd_corrupt_at(r, "region name longer than the format allows");
    if (len > (uint64_t)(end - *pp))
        return ms_rd_corrupt_at(r, "region name runs past its block");
    const char *name = (const char *)*pp;
    if (memchr(name, '\0', len))
        return ms_rd_corrupt_at(r, "region name contains a NUL byte");
    *pp += len;
    /* A spawned world's communicator ids, in the one run (worlds.h). */
    char moved[MS_MAX_NAME + 32];
    size_t mlen = ms_world_name(r->world, name, len, moved, sizeof moved);
    if (mlen) {
        name = moved;
        len = mlen;
    }

    uint32_t idx;
    int is_new;
    if (!ms_strtab_find(&r->names, name, len, &idx)) {
        if (ms_strtab_count(&r->names) >= MS_READER_MAX_REGIONS ||
            r->names.bytes + len > MS_READER_MAX_NAME_BYTES)
            return ms_rd_corrupt_at(r, "more region names than a log may define");
    }
    if (ms_strtab_intern(&r->names, name, len, &idx, &is_new) != 0)
        return ms_rd_nomem(r);
    if (is_new && r->cb && r->cb->region && r->cb->region(r->ctx, idx, name, len) != 0)
        return ms_rd_stopped(r);
    if (region_of(t, id) == MS_IDMAP_NONE && t->ids.n + t->ndense >= MS_READER_MAX_IDS)
        return ms_rd_corrupt_at(r, "more region ids than a thread may define");
    /* A redefined id takes over its binding: bindings never outnumber the
     * ids a file defines. */
    uint32_t b = region_of(t, id);
    if (b != MS_IDMAP_NONE) {
        r->bind_region[b] = idx;
        r->bind_site[b] = MS_SITE_NONE;
        return MS_READ_OK;
    }
    if (new_binding(r, idx, &b) != 0 || define_id(t, id, b) != 0)
        return ms_rd_nomem(r);
    return MS_READ_OK;
}

ms_read_status ms_rd_site(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    uint64_t id, n, pc[MS_MAX_SITE_FRAMES];
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &n) != 0)
        return ms_rd_corrupt_at(r, "call-site record runs past its block");
    if (n == 0 || n > MS_MAX_SITE_FRAMES)
        return ms_rd_corrupt_at(r, "call site with a frame count the format does not allow");
    for (uint64_t i = 0; i < n; i++)
        if (get_varint(pp, end, &pc[i]) != 0)
            return ms_rd_corrupt_at(r, "call-site record runs past its block");
    uint32_t b = region_of(t, id);
    if (b == MS_IDMAP_NONE)
        return ms_rd_corrupt_at(r, "call site of an undefined region");
    uint32_t idx;
    int is_new;
    int rc = ms_sites_intern(&r->sites, pc, (uint32_t)n, &idx, &is_new);
    if (rc == -2)
        return ms_rd_corrupt_at(r, "more call sites than a log may define");
    if (rc != 0)
        return ms_rd_nomem(r);
    r->bind_site[b] = idx;
    if (is_new && r->cb && r->cb->site && r->cb->site(r->ctx, idx, pc, (uint32_t)n) != 0)
        return ms_rd_stopped(r);
    return MS_READ_OK;
}

ms_read_status ms_rd_object(ms_reader *r, const uint8_t **pp, const uint8_t *end)
{
    uint64_t base, lo, hi, plen, idlen;
    if (get_varint(pp, end, &base) != 0 || get_varint(pp, end, &lo) != 0 || get_varint(pp, end, &hi) != 0 ||
        get_varint(pp, end, &plen) != 0)
        return ms_rd_corrupt_at(r, "object record runs past its block");
    if (lo >= hi)
        return ms_rd_corrupt_at(r, "object with an empty address range");
    if (plen == 0 || plen > MS_MAX_OBJECT_PATH || plen > (uint64_t)(end - *pp))
        return ms_rd_corrupt_at(r, "object path too long or past its block");
    const char *path = (const char *)*pp;
    if (memchr(path, '\0', plen))
        return ms_rd_corrupt_at(r, "object path contains a NUL byte");
    *pp += plen;
    if (get_varint(pp, end, &idlen) != 0)
        return ms_rd_corrupt_at(r, "object record runs past its block");
    if (idlen > MS_MAX_BUILD_ID || idlen > (uint64_t)(end - *pp))
        return ms_rd_corrupt_at(r, "object build-id too long or past its block");
    const uint8_t *id = *pp;
    *pp += idlen;
    int i = ms_sites_add_object(&r->sites, base, lo, hi, path, plen, id, idlen);
    if (i == -2)
        return ms_rd_corrupt_at(r, "more objects than a log may define");
    if (i < 0)
        return ms_rd_nomem(r);
    if (r->cb && r->cb->object && r->cb->object(r->ctx, &r->sites.objects[i]) != 0)
        return ms_rd_stopped(r);
    return MS_READ_OK;
}

ms_read_status ms_rd_comm(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    uint64_t id, n;
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &n) != 0)
        return ms_rd_corrupt_at(r, "communicator record runs past its block");
    uint64_t size = (uint64_t)r->meta.header.size;
    if (n > size || n > (uint64_t)(end - *pp))
        return ms_rd_corrupt_at(r, "communicator larger than the world");
    if (n > r->members_cap) {
        int32_t *m = realloc(r->members, (size_t)n * sizeof *m);
        if (!m)
            return ms_rd_nomem(r);
        r->members = m;
        r->members_cap = (size_t)n;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t w;
        if (get_varint(pp, end, &w) != 0)
            return ms_rd_corrupt_at(r, "communicator record runs past its block");
        if (w >= size)
            return ms_rd_corrupt_at(r, "communicator member outside the world");
        r->members[i] = (int32_t)w;
    }
    if (r->world) {
        /* In the one run of several worlds (worlds.h). */
        int64_t m = ms_world_members(r->world, id, r->members, (uint32_t)n, &r->world_members, &r->world_cap);
        if (m < 0)
            return ms_rd_nomem(r);
        id = (uint64_t)ms_world_comm(r->world, (int64_t)id);
        if (r->cb && r->cb->comm && r->cb->comm(r->ctx, t->thread, id, r->world_members, (uint32_t)m) != 0)
            return ms_rd_stopped(r);
        return MS_READ_OK;
    }
    if (r->cb && r->cb->comm && r->cb->comm(r->ctx, t->thread, id, r->members, (uint32_t)n) != 0)
        return ms_rd_stopped(r);
    return MS_READ_OK;
}

ms_read_status ms_rd_comm_origin(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    if (r->version < 8)
        return ms_rd_corrupt_at(r, "communicator origin record in a log of format version < 8");
    uint64_t id, op, parent1, seq, region1, nd;
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &op) != 0 || get_varint(pp, end, &parent1) != 0 ||
        get_varint(pp, end, &seq) != 0 || get_varint(pp, end, &region1) != 0 || get_varint(pp, end, &nd) != 0)
        return ms_rd_corrupt_at(r, "communicator origin record runs past its block");
    if (id > (uint64_t)INT64_MAX || parent1 > (uint64_t)INT64_MAX || op > MS_MESSAGE_MAX_OP)
        return ms_rd_corrupt_at(r, "communicator origin record with a value out of range");
    if (nd > MS_MAX_COMM_DIMS)
        return ms_rd_corrupt_at(r, "communicator origin record with too many dimensions");
    ms_read_comm_origin o = {.thread = t->thread, .op = (uint32_t)op,
                             .id = (uint64_t)ms_world_comm(r->world, (int64_t)id),
                             .parent = ms_world_comm(r->world, (int64_t)parent1 - 1),
                             .seq = seq, .region = MS_IDMAP_NONE, .site = MS_SITE_NONE, .ndims = (uint32_t)nd};
    for (uint64_t i = 0; i < nd; i++) {
        uint64_t d;
        if (get_varint(pp, end, &d) != 0)
            return ms_rd_corrupt_at(r, "communicator origin record runs past its block");
        if (d == 0 || d > UINT32_MAX)
            return ms_rd_corrupt_at(r, "communicator origin record with a dimension out of range");
        o.dims[i] = (uint32_t)d;
    }
    if (region1 != 0) {
        uint32_t b = region_of(t, region1 - 1);
        if (b == MS_IDMAP_NONE)
            return ms_rd_corrupt_at(r, "communicator origin of an undefined region");
        o.region = r->bind_region[b];
        o.site = r->bind_site[b];
    }
    if (r->cb && r->cb->comm_origin && r->cb->comm_origin(r->ctx, &o) != 0)
        return ms_rd_stopped(r);
    return MS_READ_OK;
}

ms_read_status ms_rd_comm_name(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    if (r->version < 8)
        return ms_rd_corrupt_at(r, "communicator name record in a log of format version < 8");
    uint64_t id, len;
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &len) != 0)
        return ms_rd_corrupt_at(r, "communicator name record runs past its block");
    if (id > (uint64_t)INT64_MAX)
        return ms_rd_corrupt_at(r, "communicator name record with an id out of range");
    if (len > MS_MAX_COMM_NAME || len > (uint64_t)(end - *pp))
        return ms_rd_corrupt_at(r, "communicator name too long or past its block");
    const char *name = (const char *)*pp;
    if (memchr(name, '\0', len))
        return ms_rd_corrupt_at(r, "communicator name contains a NUL byte");
    *pp += len;
    id = (uint64_t)ms_world_comm(r->world, (int64_t)id);
    if (r->cb && r->cb->comm_name && r->cb->comm_name(r->ctx, t->thread, id, name, (uint32_t)len) != 0)
        return ms_rd_stopped(r);
    return MS_READ_OK;
}

ms_read_status ms_rd_file(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    if (r->version < 5)
        return ms_rd_corrupt_at(r, "file record in a log of format version < 5");
    uint64_t id, comm1, len;
    if (get_varint(pp, end, &id) != 0 || get_varint(pp, end, &comm1) != 0 || get_varint(pp, end, &len) != 0)
        return ms_rd_corrupt_at(r, "file record runs past its block");
    if (id > MS_MAX_FILE_ID)
        return ms_rd_corrupt_at(r, "file record with an id out of range");
    if (comm1 > (uint64_t)INT64_MAX)
        return ms_rd_corrupt_at(r, "file record with a communicator out of range");
    if (len == 0 || len > MS_MAX_FILE_PATH || len > (uint64_t)(end - *pp))
        return ms_rd_corrupt_at(r, "file path empty, too long or past its block");
    const char *path = (const char *)*pp;
    if (memchr(path, '\0', len))
        return ms_rd_corrupt_at(r, "file path contains a NUL byte");
    *pp += len;
    ms_read_file f = {.thread = t->thread, .id = (uint32_t)id, .comm = ms_world_comm(r->world, (int64_t)comm1 - 1),
                      .path = path,
                      .len = (uint32_t)len};
    if (r->cb && r->cb->file && r->cb->file(r->ctx, &f) != 0)
        return ms_rd_stopped(r);
    return MS_READ_OK;
}
