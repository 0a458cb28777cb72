/* The sums of the waiting calls as the replay finds them: rows (by
 * region, and by the caller's group), the ranks that caused waiting, the
 * longest calls kept for drawing, and every call on disk (waits_internal.h). */
#include "waits_internal.h"

#include <stdlib.h>
#include <string.h>

#include "chan_index.h"
#include "grow.h"

/* Rows of (pattern, rank, region), with the waiting per cause. */
typedef struct row_acc {
    ms_chan_index rows, causes;
    ms_wx_row *v;
    size_t cap;
    uint64_t *cause_ns;
    size_t cause_cap;
} row_acc;

struct ms_wx_sums {
    ms_wx_opts o;
    size_t nranks;
    row_acc by_region, by_group;
    ms_chan_index late_ids;
    ms_wx_late *late;
    size_t late_cap;
    ms_wx_instance *marks;   /* a heap: the shortest kept first */
    size_t nmarks, marks_total;
    ms_xsort inst;           /* every call, by rank, then event */
    uint64_t *per_rank;      /* calls per input index */
    uint64_t wait_ns, pattern_ns[MS_WX_NPATTERNS], n;
};

static int inst_cmp(const void *a, const void *b)
{
    const ms_wx_instance *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->ev < y->ev ? -1 : x->ev > y->ev;
}

ms_wx_sums *ms_wx_sums_new(const ms_wx_opts *o, size_t nranks)
{
    ms_wx_sums *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->o = *o;
    s->nranks = nranks;
    ms_chan_index_init(&s->by_region.rows);
    ms_chan_index_init(&s->by_region.causes);
    ms_chan_index_init(&s->by_group.rows);
    ms_chan_index_init(&s->by_group.causes);
    ms_chan_index_init(&s->late_ids);
    ms_xsort_init(&s->inst, sizeof(ms_wx_instance), 65536, inst_cmp);
    if (!(s->per_rank = calloc(nranks ? nranks : 1, sizeof *s->per_rank))) {
        free(s);
        return NULL;
    }
    return s;
}

static void row_acc_free(row_acc *a)
{
    ms_chan_index_free(&a->rows);
    ms_chan_index_free(&a->causes);
    free(a->v);
    free(a->cause_ns);
    memset(a, 0, sizeof *a);
}

void ms_wx_sums_free(ms_wx_sums *s)
{
    if (!s)
        return;
    row_acc_free(&s->by_region);
    row_acc_free(&s->by_group);
    ms_chan_index_free(&s->late_ids);
    free(s->late);
    free(s->marks);
    ms_xsort_free(&s->inst);
    free(s->per_rank);
    free(s);
}

static int row_add(row_acc *a, const ms_wx_instance *x, uint32_t region)
{
    uint64_t ns = (uint64_t)(x->to - x->from);
    uint32_t row, cause;
    ms_chan_key rk = {.a = x->rank, .b = region, .c = x->pattern};
    if (ms_chan_index_id(&a->rows, &rk, &row) != 0 || ms_grow((void **)&a->v, &a->cap, (size_t)row + 1, sizeof *a->v))
        return -1;
    if (a->v[row].instances == 0)
        a->v[row] = (ms_wx_row){.pattern = x->pattern, .rank = x->rank, .region = region, .cause_rank = -1, .root_rank = -1};
    a->v[row].instances++;
    a->v[row].wait_ns += ns;
    ms_chan_key ck = {.a = row, .b = x->cause};
    if (ms_chan_index_id(&a->causes, &ck, &cause) != 0 ||
        ms_grow((void **)&a->cause_ns, &a->cause_cap, (size_t)cause + 1, sizeof *a->cause_ns) != 0)
        return -1;
    a->cause_ns[cause] += ns;
    return 0;
}

/* Is mark x kept before y: longer, or as long and earlier, then by rank
 * and event? The heap holds the least kept on top. */
static int mark_better(const ms_wx_instance *x, const ms_wx_instance *y)
{
    int64_t dx = x->to - x->from, dy = y->to - y->from;
    if (dx != dy)
        return dx > dy;
    if (x->from != y->from)
        return x->from < y->from;
    return inst_cmp(x, y) < 0;
}

