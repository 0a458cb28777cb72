/* Summary mode's request records: see summary_requests.h. */
#include "summary_requests.h"

#include <stdlib.h>
#include <string.h>

void ms_sumrq_free(ms_sumrq_thread *q)
{
    for (uint32_t i = 0; i < q->nnames; i++)
        free(q->names[i].info);
    free(q->names);
    free(q->pend);
    ms_rq_names_free(&q->derived);
    memset(q, 0, sizeof *q);
}

static ms_sumrq_name *name_at(ms_sumrq_thread *q, uint64_t id)
{
    if (id >= MS_SUMRQ_ID_BASE)
        return NULL;
    if (id >= q->nnames) {
        uint32_t n = q->nnames ? q->nnames : 64;
        while (n <= id)
            n *= 2;
        ms_sumrq_name *a = realloc(q->names, n * sizeof *a);
        if (!a)
            return NULL;
        memset(a + q->nnames, 0, (n - q->nnames) * sizeof *a);
        q->names = a;
        q->nnames = n;
    }
    return &q->names[id];
}

int ms_sumrq_define(ms_sumrq_thread *q, uint64_t id, const char *name, size_t len)
{
    int is_mpi = len >= 4 && memcmp(name, "mpi:", 4) == 0;
    int is_tool = len >= 9 && memcmp(name, "mpiscope:", 9) == 0;
    if (!is_mpi && !is_tool && id >= q->nnames)
        return 0;
    ms_sumrq_name *n = name_at(q, id);
    if (!n)
        return id >= MS_SUMRQ_ID_BASE ? 0 : -1;
    free(n->info);
    *n = (ms_sumrq_name){.is_tool = is_tool};
    ms_rq_facts_of(NULL, 0, &n->facts);
    if (is_mpi && len <= MS_MAX_NAME) {
        char buf[MS_MAX_NAME + 1];
        memcpy(buf, name, len);
        buf[len] = '\0';
        n->info = malloc(sizeof *n->info);
        if (!n->info)
            return -1;
        if (!ms_region_parse(buf, n->info)) {
            free(n->info);
            n->info = NULL;
        }
        ms_rq_facts_of(n->info, n->info != NULL, &n->facts);
    }
    return 0;
}

int ms_sumrq_record(ms_sumrq_thread *q, const uint8_t **pp, const uint8_t *end)
{
    ms_rq_record rec;
    if (ms_rq_parse(pp, end, &q->where, &rec) != MS_RQ_OK)
        return -1;
    if (q->npend == q->pend_cap) {
        size_t cap = q->pend_cap ? q->pend_cap * 2 : 16;
        ms_rq_record *a = realloc(q->pend, cap * sizeof *a);
        if (!a)
            return -1;
        q->pend = a;
        q->pend_cap = cap;
    }
    q->pend[q->npend++] = rec;
    return 0;
}

/* The kept records applied at an event of region id (facts of its name);
 * its name in *np. As ms_rq_apply returns. */
static int apply_kept(ms_rq_table *rq, ms_sumrq_thread *q, uint32_t thread, uint64_t id, uint64_t start_ns,
                      ms_rq_fold *fold, const ms_sumrq_name **np)
{
    static const ms_sumrq_name none = {.info = NULL, .is_tool = 0,
                                       .facts = {.op = 0, .comm = -1, .peer = -1, .tag = -1, .bytes = -1}};
    const ms_sumrq_name *n = id < q->nnames ? &q->names[id] : &none;
    *np = n;
    if (n->is_tool)
        return 0;
    int rc = ms_rq_apply(rq, thread, q->pend, q->npend, &n->facts, start_ns, fold, NULL, NULL);
    q->npend = 0;
    return rc;
}

int ms_sumrq_apply(ms_rq_table *rq, ms_sumrq_thread *q, uint32_t thread, uint64_t id, uint64_t start_ns,
                   uint32_t *derived, char *name, size_t cap, size_t *len)
{
    ms_rq_fold fold = ms_rq_fold_init();
    const ms_sumrq_name *n;
    int rc = apply_kept(rq, q, thread, id, start_ns, &fold, &n);
    if (rc <= 0 || !n->info)
        return rc < 0 ? -1 : 0;
    if (ms_rq_names_find(&q->derived, id, &fold, derived)) {
        *len = 0;
        return 1;
    }
    *len = ms_rq_name(name, cap, n->info, &fold);
    if (*len >= cap)
        *len = cap - 1;
    if (*len > MS_MAX_NAME)
        *len = MS_MAX_NAME;
    *derived = q->nderived;
    if (ms_rq_names_put(&q->derived, id, &fold, *derived) != 0)
        return -1;
    q->nderived++;
    return 1;
}

int ms_sumrq_follow(ms_rq_table *rq, ms_sumrq_thread *q, uint32_t thread, uint64_t id, uint64_t start_ns)
{
    ms_rq_fold fold = ms_rq_fold_init();
    const ms_sumrq_name *n;
    return apply_kept(rq, q, thread, id, start_ns, &fold, &n) < 0 ? -1 : 0;
}
