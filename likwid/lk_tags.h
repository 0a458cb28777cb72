/*
 * The calling thread's LIKWID marker tags (lk_tags.c): each tag's region
 * "likwid:<tag>" in the thread's stream, and the stack of its open marker
 * regions. The markers (lk_markers.c) and the counters (lk_counters.c) both
 * name regions through it.
 */
#ifndef MPISCOPE_LK_TAGS_H
#define MPISCOPE_LK_TAGS_H

#include <stdint.h>

#include "../preload/tstate.h"

/* Most nested open regions per thread. */
#define LK_MAX_OPEN 256u

typedef struct lk_tag {
    char *tag;
    uint32_t id;           /* region id in the thread's stream */
    int defined;
} lk_tag;

typedef struct lk_open {
    uint32_t tag;          /* index into tags */
    uint64_t t0;
} lk_open;

typedef struct lk_tls {
    lk_tag *tags;
    uint32_t ntags, cap;
    uint32_t *slots;       /* open-addressed hash: tag index + 1, 0 empty */
    uint32_t nslots;
    lk_open open[LK_MAX_OPEN];
    uint32_t nopen;
} lk_tls;

/* The calling thread's table, created when missing (NULL: out of memory);
 * lk_tags_peek: NULL when the thread has none. */
MS_HIDDEN lk_tls *lk_tags_get(void);
MS_HIDDEN lk_tls *lk_tags_peek(void);

/* The index of tag in the table, added when new; -1 when full. */
MS_HIDDEN int64_t lk_tag_index(lk_tls *s, const char *tag);

/* The tag's region id in t's stream, defined the first time. */
MS_HIDDEN uint32_t lk_tag_region(ms_thread *t, lk_tag *g);

/* The thread-local region id of "likwid:<tag>" in t, defined when new;
 * 0 and *id, or -1 (too many tags, out of memory). */
MS_HIDDEN int lk_region_of(ms_thread *t, const char *tag, uint32_t *id);

#endif
