/*
 * String interning: byte strings -> dense indices 0, 1, 2, ... in the order
 * they were first seen. Each stored string is a NUL-terminated copy whose
 * address stays valid until ms_strtab_free. Used for region names, which are
 * the identity of a region across threads and ranks.
 */
#ifndef MPISCOPE_STRTAB_H
#define MPISCOPE_STRTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct ms_strent {
    const char *str;
    uint32_t len;
    uint32_t hash;
} ms_strent;

typedef struct ms_strtab {
    ms_strent *ents;       /* by index */
    size_t n, cap;
    uint32_t *slots;       /* open addressing: index + 1, 0 when empty */
    size_t nslots;         /* a power of two, or 0 */
    void *chunks;          /* storage of the string copies */
    char *cur;
    size_t left;
    size_t bytes;          /* total length of the stored strings */
} ms_strtab;

void ms_strtab_init(ms_strtab *t);
void ms_strtab_free(ms_strtab *t);

/* Find or add s[0..len). Sets *idx, and *is_new (when not NULL) to 1 for a
 * string seen the first time. Returns 0, or -1 when out of memory or when
 * len or the table's size does not fit in 32 bits. */
int ms_strtab_intern(ms_strtab *t, const char *s, size_t len, uint32_t *idx, int *is_new);

/* 1 and *idx when s[0..len) is in the table, else 0. */
int ms_strtab_find(const ms_strtab *t, const char *s, size_t len, uint32_t *idx);

static inline size_t ms_strtab_count(const ms_strtab *t) { return t->n; }
static inline const char *ms_strtab_str(const ms_strtab *t, uint32_t i) { return t->ents[i].str; }
static inline size_t ms_strtab_len(const ms_strtab *t, uint32_t i) { return t->ents[i].len; }

#endif
