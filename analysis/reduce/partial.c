/*
 * The partial of the reduction (reduce_partial.h): the region tables (name
 * -> parts per file) that readers fill and the assembly merges, and the
 * partial that holds every file's result, its tables and its call-site
 * rows between the stages, with their making and freeing.
 */
#include "reduce_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- region tables ---- */

void ms_region_table_init(ms_region_table *t)
{
    ms_strtab_init(&t->names);
    t->regs = NULL;
    t->cap = 0;
}

void ms_region_table_free(ms_region_table *t)
{
    for (size_t i = 0; i < ms_strtab_count(&t->names); i++) {
        for (size_t k = 0; k < t->regs[i].n; k++)
            ms_stats_free(&t->regs[i].parts[k].stats);
        free(t->regs[i].parts);
    }
    free(t->regs);
    ms_strtab_free(&t->names);
}

/* Append a part (taking over its stats) to region `name`. */
int ms_region_table_add(ms_region_table *t, const char *name, size_t len, const ms_region_rank *part)
{
    uint32_t idx;
    int is_new;
    if (ms_strtab_intern(&t->names, name, len, &idx, &is_new) != 0)
        return -1;
    if (idx >= t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        while (cap <= idx)
            cap *= 2;
        ms_region_acc *r = realloc(t->regs, cap * sizeof *r);
        if (!r)
            return -1;
        memset(r + t->cap, 0, (cap - t->cap) * sizeof *r);
        t->regs = r;
        t->cap = cap;
    }
    ms_region_acc *a = &t->regs[idx];
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 4;
        ms_region_rank *p = realloc(a->parts, cap * sizeof *p);
        if (!p)
            return -1;
        a->parts = p;
        a->cap = cap;
    }
    a->parts[a->n++] = *part;
    return 0;
}

/* ---- the partial ---- */

static void free_jobs(ms_file_job *jobs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(jobs[i].path);
        ms_rank_info_free(&jobs[i].info);
        ms_strlist_free(&jobs[i].warnings);
        free(jobs[i].chans);
        ms_counter_acc_free(jobs[i].counters);
        ms_wait_facts_free(jobs[i].waits);
        free(jobs[i].waits);
    }
    free(jobs);
}

void ms_partial_init(ms_partial *p)
{
    memset(p, 0, sizeof *p);
}

void ms_partial_free(ms_partial *p)
{
    free_jobs(p->files, p->nfiles);
    for (size_t i = 0; i < p->ntabs; i++)
        ms_region_table_free(&p->tabs[i]);
    free(p->tabs);
    for (size_t i = 0; i < p->nsites; i++)
        ms_callsite_free(&p->sites[i]);
    free(p->sites);
    memset(p, 0, sizeof *p);
}

ms_region_table *ms_partial_add_table(ms_partial *p)
{
    ms_region_table *t = realloc(p->tabs, (p->ntabs + 1) * sizeof *t);
    if (!t)
        return NULL;
    p->tabs = t;
    ms_region_table_init(&t[p->ntabs]);
    return &t[p->ntabs++];
}
