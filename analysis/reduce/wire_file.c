/* One log's per-file result on the wire: see wire_file.h. Each put_X /
 * get_X pair names every field of X in the same order. */
#include "wire_file.h"

#include <stdlib.h>

#include "reduce_internal.h"
#include "wire_rank.h"
#include "wire_waits.h"

/* A field added to a struct that travels changes its size: these stop the
 * build until the pair below carries it (sizes of LP64 machines). */
#if UINTPTR_MAX == UINT64_MAX && defined(__LP64__)
#define CARRIED(T, n) _Static_assert(sizeof(T) == (n), #T " changed: carry its new fields in " __FILE__)
CARRIED(ms_file_job, 1232);
CARRIED(ms_read_result, 568);
CARRIED(ms_strlist, 24);
CARRIED(ms_p2p_chan, 56);
CARRIED(ms_counter_acc, 48);
CARRIED(ms_counter_acc_row, 560);
CARRIED(ms_counter_set, 24);
#endif

/* Wire sizes of the items behind counts (the smallest, for those with
 * strings). */
#define CHAN_BYTES (4 + 4 + 8 + 8 + 8 + 4 + 8 + 8)
#define SET_MIN 8
#define ROW_MIN (4 * 6 + 8 + 8 + 8 * MS_MAX_COUNTER_VALUES + 8)

static void put_result(ms_pbuf *b, const ms_read_result *x)
{
    ms_wire_u32(b, (uint32_t)x->status);
    ms_wire_u64(b, x->offset);
    ms_wire_u64(b, x->frames);
    ms_wire_u64(b, x->events);
    ms_wire_u64(b, x->summarized);
    ms_wire_u32(b, x->threads);
    ms_wire_i32(b, x->has_header);
    ms_wire_i32(b, x->has_end);
    ms_wire_str(b, x->message);
}

static void get_result(ms_wire_in *r, ms_read_result *x)
{
    x->status = (ms_read_status)ms_wire_get_u32_max(r, MS_READ_STOPPED);
    x->offset = ms_wire_get_u64(r);
    x->frames = ms_wire_get_u64(r);
    x->events = ms_wire_get_u64(r);
    x->summarized = ms_wire_get_u64(r);
    x->threads = ms_wire_get_u32(r);
    x->has_header = ms_wire_get_i32(r);
    x->has_end = ms_wire_get_i32(r);
    char *m = ms_wire_get_str_nn(r);
    if (m && strlen(m) >= sizeof x->message)
        r->bad = 1;
    else if (m)
        memcpy(x->message, m, strlen(m) + 1);
    free(m);
}

static void put_strlist(ms_pbuf *b, const ms_strlist *l)
{
    ms_wire_u64(b, l->n);
    for (size_t i = 0; i < l->n; i++)
        ms_wire_str(b, l->v[i]);
}

static void get_strlist(ms_wire_in *r, ms_strlist *l)
{
    size_t n = ms_wire_get_count(r, 8);
    if (!(l->v = ms_wire_alloc(r, n, sizeof *l->v)))
        return;
    l->cap = n;
    for (size_t i = 0; i < n && ms_wire_ok(r); i++)
        if ((l->v[i] = ms_wire_get_str_nn(r)))
            l->n = i + 1;
}

static void put_chan(ms_pbuf *b, const ms_p2p_chan *c)
{
    ms_wire_i32(b, c->rank);
    ms_wire_i32(b, c->dir);
    ms_wire_i64(b, c->comm);
    ms_wire_i64(b, c->peer);
    ms_wire_i64(b, c->tag);
    ms_wire_i32(b, c->world_peer);
    ms_wire_u64(b, c->calls);
    ms_wire_u64(b, c->bytes);
}

static void get_chan(ms_wire_in *r, ms_p2p_chan *c)
{
    c->rank = ms_wire_get_i32(r);
    c->dir = ms_wire_get_i32(r);
    c->comm = ms_wire_get_i64(r);
    c->peer = ms_wire_get_i64(r);
    c->tag = ms_wire_get_i64(r);
    c->world_peer = ms_wire_get_i32(r);
    c->calls = ms_wire_get_u64(r);
    c->bytes = ms_wire_get_u64(r);
}

/* A set: its group (NULL: a set index not seen, nothing follows), then
 * nevents, n and the n names. */
static void put_counter_set(ms_pbuf *b, const ms_counter_set *s)
{
    ms_wire_str(b, s->group);
    if (!s->group)
        return;
    ms_wire_u32(b, s->nevents);
    ms_wire_u32(b, s->n);
    for (uint32_t i = 0; i < s->n; i++)
        ms_wire_str(b, s->names[i]);
}

static void get_counter_set(ms_wire_in *r, ms_counter_set *s)
{
    if (!(s->group = ms_wire_get_str(r)))
        return;
    uint32_t nevents = ms_wire_get_u32(r), n = ms_wire_get_u32_max(r, MS_MAX_COUNTER_VALUES);
    if (!ms_wire_ok(r) || nevents > n) {
        r->bad |= !r->nomem;
        return;
    }
    if (!(s->names = calloc(n ? n : 1, sizeof *s->names))) {
        r->nomem = 1;
        return;
    }
    for (uint32_t i = 0; i < n && ms_wire_ok(r); i++)
        if ((s->names[i] = ms_wire_get_str_nn(r)))
            s->n = i + 1;
    s->nevents = s->n == n ? nevents : 0;
}

