/* String interning: see strtab.h. */
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_MIN (64u * 1024u)

typedef struct chunk {
    struct chunk *next;
    char data[];
} chunk;

static uint32_t hash_bytes(const char *s, size_t len)
{
    /* FNV-1a, folded to 32 bits. */
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (uint8_t)s[i];
        h *= 0x100000001b3ull;
    }
    return (uint32_t)(h ^ (h >> 32));
}

void ms_strtab_init(ms_strtab *t)
{
    memset(t, 0, sizeof *t);
}

void ms_strtab_free(ms_strtab *t)
{
    chunk *c = t->chunks;
    while (c) {
        chunk *next = c->next;
        free(c);
        c = next;
    }
    free(t->ents);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static const uint32_t *lookup(const ms_strtab *t, const char *s, size_t len, uint32_t h)
{
    size_t mask = t->nslots - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uint32_t v = t->slots[i];
        if (v == 0)
            return &t->slots[i];
        const ms_strent *e = &t->ents[v - 1];
        if (e->hash == h && e->len == len && memcmp(e->str, s, len) == 0)
            return &t->slots[i];
    }
}

int ms_strtab_find(const ms_strtab *t, const char *s, size_t len, uint32_t *idx)
{
    if (t->nslots == 0 || len > UINT32_MAX)
        return 0;
    const uint32_t *slot = lookup(t, s, len, hash_bytes(s, len));
    if (*slot == 0)
        return 0;
    *idx = *slot - 1;
    return 1;
}

static int rehash(ms_strtab *t, size_t nslots)
{
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return -1;
    size_t mask = nslots - 1;
    for (size_t k = 0; k < t->n; k++) {
        size_t i = t->ents[k].hash & mask;
        while (slots[i])
            i = (i + 1) & mask;
        slots[i] = (uint32_t)(k + 1);
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 0;
}

static char *store(ms_strtab *t, const char *s, size_t len)
{
    size_t need = len + 1;
    if (need > t->left) {
        size_t sz = need > CHUNK_MIN ? need : CHUNK_MIN;
        chunk *c = malloc(sizeof *c + sz);
        if (!c)
            return NULL;
        c->next = t->chunks;
        t->chunks = c;
        t->cur = c->data;
        t->left = sz;
    }
    char *p = t->cur;
    memcpy(p, s, len);
    p[len] = '\0';
    t->cur += need;
    t->left -= need;
    return p;
}

int ms_strtab_intern(ms_strtab *t, const char *s, size_t len, uint32_t *idx, int *is_new)
{
    if (len > UINT32_MAX)
        return -1;
    uint32_t h = hash_bytes(s, len);
    if (t->nslots) {
        const uint32_t *slot = lookup(t, s, len, h);
        if (*slot) {
            *idx = *slot - 1;
            if (is_new)
                *is_new = 0;
            return 0;
        }
    }
    if (t->n >= UINT32_MAX - 1)
        return -1;
    if ((t->n + 1) * 2 > t->nslots && rehash(t, t->nslots ? t->nslots * 2 : 64) != 0)
        return -1;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        ms_strent *e = realloc(t->ents, cap * sizeof *e);
        if (!e)
            return -1;
        t->ents = e;
        t->cap = cap;
    }
    char *copy = store(t, s, len);
    if (!copy)
        return -1;
    uint32_t k = (uint32_t)t->n;
    t->ents[k] = (ms_strent){.str = copy, .len = (uint32_t)len, .hash = h};
    t->n++;
    uint32_t *slot = (uint32_t *)lookup(t, s, len, h);
    *slot = k + 1;
    t->bytes += len;
    *idx = k;
    if (is_new)
        *is_new = 1;
    return 0;
}
