/* A rank's communicators: see comm_facts.h. */
#include "comm_facts.h"

#include <stdlib.h>
#include <string.h>

ms_comm_fact *ms_comm_facts_get(ms_comm_facts *f, ms_idmap *index, int64_t id)
{
    uint32_t i = ms_idmap_get(index, (uint64_t)id);
    if (i != MS_IDMAP_NONE)
        return &f->v[i];
    if (f->n >= UINT32_MAX - 1)
        return NULL;
    ms_comm_fact *v = realloc(f->v, (f->n + 1) * sizeof *v);
    if (!v)
        return NULL;
    f->v = v;
    if (ms_idmap_put(index, (uint64_t)id, (uint32_t)f->n) != 0)
        return NULL;
    ms_comm_fact *c = &f->v[f->n++];
    memset(c, 0, sizeof *c);
    c->id = id;
    c->parent = -1;
    c->low = -1;
    c->region = c->site = UINT32_MAX;
    return c;
}

static char *dup_n(const char *s, size_t len)
{
    char *p = malloc(len + 1);
    if (p) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

int ms_comm_fact_name(ms_comm_fact *c, const char *name, size_t len)
{
    char *p = dup_n(name, len);
    if (!p)
        return -1;
    free(c->name);
    c->name = p;
    return 0;
}

void ms_comm_facts_free(ms_comm_facts *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->v[i].name);
        free(f->v[i].where);
    }
    free(f->v);
    f->v = NULL;
    f->n = 0;
}

/* ---- carried between merge processes (partial_pack.h) ---- */

#define NO_STR UINT64_MAX

static size_t put_str(unsigned char *out, size_t n, const char *s)
{
    uint64_t len = s ? strlen(s) : NO_STR;
    if (out)
        memcpy(out + n, &len, sizeof len);
    n += sizeof len;
    if (s) {
        if (out)
            memcpy(out + n, s, (size_t)len);
        n += (size_t)len;
    }
    return n;
}

size_t ms_comm_facts_encode(const ms_comm_facts *f, unsigned char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++) {
        ms_comm_fact c = f->v[i];
        c.name = c.where = NULL;
        if (out)
            memcpy(out + n, &c, sizeof c);
        n += sizeof c;
        n = put_str(out, n, f->v[i].name);
        n = put_str(out, n, f->v[i].where);
    }
    return n;
}

/* A string at p[*off..len) into *s: 0, or -1 (no memory), -2 (bad bytes). */
static int get_str(char **s, const unsigned char *p, size_t len, size_t *off)
{
    uint64_t n;
    *s = NULL;
    if (len - *off < sizeof n)
        return -2;
    memcpy(&n, p + *off, sizeof n);
    *off += sizeof n;
    if (n == NO_STR)
        return 0;
    if (n > len - *off || memchr(p + *off, '\0', (size_t)n))
        return -2;
    if (!(*s = dup_n((const char *)p + *off, (size_t)n)))
        return -1;
    *off += (size_t)n;
    return 0;
}

int ms_comm_facts_decode(ms_comm_facts *f, size_t n, const unsigned char *p, size_t len, size_t *off)
{
    f->v = NULL;
    f->n = 0;
    if (n > (len - *off) / sizeof(ms_comm_fact))
        return -2;
    if (n && !(f->v = calloc(n, sizeof *f->v)))
        return -1;
    for (size_t i = 0; i < n; i++) {
        ms_comm_fact *c = &f->v[i];
        if (len - *off < sizeof *c)
            return -2;
        memcpy(c, p + *off, sizeof *c);
        *off += sizeof *c;
        c->name = c->where = NULL;
        f->n = i + 1;
        int rc = get_str(&c->name, p, len, off);
        if (rc == 0)
            rc = get_str(&c->where, p, len, off);
        if (rc != 0)
            return rc;
        if (c->ndims > MS_MAX_COMM_DIMS)
            return -2;
    }
    return 0;
}