static void put_counter_row(ms_pbuf *b, const ms_counter_acc_row *w)
{
    ms_wire_u32(b, w->set);
    ms_wire_u32(b, w->region);
    ms_wire_u32(b, w->cthread);
    ms_wire_u32(b, w->cpu);
    ms_wire_i32(b, w->final);
    ms_wire_i32(b, w->dead);
    ms_wire_u64(b, w->count);
    ms_wire_f64(b, w->time_s);
    for (size_t k = 0; k < MS_MAX_COUNTER_VALUES; k++)
        ms_wire_f64(b, w->values[k]);
    ms_wire_str(b, w->name);
}

static void get_counter_row(ms_wire_in *r, ms_counter_acc_row *w)
{
    w->set = ms_wire_get_u32(r);
    w->region = ms_wire_get_u32(r);
    w->cthread = ms_wire_get_u32(r);
    w->cpu = ms_wire_get_u32(r);
    w->final = ms_wire_get_i32(r);
    w->dead = ms_wire_get_i32(r);
    w->count = ms_wire_get_u64(r);
    w->time_s = ms_wire_get_f64(r);
    for (size_t k = 0; k < MS_MAX_COUNTER_VALUES; k++)
        w->values[k] = ms_wire_get_f64(r);
    w->name = ms_wire_get_str(r);
}

/* u8 present (0: none), then the sets, the rows and `last`. */
static void put_counter_acc(ms_pbuf *b, const ms_counter_acc *a)
{
    ms_wire_u8(b, a != NULL);
    if (!a)
        return;
    ms_wire_u64(b, a->nsets);
    for (size_t i = 0; i < a->nsets; i++)
        put_counter_set(b, &a->sets[i]);
    ms_wire_u64(b, a->nrows);
    for (size_t i = 0; i < a->nrows; i++)
        put_counter_row(b, &a->rows[i]);
    ms_wire_u64(b, a->last);
}

static ms_counter_acc *get_counter_acc(ms_wire_in *r)
{
    uint8_t present = ms_wire_get_u8(r);
    if (!present || !ms_wire_ok(r)) {
        r->bad |= present > 1;
        return NULL;
    }
    ms_counter_acc *a = calloc(1, sizeof *a);
    size_t nsets = ms_wire_get_count(r, SET_MIN);
    if (!a || (ms_wire_ok(r) && !(a->sets = calloc(nsets ? nsets : 1, sizeof *a->sets)))) {
        r->nomem = 1;
        return a;
    }
    for (size_t i = 0; i < nsets && ms_wire_ok(r); i++) {
        a->nsets = i + 1;
        get_counter_set(r, &a->sets[i]);
    }
    size_t nrows = ms_wire_get_count(r, ROW_MIN);
    if (ms_wire_ok(r) && !(a->rows = calloc(nrows ? nrows : 1, sizeof *a->rows))) {
        r->nomem = 1;
        return a;
    }
    a->cap = nrows;
    for (size_t i = 0; i < nrows && ms_wire_ok(r); i++) {
        a->nrows = i + 1;
        get_counter_row(r, &a->rows[i]);
    }
    a->last = ms_wire_get_u64(r);
    return a;
}

void ms_wire_put_file(ms_pbuf *b, const ms_file_job *j)
{
    ms_wire_str(b, j->path);
    ms_wire_u64(b, j->path && j->base ? (uint64_t)(j->base - j->path) : MS_WIRE_NO_STR);
    ms_wire_i64(b, j->name_rank);
    put_result(b, &j->res);
    ms_wire_put_rank_info(b, &j->info);
    put_strlist(b, &j->warnings);
    ms_wire_i32(b, j->usable);
    ms_wire_i32(b, j->read);
    ms_wire_u64(b, j->nchans);
    for (size_t i = 0; i < j->nchans; i++)
        put_chan(b, &j->chans[i]);
    put_counter_acc(b, j->counters);
    ms_wire_put_waits(b, j->waits);
}

void ms_wire_get_file(ms_wire_in *r, ms_file_job *j)
{
    j->path = ms_wire_get_str_nn(r);
    uint64_t base = ms_wire_get_u64(r);
    if (j->path && base != MS_WIRE_NO_STR) {
        if (base > strlen(j->path))
            r->bad = 1;
        else
            j->base = j->path + base;
    }
    j->name_rank = ms_wire_get_i64(r);
    get_result(r, &j->res);
    ms_wire_get_rank_info(r, &j->info);
    get_strlist(r, &j->warnings);
    j->usable = ms_wire_get_i32(r);
    j->read = ms_wire_get_i32(r);
    size_t n = ms_wire_get_count(r, CHAN_BYTES);
    if (n && ms_wire_ok(r) && !(j->chans = calloc(n, sizeof *j->chans)))
        r->nomem = 1;
    for (size_t i = 0; j->chans && i < n; i++)
        get_chan(r, &j->chans[i]);
    if (j->chans)
        j->nchans = j->chans_cap = n;
    if (ms_wire_ok(r))
        j->counters = get_counter_acc(r);
    if (ms_wire_ok(r))
        j->waits = ms_wire_get_waits(r);
}

void ms_wire_file_free(ms_file_job *j)
{
    free(j->path);
    ms_rank_info_free(&j->info);
    ms_strlist_free(&j->warnings);
    free(j->chans);
    ms_counter_acc_free(j->counters);
    ms_wait_facts_free(j->waits);
    free(j->waits);
    memset(j, 0, sizeof *j);
}