static void mark_sift(ms_wx_instance *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && mark_better(&h[m], &h[l]))
            m = l;
        if (r < n && mark_better(&h[m], &h[r]))
            m = r;
        if (m == i)
            return;
        ms_wx_instance t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static int add_mark(ms_wx_sums *s, const ms_wx_instance *x)
{
    s->marks_total++;
    if (s->nmarks == MS_WX_MARKS) {
        if (!mark_better(x, &s->marks[0]))
            return 0;
        s->marks[0] = *x;
        mark_sift(s->marks, s->nmarks, 0);
        return 0;
    }
    if (!s->marks && !(s->marks = malloc(MS_WX_MARKS * sizeof *s->marks)))
        return -1;
    size_t i = s->nmarks++;
    s->marks[i] = *x;
    while (i > 0 && mark_better(&s->marks[(i - 1) / 2], &s->marks[i])) {
        ms_wx_instance t = s->marks[i];
        s->marks[i] = s->marks[(i - 1) / 2];
        s->marks[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
    return 0;
}

int ms_wx_sums_add(ms_wx_sums *s, size_t ri, const ms_wx_instance *x, uint32_t region)
{
    uint64_t ns = (uint64_t)(x->to - x->from);
    s->n++;
    s->per_rank[ri]++;
    s->wait_ns += ns;
    s->pattern_ns[x->pattern] += ns;
    if (row_add(&s->by_region, x, region) != 0)
        return -1;
    if (s->o.group) {
        uint32_t g = region == MS_WX_NONE ? MS_WX_NONE : region < s->o.ngroup ? s->o.group[region] : MS_WX_NONE;
        if (row_add(&s->by_group, x, g) != 0)
            return -1;
    }
    ms_chan_key lk = {.a = x->cause};
    uint32_t l;
    if (ms_chan_index_id(&s->late_ids, &lk, &l) != 0 || ms_grow((void **)&s->late, &s->late_cap, (size_t)l + 1,
                                                             sizeof *s->late) != 0)
        return -1;
    s->late[l].rank = x->cause;
    s->late[l].ns += ns;
    s->late[l].calls++;
    if (s->o.mark_rank >= 0 && x->rank <= s->o.mark_rank && add_mark(s, x) != 0)
        return -1;
    return ms_xsort_add(&s->inst, x);
}

static int row_cmp(const void *a, const void *b)
{
    const ms_wx_row *x = a, *y = b;
    if (x->wait_ns != y->wait_ns)
        return x->wait_ns > y->wait_ns ? -1 : 1;
    if (x->pattern != y->pattern)
        return x->pattern < y->pattern ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->region < y->region ? -1 : x->region > y->region;
}

/* The rows, sorted, each with its cause: the rank with the most of its
 * time (the lower on a tie). a's array moves to *out. */
static void row_done(row_acc *a, ms_wx_row **out, size_t *nout)
{
    for (size_t c = 0; c < a->causes.n; c++) {
        ms_wx_row *r = &a->v[a->causes.keys[c].a];
        int32_t rank = (int32_t)a->causes.keys[c].b;
        if (r->cause_rank < 0 || a->cause_ns[c] > r->wait_best ||
            (a->cause_ns[c] == r->wait_best && rank < r->cause_rank)) {
            r->cause_rank = rank;
            r->wait_best = a->cause_ns[c];
        }
    }
    size_t n = a->rows.n;
    if (n)
        qsort(a->v, n, sizeof *a->v, row_cmp);
    *out = a->v;
    *nout = n;
    a->v = NULL;
    a->cap = 0;
}

static int late_cmp(const void *a, const void *b)
{
    const ms_wx_late *x = a, *y = b;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int mark_time_cmp(const void *a, const void *b)
{
    const ms_wx_instance *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return inst_cmp(x, y);
}

int ms_wx_sums_done(ms_wx_sums *s, ms_waits *w)
{
    ms_wx_inst_file *f = calloc(1, sizeof *f);
    int rc = f ? 0 : -1;
    if (f) {
        f->f.fd = -1;
        f->off = calloc(s->nranks + 1, sizeof *f->off);
        rc = f->off ? 0 : -1;
    }
    if (rc == 0)
        rc = ms_xsort_finish(&s->inst);
    if (rc == 0)
        rc = ms_xsort_flatten(&s->inst);
    if (rc != 0) {
        if (f)
            free(f->off);
        free(f);
        ms_wx_sums_free(s);
        return -1;
    }
    for (size_t i = 0; i < s->nranks; i++)
        f->off[i + 1] = f->off[i] + s->per_rank[i];
    f->f = s->inst.file;
    ms_spill_file_init(&s->inst.file, sizeof(ms_wx_instance), 1);
    w->inst_file = f;
    w->ninst = (size_t)s->n;
    w->wait_ns = s->wait_ns;
    memcpy(w->pattern_ns, s->pattern_ns, sizeof w->pattern_ns);
    if (s->o.group) {
        row_done(&s->by_region, &w->site_rows, &w->nsite_rows);
        row_done(&s->by_group, &w->rows, &w->nrows);
    } else {
        row_done(&s->by_region, &w->rows, &w->nrows);
    }
    w->nlate = s->late_ids.n;
    if (w->nlate)
        qsort(s->late, w->nlate, sizeof *s->late, late_cmp);
    w->late = s->late;
    s->late = NULL;
    w->nmarks = s->nmarks;
    w->marks_total = s->marks_total;
    if (s->nmarks)
        qsort(s->marks, s->nmarks, sizeof *s->marks, mark_time_cmp);
    w->marks = s->marks;
    s->marks = NULL;
    ms_wx_sums_free(s);
    return 0;
}
