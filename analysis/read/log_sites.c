/* Call sites and objects of one log: see log_sites.h. */
#include "log_sites.h"

#include <stdlib.h>
#include <string.h>

void ms_sites_init(ms_site_table *s)
{
    memset(s, 0, sizeof *s);
    ms_idmap_init(&s->by_hash);
}

static void free_objects(ms_site_table *s)
{
    for (uint32_t i = 0; i < s->nobjects; i++)
        free((void *)s->objects[i].path);   /* path and build-id share one block */
    s->nobjects = 0;
}

void ms_sites_free(ms_site_table *s)
{
    free_objects(s);
    free(s->objects);
    free(s->pc);
    free(s->first);
    free(s->frames);
    ms_idmap_free(&s->by_hash);
    memset(s, 0, sizeof *s);
}

void ms_sites_clear(ms_site_table *s)
{
    free_objects(s);
    s->npc = 0;
    s->nsites = 0;
    ms_idmap_free(&s->by_hash);
    ms_idmap_init(&s->by_hash);
}

static uint64_t chain_hash(const uint64_t *pc, uint32_t n)
{
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ pc[i]) * 0x100000001b3ull, h ^= h >> 31;
    return h;
}

static int same(const ms_site_table *s, uint32_t idx, const uint64_t *pc, uint32_t n)
{
    return s->frames[idx] == n && memcmp(s->pc + s->first[idx], pc, n * sizeof *pc) == 0;
}

static int grow(void **p, size_t elem, size_t need, size_t *cap)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap * 2 : 64;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

int ms_sites_intern(ms_site_table *s, const uint64_t *pc, uint32_t n, uint32_t *idx, int *is_new)
{
    uint64_t key = chain_hash(pc, n);
    /* Chains whose hashes collide take the next keys. */
    for (;; key++) {
        uint32_t i = ms_idmap_get(&s->by_hash, key);
        if (i == MS_IDMAP_NONE)
            break;
        if (same(s, i, pc, n)) {
            *idx = i;
            *is_new = 0;
            return 0;
        }
    }
    if (s->nsites >= MS_READER_MAX_SITES)
        return -2;
    size_t cap = s->sites_cap, cap2 = s->sites_cap;
    if (grow((void **)&s->first, sizeof *s->first, s->nsites + 1u, &cap) != 0 ||
        grow((void **)&s->frames, sizeof *s->frames, s->nsites + 1u, &cap2) != 0 ||
        grow((void **)&s->pc, sizeof *s->pc, s->npc + n, &s->pc_cap) != 0)
        return -1;
    s->sites_cap = (uint32_t)(cap < cap2 ? cap : cap2);
    uint32_t i = s->nsites;
    if (ms_idmap_put(&s->by_hash, key, i) != 0)
        return -1;
    s->first[i] = (uint32_t)s->npc;
    s->frames[i] = (uint8_t)n;
    memcpy(s->pc + s->npc, pc, n * sizeof *pc);
    s->npc += n;
    s->nsites++;
    *idx = i;
    *is_new = 1;
    return 0;
}

int ms_sites_add_object(ms_site_table *s, uint64_t base, uint64_t lo, uint64_t hi, const char *path,
                        size_t path_len, const uint8_t *build_id, size_t id_len)
{
    if (s->nobjects >= MS_READER_MAX_OBJECTS)
        return -2;
    size_t cap = s->objects_cap;
    if (grow((void **)&s->objects, sizeof *s->objects, s->nobjects + 1u, &cap) != 0)
        return -1;
    s->objects_cap = (uint32_t)cap;
    char *mem = malloc(path_len + 1 + id_len);
    if (!mem)
        return -1;
    memcpy(mem, path, path_len);
    mem[path_len] = '\0';
    memcpy(mem + path_len + 1, build_id, id_len);
    s->objects[s->nobjects] = (ms_object){
        .base = base,
        .lo = lo,
        .hi = hi,
        .path = mem,
        .build_id = (const uint8_t *)mem + path_len + 1,
        .build_id_len = (uint32_t)id_len,
    };
    return (int)s->nobjects++;
}
