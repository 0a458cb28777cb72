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
