/* How the run ended (run_end.h). */
#include "run_end.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/op_class.h"
#include "run_clock.h"

static const char *const state_names[] = {"finished", "aborted", "signal", "killed", "stuck", "unknown"};

const char *ms_end_state_name(int state)
{
    return state >= 0 && state <= MS_END_UNKNOWN ? state_names[state] : "unknown";
}

long ms_run_rank_index(const ms_run *run, int32_t r)
{
    size_t lo = 0, hi = run->nranks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (run->ranks[mid].rank < r)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < run->nranks && run->ranks[lo].rank == r ? (long)lo : -1;
}

static int fatal(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT;
}

static int state_of(const ms_rank_info *in)
{
    const ms_rank_ending *e = &in->ending;
    switch (e->cause) {
    case MS_ENDING_ABORT:
        return MS_END_ABORTED;
    case MS_ENDING_SIGNAL:
        return fatal(e->signal) ? MS_END_SIGNAL : MS_END_KILLED;
    case MS_ENDING_STUCK:
        return in->has_end ? MS_END_FINISHED : MS_END_STUCK;
    default:
        return in->has_end ? MS_END_FINISHED : MS_END_UNKNOWN;
    }
}

/* Two ranks are in the same collective: one op over the same members. */
static int same_collective(const ms_rank_ending *a, const ms_rank_ending *b)
{
    return a->op == b->op && a->nmembers == b->nmembers &&
           memcmp(a->members, b->members, a->nmembers * sizeof *a->members) == 0;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Whom rank i waits for. */
static int waits_of(const ms_run *run, ms_run_end *out, size_t i)
{
    const ms_rank_ending *e = &run->ranks[i].ending;
    ms_end_rank *er = &out->ranks[i];
    ms_op_meaning m = ms_op_meaning_of_id(e->op);
    if (e->members && ms_op_data_collective(m)) {
        if (!(er->waits_for = malloc(e->nmembers * sizeof *er->waits_for)))
            return -1;
        for (uint32_t k = 0; k < e->nmembers; k++) {
            int32_t r = e->members[k];
            long j = ms_run_rank_index(run, r);
            if (r == run->ranks[i].rank)
                continue;
            if (j >= 0 && out->ranks[j].waiting && same_collective(&run->ranks[j].ending, e))
                continue;
            er->waits_for[er->nwaits++] = r;
        }
    } else if (e->nreqs && ms_op_completes(m)) {
        /* A request's peer: each rank its requests send to or receive
         * from (a receive from any source names none). */
        if (!(er->waits_for = malloc(e->nreqs * sizeof *er->waits_for)))
            return -1;
        int unnamed = 0;
        for (uint32_t k = 0; k < e->nreqs; k++) {
            if (e->reqs[k].peer >= 0 && e->reqs[k].peer != run->ranks[i].rank)
                er->waits_for[er->nwaits++] = e->reqs[k].peer;
            else
                unnamed = 1;
        }
        if (m.cls == MS_OPC_COMPLETE_ANY || m.cls == MS_OPC_COMPLETE_SOME)
            er->any = unnamed ? 2 : 1;
    } else if (e->peer >= 0 && e->peer != run->ranks[i].rank) {
        if (!(er->waits_for = malloc(sizeof *er->waits_for)))
            return -1;
        er->waits_for[er->nwaits++] = e->peer;
    }
    if (er->nwaits > 1)
        qsort(er->waits_for, er->nwaits, sizeof *er->waits_for, cmp_i32);
    uint32_t u = 0;
    for (uint32_t k = 0; k < er->nwaits; k++)
        if (u == 0 || er->waits_for[u - 1] != er->waits_for[k])
            er->waits_for[u++] = er->waits_for[k];
    er->nwaits = u;
    return 0;
}

/* A rank that waits for any one of its peers (MPI_Waitany, MPI_Waitsome)
 * is held only while all of them wait, and one of its requests names none
 * (any source, itself, not known): its edges count for cycles then. */
static int held(const ms_run_end *out, const ms_run *run, const ms_end_rank *er)
{
    if (!er->any)
        return 1;
    if (er->any == 2)
        return 0;
    for (uint32_t k = 0; k < er->nwaits; k++) {
        long w = ms_run_rank_index(run, er->waits_for[k]);
        if (w < 0 || !out->ranks[w].waiting)
            return 0;
    }
    return 1;
}

/* ---- cycles: strongly connected parts (Tarjan) ---- */

typedef struct scc_ctx {
    const ms_run *run;
    ms_run_end *out;
    long *index, *low;
    int *on_stack;
    size_t *stack, sp;
    long next;
    int nomem;
} scc_ctx;

static void add_cycle(scc_ctx *c, size_t from)
{
    size_t n = c->sp - from;
    int32_t *ranks = malloc(n * sizeof *ranks);
    uint32_t *lens = realloc(c->out->cycle_len, (c->out->ncycles + 1) * sizeof *lens);
    if (lens)
        c->out->cycle_len = lens;
    int32_t **cyc = realloc(c->out->cycles, (c->out->ncycles + 1) * sizeof *cyc);
    if (cyc)
        c->out->cycles = cyc;
    if (!ranks || !lens || !cyc) {
        free(ranks);
        c->nomem = 1;
        return;
    }
    for (size_t k = 0; k < n; k++)
        ranks[k] = c->run->ranks[c->stack[from + k]].rank;
    qsort(ranks, n, sizeof *ranks, cmp_i32);
    c->out->cycles[c->out->ncycles] = ranks;
    c->out->cycle_len[c->out->ncycles++] = (uint32_t)n;
}

static void strongconnect(scc_ctx *c, size_t v)
{
    c->index[v] = c->low[v] = c->next++;
    c->stack[c->sp++] = v;
    c->on_stack[v] = 1;
    const ms_end_rank *er = &c->out->ranks[v];
    int self = 0;
    uint32_t nwaits = held(c->out, c->run, er) ? er->nwaits : 0;
    for (uint32_t k = 0; k < nwaits; k++) {
        long w = ms_run_rank_index(c->run, er->waits_for[k]);
        if (w < 0 || !c->out->ranks[w].waiting)
            continue;
        if ((size_t)w == v)
            self = 1;
        if (c->index[w] < 0) {
            strongconnect(c, (size_t)w);
            if (c->low[w] < c->low[v])
                c->low[v] = c->low[w];
        } else if (c->on_stack[w] && c->index[w] < c->low[v]) {
            c->low[v] = c->index[w];
        }
    }
    if (c->low[v] != c->index[v])
        return;
    size_t from = c->sp;
    do
        c->on_stack[c->stack[--from]] = 0;
    while (c->stack[from] != v);
    if (c->sp - from > 1 || self)
        add_cycle(c, from);
    c->sp = from;
}

static int cmp_cycle(const void *a, const void *b, void *lens)
{
    (void)lens;
    int32_t x = **(int32_t *const *)a, y = **(int32_t *const *)b;
    return (x > y) - (x < y);
}

static int find_cycles(const ms_run *run, ms_run_end *out)
{
    size_t n = run->nranks;
    scc_ctx c = {.run = run, .out = out};
    c.index = malloc(n * sizeof *c.index);
    c.low = malloc(n * sizeof *c.low);
    c.on_stack = calloc(n, sizeof *c.on_stack);
    c.stack = malloc(n * sizeof *c.stack);
    int rc = -1;
    if (c.index && c.low && c.on_stack && c.stack) {
        for (size_t i = 0; i < n; i++)
            c.index[i] = -1;
        for (size_t i = 0; i < n && !c.nomem; i++)
            if (out->ranks[i].waiting && c.index[i] < 0)
                strongconnect(&c, i);
        rc = c.nomem ? -1 : 0;
    }
    free(c.index);
    free(c.low);
    free(c.on_stack);
    free(c.stack);
    if (rc == 0 && out->ncycles > 1) {
        /* Sort cycles and their lengths together, by first rank. */
        for (size_t i = 1; i < out->ncycles; i++)
            for (size_t j = i; j > 0 && cmp_cycle(&out->cycles[j - 1], &out->cycles[j], NULL) > 0; j--) {
                int32_t *t = out->cycles[j];
                out->cycles[j] = out->cycles[j - 1];
                out->cycles[j - 1] = t;
                uint32_t l = out->cycle_len[j];
                out->cycle_len[j] = out->cycle_len[j - 1];
                out->cycle_len[j - 1] = l;
            }
    }
    return rc;
}

static int find_blocking(const ms_run *run, ms_run_end *out)
{
    int32_t *v = NULL;
    uint32_t n = 0;
    for (size_t i = 0; i < run->nranks; i++) {
        const ms_end_rank *er = &out->ranks[i];
        for (uint32_t k = 0; k < er->nwaits; k++) {
            long j = ms_run_rank_index(run, er->waits_for[k]);
            if (j >= 0 && out->ranks[j].waiting)
                continue;
            int32_t *nv = realloc(v, (n + 1) * sizeof *v);
            if (!nv) {
                free(v);
                return -1;
            }
            v = nv;
            v[n++] = er->waits_for[k];
        }
    }
    if (n)
        qsort(v, n, sizeof *v, cmp_i32);
    uint32_t u = 0;
    for (uint32_t k = 0; k < n; k++)
        if (u == 0 || v[u - 1] != v[k])
            v[u++] = v[k];
    out->blocking = v;
    out->nblocking = u;
    return 0;
}

int ms_run_end_make(const ms_run *run, ms_run_end *out)
{
    memset(out, 0, sizeof *out);
    out->n = run->nranks;
    if (run->nranks && !(out->ranks = calloc(run->nranks, sizeof *out->ranks)))
        return -1;
    out->clean = run->world_size <= 0 || (size_t)run->world_size == run->nranks;
    for (size_t i = 0; i < run->nranks; i++) {
        const ms_rank_info *in = &run->ranks[i];
        const ms_rank_ending *e = &in->ending;
        ms_end_rank *er = &out->ranks[i];
        er->state = state_of(in);
        if (er->state != MS_END_FINISHED)
            out->clean = 0;
        ms_op_meaning m = ms_op_meaning_of_id(e->op);
        er->waiting = e->op && e->since_ns && ms_op_blocking(m) && !(m.traits & MS_OPT_TEST) &&
                      (er->state == MS_END_STUCK || er->state == MS_END_KILLED || er->state == MS_END_UNKNOWN);
        int64_t t = 0;
        if (e->at_ns)
            t = ms_rank_time(in, e->at_ns);
        else if (in->has_events)
            t = in->last_end;
        if (t > out->end)
            out->end = t;
    }
    for (size_t i = 0; i < run->nranks; i++)
        if (out->ranks[i].waiting && waits_of(run, out, i) != 0) {
            ms_run_end_free(out);
            return -1;
        }
    if (find_cycles(run, out) != 0 || find_blocking(run, out) != 0) {
        ms_run_end_free(out);
        return -1;
    }
    return 0;
}

void ms_run_end_free(ms_run_end *e)
{
    for (size_t i = 0; i < e->n; i++)
        free(e->ranks[i].waits_for);
    free(e->ranks);
    for (size_t i = 0; i < e->ncycles; i++)
        free(e->cycles[i]);
    free(e->cycles);
    free(e->cycle_len);
    free(e->blocking);
    memset(e, 0, sizeof *e);
}
