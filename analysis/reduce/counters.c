/* Hardware counters of a run: see counters.h. */
#include "counters.h"

#include <stdlib.h>
#include <string.h>

#include "../../common/log_format.h"

typedef ms_counter_acc_row acc_row;

ms_counter_acc *ms_counter_acc_new(void)
{
    return calloc(1, sizeof(ms_counter_acc));
}

void ms_counter_acc_free(ms_counter_acc *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->nsets; i++)
        ms_counter_set_free(&a->sets[i]);
    free(a->sets);
    for (size_t i = 0; i < a->nrows; i++)
        free(a->rows[i].name);
    free(a->rows);
    free(a);
}

int ms_counter_acc_set(ms_counter_acc *a, uint32_t set, const ms_counter_set *def)
{
    if (set >= a->nsets) {
        size_t n = (size_t)set + 1;
        ms_counter_set *v = realloc(a->sets, n * sizeof *v);
        if (!v)
            return -1;
        memset(v + a->nsets, 0, (n - a->nsets) * sizeof *v);
        a->sets = v;
        a->nsets = n;
    }
    ms_counter_set_free(&a->sets[set]);
    return ms_counter_set_copy(&a->sets[set], def);
}

int ms_counter_acc_sample(ms_counter_acc *a, const ms_counter_sample *s)
{
    int final = (s->flags & MS_SAMPLE_FINAL) != 0;
    acc_row *hit = NULL;
    if (a->last < a->nrows) {
        acc_row *r = &a->rows[a->last];
        if (!r->dead && r->set == s->set && r->region == s->region && r->cthread == s->cthread && r->final == final)
            hit = r;
    }
    if (!hit) {
        for (size_t i = 0; i < a->nrows; i++) {
            acc_row *r = &a->rows[i];
            if (r->dead || r->set != s->set || r->region != s->region)
                continue;
            if (r->final && !final)
                return 0;  /* the final evaluation stands */
            if (!r->final && final) {
                r->dead = 1;
                continue;
            }
            if (r->cthread == s->cthread)
                hit = r;
        }
    }
    if (!hit) {
        if (a->nrows == a->cap) {
            size_t cap = a->cap ? a->cap * 2 : 16;
            acc_row *v = realloc(a->rows, cap * sizeof *v);
            if (!v)
                return -1;
            a->rows = v;
            a->cap = cap;
        }
        hit = &a->rows[a->nrows++];
        memset(hit, 0, sizeof *hit);
        hit->set = s->set;
        hit->region = s->region;
        hit->cthread = s->cthread;
        hit->final = final;
    }
    a->last = (size_t)(hit - a->rows);
    hit->cpu = s->cpu;
    hit->count = s->count;
    hit->time_s = s->time_s;
    memcpy(hit->values, s->values, s->n * sizeof(double));
    return 0;
}

int ms_counter_acc_resolve(ms_counter_acc *a, const ms_reader *rd)
{
    for (size_t i = 0; i < a->nrows; i++) {
        acc_row *r = &a->rows[i];
        if (r->dead || r->region == MS_REGION_RUN)
            continue;
        size_t len = 0;
        const char *name = ms_reader_region_name(rd, r->region, &len);
        if (!name) {
            r->dead = 1;
            continue;
        }
        r->name = malloc(len + 1);
        if (!r->name)
            return -1;
        memcpy(r->name, name, len);
        r->name[len] = 0;
    }
    return 0;
}

static int same_set(const ms_counter_set *x, const ms_counter_set *y)
{
    if (x->nevents != y->nevents || x->n != y->n || strcmp(x->group, y->group) != 0)
        return 0;
    for (uint32_t i = 0; i < x->n; i++)
        if (strcmp(x->names[i], y->names[i]) != 0)
            return 0;
    return 1;
}

/* The run's index of set s, added when new; UINT32_MAX when out of memory. */
static uint32_t run_set(ms_counters *c, const ms_counter_set *s)
{
    for (size_t i = 0; i < c->nsets; i++)
        if (same_set(&c->sets[i], s))
            return (uint32_t)i;
    ms_counter_set *v = realloc(c->sets, (c->nsets + 1) * sizeof *v);
    if (!v)
        return UINT32_MAX;
    c->sets = v;
    if (ms_counter_set_copy(&c->sets[c->nsets], s) != 0)
        return UINT32_MAX;
    return (uint32_t)c->nsets++;
}

int ms_counters_add(ms_counters *c, const ms_counter_acc *a, int32_t rank)
{
    for (size_t i = 0; i < a->nrows; i++) {
        const acc_row *r = &a->rows[i];
        if (r->dead || r->set >= a->nsets || !a->sets[r->set].group)
            continue;
        const ms_counter_set *s = &a->sets[r->set];
        uint32_t set = run_set(c, s);
        if (set == UINT32_MAX)
            return -1;
        ms_counter_row *v = realloc(c->rows, (c->nrows + 1) * sizeof *v);
        if (!v)
            return -1;
        c->rows = v;
        ms_counter_row *o = &c->rows[c->nrows];
        memset(o, 0, sizeof *o);
        o->values = malloc((s->n ? s->n : 1) * sizeof(double));
        if (!o->values || (r->name && !(o->region = strdup(r->name)))) {
            free(o->values);
            return -1;
        }
        memcpy(o->values, r->values, s->n * sizeof(double));
        o->set = set;
        o->rank = rank;
        o->cthread = r->cthread;
        o->cpu = r->cpu;
        o->count = r->count;
        o->time_s = r->time_s;
        c->nrows++;
    }
    return 0;
}

static int row_cmp(const void *pa, const void *pb)
{
    const ms_counter_row *a = pa, *b = pb;
    if (a->set != b->set)
        return a->set < b->set ? -1 : 1;
    if (!a->region != !b->region)
        return a->region ? 1 : -1;
    if (a->region) {
        int d = strcmp(a->region, b->region);
        if (d)
            return d;
    }
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    if (a->cthread != b->cthread)
        return a->cthread < b->cthread ? -1 : 1;
    return 0;
}

void ms_counters_sort(ms_counters *c)
{
    if (c->nrows > 1)
        qsort(c->rows, c->nrows, sizeof *c->rows, row_cmp);
}

void ms_counters_free(ms_counters *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nsets; i++)
        ms_counter_set_free(&c->sets[i]);
    free(c->sets);
    for (size_t i = 0; i < c->nrows; i++) {
        free(c->rows[i].region);
        free(c->rows[i].values);
    }
    free(c->rows);
    memset(c, 0, sizeof *c);
}
