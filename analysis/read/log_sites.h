/*
 * The call sites and the load map of one log (format version 3): call sites
 * are chains of return addresses, interned into dense per-file indices;
 * objects are the ELF files the process had loaded, with their address
 * ranges, so that an address can be symbolized after the run.
 */
#ifndef MPISCOPE_LOG_SITES_H
#define MPISCOPE_LOG_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "idmap.h"

#define MS_SITE_NONE UINT32_MAX
#define MS_READER_MAX_SITES (1u << 20)      /* distinct call sites per file */
#define MS_READER_MAX_OBJECTS (1u << 16)    /* objects per file */

typedef struct ms_object {
    uint64_t base;              /* load bias (dlpi_addr) */
    uint64_t lo, hi;            /* the addresses it spans */
    const char *path;
    const uint8_t *build_id;
    uint32_t build_id_len;
} ms_object;

typedef struct ms_site_table {
    uint64_t *pc;               /* the frames of all sites, one after another */
    size_t npc, pc_cap;
    uint32_t *first;            /* site -> its first frame in pc */
    uint8_t *frames;            /* site -> its frame count */
    uint32_t nsites, sites_cap;
    ms_idmap by_hash;           /* chain hash -> a site (collisions probe on) */
    ms_object *objects;
    uint32_t nobjects, objects_cap;
} ms_site_table;

void ms_sites_init(ms_site_table *s);
void ms_sites_free(ms_site_table *s);
/* Forget every site and object (the table is kept for the next file). */
void ms_sites_clear(ms_site_table *s);

/* The index of the chain pc[0..n), added when new (*is_new). Returns 0, -1
 * when out of memory, -2 when the file holds too many sites. */
int ms_sites_intern(ms_site_table *s, const uint64_t *pc, uint32_t n, uint32_t *idx, int *is_new);

/* The frames of site idx; returns their count. */
static inline uint32_t ms_sites_get(const ms_site_table *s, uint32_t idx, const uint64_t **pc)
{
    *pc = s->pc + s->first[idx];
    return s->frames[idx];
}

/* Add an object (path and build-id are copied). Returns its index, -1 when
 * out of memory, -2 when the file holds too many objects. */
int ms_sites_add_object(ms_site_table *s, uint64_t base, uint64_t lo, uint64_t hi, const char *path,
                        size_t path_len, const uint8_t *build_id, size_t id_len);

#endif
