/* Counter sets of one log: see log_counters.h. */
#include "log_counters.h"

#include <stdlib.h>
#include <string.h>

#include "../../common/log_format.h"

_Static_assert(MS_MAX_COUNTER_VALUES <= 64, "ms_cset_ref holds MS_MAX_COUNTER_VALUES names");

static int same_str(const char *a, const char *b, size_t blen)
{
    return strlen(a) == blen && memcmp(a, b, blen) == 0;
}

static int same(const ms_counter_set *s, const ms_cset_ref *r)
{
    if (s->nevents != r->nevents || s->n != r->n || !same_str(s->group, r->group, r->group_len))
        return 0;
    for (uint32_t i = 0; i < r->n; i++)
        if (!same_str(s->names[i], r->name[i], r->len[i]))
            return 0;
    return 1;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

void ms_counter_set_free(ms_counter_set *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; s->names && i < s->n; i++)
        free(s->names[i]);
    free(s->names);
    free(s->group);
    memset(s, 0, sizeof *s);
}

int ms_counter_set_copy(ms_counter_set *dst, const ms_counter_set *src)
{
    memset(dst, 0, sizeof *dst);
    dst->group = strdup(src->group);
    dst->names = calloc(src->n ? src->n : 1, sizeof *dst->names);
    if (!dst->group || !dst->names) {
        ms_counter_set_free(dst);
        return -1;
    }
    dst->nevents = src->nevents;
    for (uint32_t i = 0; i < src->n; i++) {
        dst->names[i] = strdup(src->names[i]);
        dst->n = i + 1;
        if (!dst->names[i]) {
            ms_counter_set_free(dst);
            return -1;
        }
    }
    dst->n = src->n;
    return 0;
}

int ms_cset_intern(ms_cset_table *t, const ms_cset_ref *ref, uint32_t *idx, int *is_new)
{
    *is_new = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (same(&t->v[i], ref)) {
            *idx = (uint32_t)i;
            return 0;
        }
    }
    if (t->n >= MS_READER_MAX_COUNTER_SETS)
        return -2;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4;
        ms_counter_set *v = realloc(t->v, cap * sizeof *v);
        if (!v)
            return -1;
        t->v = v;
        t->cap = cap;
    }
    ms_counter_set s = {.nevents = ref->nevents};
    s.group = dup_n(ref->group, ref->group_len);
    s.names = calloc(ref->n ? ref->n : 1, sizeof *s.names);
    if (!s.group || !s.names) {
        ms_counter_set_free(&s);
        return -1;
    }
    for (uint32_t i = 0; i < ref->n; i++) {
        s.names[i] = dup_n(ref->name[i], ref->len[i]);
        s.n = i + 1;
        if (!s.names[i]) {
            ms_counter_set_free(&s);
            return -1;
        }
    }
    s.n = ref->n;
    *idx = (uint32_t)t->n;
    t->v[t->n++] = s;
    *is_new = 1;
    return 0;
}

void ms_cset_clear(ms_cset_table *t)
{
    for (size_t i = 0; i < t->n; i++)
        ms_counter_set_free(&t->v[i]);
    free(t->v);
    memset(t, 0, sizeof *t);
}
