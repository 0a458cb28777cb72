/*
 * Hardware-counter sets of one log, as the reader delivers them
 * (MS_CTL_COUNTER_SET / MS_CTL_COUNTER_SAMPLE, common/log_format.h).
 * A set is interned by content: the same group and value names defined by
 * two threads get one per-file index.
 */
#ifndef MPISCOPE_LOG_COUNTERS_H
#define MPISCOPE_LOG_COUNTERS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Most distinct counter sets one file may define. */
#define MS_READER_MAX_COUNTER_SETS 1024u
/* A sample's region when it covers the whole run (region 0 on disk). */
#define MS_REGION_RUN UINT32_MAX

typedef struct ms_counter_set {
    char *group;          /* the set's name (below) */
    uint32_t nevents;     /* names[0..nevents) are raw events ... */
    uint32_t n;           /* ... names[nevents..n) derived metrics */
    char **names;
} ms_counter_set;

/* A set's name is its source (the library that measured it), a space and
 * its group or event string ("LIKWID FLOPS_DP"); a name without a space
 * (logs written before the source was) is a group of no named source. */
static inline size_t ms_counter_set_source_len(const char *name)
{
    const char *sp = strchr(name, ' ');
    return sp ? (size_t)(sp - name) : 0;
}

static inline const char *ms_counter_set_group(const char *name)
{
    const char *sp = strchr(name, ' ');
    return sp ? sp + 1 : name;
}

typedef struct ms_counter_sample {
    uint32_t thread;      /* the log thread that wrote it */
    uint32_t set;         /* per-file set index */
    uint32_t region;      /* per-file region index, or MS_REGION_RUN */
    uint32_t cthread;     /* counter thread (LIKWID's thread index) */
    uint32_t cpu;         /* its hardware thread */
    uint64_t count;       /* completed calls of the region it covers */
    uint32_t flags;       /* MS_SAMPLE_* */
    double time_s;        /* time it covers */
    uint32_t n;
    const double *values; /* n values, the set's names; NaN: not measured */
} ms_counter_sample;

/* A definition as found in a block: names point into the block. */
typedef struct ms_cset_ref {
    const char *group;
    size_t group_len;
    uint32_t nevents, n;
    const char *name[64];
    size_t len[64];
} ms_cset_ref;

typedef struct ms_cset_table {
    ms_counter_set *v;
    size_t n, cap;
} ms_cset_table;

/* The index of ref's set, added when new (*is_new). Returns 0, -1 when out
 * of memory, -2 past MS_READER_MAX_COUNTER_SETS. */
int ms_cset_intern(ms_cset_table *t, const ms_cset_ref *ref, uint32_t *idx, int *is_new);
void ms_cset_clear(ms_cset_table *t);

/* A deep copy of a set (0, or -1 when out of memory) and its release. */
int ms_counter_set_copy(ms_counter_set *dst, const ms_counter_set *src);
void ms_counter_set_free(ms_counter_set *s);

#endif
