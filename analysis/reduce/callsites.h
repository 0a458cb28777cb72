/*
 * Call sites in the merge: which source line made which calls.
 *
 * While a file is read, its events are summed per (region, call site) in a
 * table whose size follows the distinct pairs, never the events. When the
 * file is done, each pair's innermost frame is found in the rank's load map
 * and symbolized (symbolize.h): one row per (region, rank, call site).
 * Rows of one region and rank that resolve to the same place (two return
 * addresses on one line) are summed into one.
 */
#ifndef MPISCOPE_CALLSITES_H
#define MPISCOPE_CALLSITES_H

#include <stddef.h>
#include <stdint.h>

#include "../read/idmap.h"
#include "../read/log_reader.h"
#include "../symbolize/symbolize.h"

typedef struct ms_callsite {
    char *region;          /* region name */
    int32_t rank;
    char *function;        /* "" when unknown; "name+0xoff" without line information */
    char *file;            /* source file; without line information "object+0xoff" (or the
                              bare address when no object holds it) */
    int line;              /* 0 when unknown */
    char *text;            /* the source line, "" when unreadable */
    char *location;        /* one line: "func at file:line", "func+0x1a in libx.so", "libx.so+0x1234" */
    char *object;          /* object file name, "" when the address is in none */
    int object_changed;    /* the object on disk is not the one that ran */
    int object_missing;    /* the object is gone or unreadable */
    uint64_t calls;
    uint64_t total_ns;
} ms_callsite;

typedef struct ms_site_sum {
    uint32_t region, site;
    uint64_t calls, total_ns;
} ms_site_sum;

/* The pairs met most recently, by a hash of the pair: a loop whose calls
 * alternate between a few regions (a halo's peers and tags) finds each
 * without the index. */
#define MS_SITE_HITS 16u

/* Per-file sums per (region, site). */
typedef struct ms_site_acc {
    ms_idmap index;
    ms_site_sum *e;
    size_t n, cap;
    uint64_t last_key;
    uint32_t last;         /* entry of last_key, the pair added last, or MS_IDMAP_NONE */
    uint64_t hit_key[MS_SITE_HITS];
    uint32_t hit[MS_SITE_HITS];   /* entry of hit_key, or MS_IDMAP_NONE */
} ms_site_acc;

static inline uint32_t ms_site_hit_slot(uint64_t key)
{
    /* region (high word) and site both reach the top bits */
    return (uint32_t)(((key ^ (key >> 29)) * 0x9e3779b97f4a7c15ull) >> 60);
}

void ms_site_acc_init(ms_site_acc *a);
void ms_site_acc_free(ms_site_acc *a);
int ms_site_acc_add_slow(ms_site_acc *a, uint64_t key, uint32_t region, uint32_t site, uint64_t ns);

/* Count one call of region at site (an event's fields). 0, or -1 when out
 * of memory. */
static inline int ms_site_acc_add(ms_site_acc *a, uint32_t region, uint32_t site, uint64_t ns)
{
    uint64_t key = (uint64_t)region << 32 | site;
    if (a->last != MS_IDMAP_NONE && a->last_key == key) {
        a->e[a->last].calls++;
        a->e[a->last].total_ns += ns;
        return 0;
    }
    uint32_t h = ms_site_hit_slot(key);
    if (a->hit[h] != MS_IDMAP_NONE && a->hit_key[h] == key) {
        a->last = a->hit[h];
        a->last_key = key;
        a->e[a->last].calls++;
        a->e[a->last].total_ns += ns;
        return 0;
    }
    return ms_site_acc_add_slow(a, key, region, site, ns);
}

/* `calls` calls of region/site that took total_ns together (summary mode). */
int ms_site_acc_add_calls(ms_site_acc *a, uint32_t region, uint32_t site, uint64_t calls, uint64_t total_ns);

/* Turn the sums of the file just read by rd (rank `rank`) into rows
 * appended to *rows. With loc, also each sum entry's location (a->n of
 * them, NULL for an entry without a known site; the caller frees them).
 * 0, or -1 when out of memory. */
int ms_site_acc_resolve(const ms_site_acc *a, const ms_reader *rd, int32_t rank, ms_symbolizer *sym,
                        ms_callsite **rows, size_t *nrows, size_t *cap, char **loc);

void ms_callsite_free(ms_callsite *c);

/* Where call site `site` (a per-file index of the file rd read) is, as a
 * row's location says it (malloc'd); NULL when there is no such site or
 * out of memory. */
char *ms_site_locate(const ms_reader *rd, ms_symbolizer *sym, uint32_t site);
/* Where address pc of the file rd read is, in the same form (malloc'd;
 * NULL when out of memory); exact: pc is a faulting instruction, not a
 * return address. */
char *ms_pc_locate(const ms_reader *rd, ms_symbolizer *sym, uint64_t pc, int exact);

/* Sort rows by region, rank, then total time descending. */
void ms_callsites_sort(ms_callsite *rows, size_t n);

/* In rows sorted so: the call site of most time of `region` on `rank`, or
 * NULL. */
const ms_callsite *ms_callsite_top(const ms_callsite *rows, size_t n, const char *region, int32_t rank);

/* A call site over all ranks: rows of one region and one place summed. */
typedef struct ms_site_place {
    const ms_callsite *row;    /* one of its rows: region, function, file, line, text, location */
    uint32_t ranks;
    uint64_t calls, total_ns;
} ms_site_place;

/* The places of rows, sorted by region, then total time descending: the
 * first place of a region is its dominant call site. *out is NULL when n is
 * 0. 0, or -1 when out of memory. */
int ms_site_places(const ms_callsite *rows, size_t n, ms_site_place **out, size_t *nout);

/* The places of one region within places (sorted as above): the index of
 * the first, and their count (0 when none). */
size_t ms_site_places_of(const ms_site_place *places, size_t n, const char *region, size_t *first);

/* The place of region at location (ms_callsite.location) in places, or
 * NULL. */
const ms_site_place *ms_site_place_find(const ms_site_place *places, size_t n, const char *region,
                                        const char *location);

#endif
