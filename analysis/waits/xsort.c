/* External sorting of fixed-size records: see xsort.h. */
#include "xsort.h"

#include <stdlib.h>
#include <string.h>

struct xs_run {
    ms_spill_reader rd;
    uint64_t at;           /* next record of the run */
};

void ms_xsort_init(ms_xsort *s, size_t rec, size_t cap, ms_xsort_cmp cmp)
{
    memset(s, 0, sizeof *s);
    ms_spill_file_init(&s->file, rec, 4096);
    s->cmp = cmp;
    s->cap = cap ? cap : 1;
}

void ms_xsort_free(ms_xsort *s)
{
    ms_spill_file_free(&s->file);
    free(s->buf);
    free(s->last);
    free(s->run_lo);
    memset(s, 0, sizeof *s);
    s->file.fd = -1;
}

/* Sort v (n records of rec bytes, at most 64) by insertion while that
 * moves records by at most 8 places each on average (streams nearly in
 * order: a user region written at its end, after the regions it
 * encloses); past that, qsort finishes. */
static void sort_buf(unsigned char *v, size_t n, size_t rec, ms_xsort_cmp cmp)
{
    unsigned char tmp[64];
    size_t i = 1, moves = 0, budget = 8 * n;
    if (rec > sizeof tmp)
        i = n;
    for (; i < n; i++) {
        if (cmp(v + (i - 1) * rec, v + i * rec) < 0)
            continue;
        size_t j = i - 1;
        while (j > 0 && cmp(v + (j - 1) * rec, v + i * rec) > 0)
            j--;
        moves += i - j;
        if (moves > budget)
            break;
        memcpy(tmp, v + i * rec, rec);
        memmove(v + (j + 1) * rec, v + j * rec, (i - j) * rec);
        memcpy(v + j * rec, tmp, rec);
    }
    if (i < n)
        qsort(v, n, rec, cmp);
}

/* The buffer sorted, as a run of its own or the continuation of the last. */
static int write_run(ms_xsort *s)
{
    size_t rec = s->file.rec;
    if (!s->n)
        return 0;
    sort_buf(s->buf, s->n, rec, s->cmp);
    if (!s->last && !(s->last = malloc(rec)))
        return -1;
    if (s->nruns == 0 || s->cmp(s->last, s->buf) > 0) {
        if (s->nruns == s->runs_cap) {
            size_t c = s->runs_cap ? s->runs_cap * 2 : 8;
            uint64_t *v = realloc(s->run_lo, c * sizeof *v);
            if (!v)
                return -1;
            s->run_lo = v;
            s->runs_cap = c;
        }
        s->run_lo[s->nruns++] = s->file.n;
    }
    memcpy(s->last, s->buf + (s->n - 1) * rec, rec);
    int rc = ms_spill_file_put_n(&s->file, s->buf, s->n);
    s->n = 0;
    return rc;
}

int ms_xsort_add(ms_xsort *s, const void *r)
{
    size_t rec = s->file.rec;
    if (!s->buf && !(s->buf = malloc(s->cap * rec)))
        return -1;
    memcpy(s->buf + s->n * rec, r, rec);
    if (++s->n == s->cap)
        return write_run(s);
    return 0;
}

int ms_xsort_finish(ms_xsort *s)
{
    int rc = write_run(s);
    free(s->buf);
    s->buf = NULL;
    s->cap = s->cap ? s->cap : 1;
    if (ms_spill_file_flush(&s->file) != 0)
        rc = -1;
    s->flat = s->nruns <= 1;
    return rc;
}

static inline const void *head(ms_xsort_iter *it, size_t r)
{
    return ms_spill_get(&it->runs[r].rd, it->runs[r].at);
}

static int run_less(ms_xsort_iter *it, size_t a, size_t b)
{
    const void *x = head(it, a), *y;
    if (!x)
        return 0;
    /* head(a) may be evicted by head(b) only in another reader: each run
     * has its own. */
    y = head(it, b);
    return y && it->cmp(x, y) < 0;
}

static void sift(ms_xsort_iter *it, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < it->nheap && run_less(it, it->heap[l], it->heap[m]))
            m = l;
        if (r < it->nheap && run_less(it, it->heap[r], it->heap[m]))
            m = r;
        if (m == i)
            return;
        size_t t = it->heap[i];
        it->heap[i] = it->heap[m];
        it->heap[m] = t;
        i = m;
    }
}

int ms_xsort_iter_init(ms_xsort_iter *it, const ms_xsort *s, size_t buf_recs)
{
    memset(it, 0, sizeof *it);
    it->rec = s->file.rec;
    it->cmp = s->cmp;
    size_t n = s->nruns;
    it->runs = calloc(n ? n : 1, sizeof *it->runs);
    it->heap = malloc((n ? n : 1) * sizeof *it->heap);
    it->cur = malloc(it->rec);
    it->nruns = it->runs ? n : 0;
    if (!it->runs || !it->heap || !it->cur) {
        ms_xsort_iter_free(it);
        return -1;
    }
    for (size_t r = 0; r < n; r++) {
        uint64_t lo = s->run_lo[r], hi = r + 1 < n ? s->run_lo[r + 1] : s->file.n;
        ms_spill_reader_init(&it->runs[r].rd, &s->file, lo, hi - lo, buf_recs);
        it->heap[it->nheap++] = r;
    }
    for (size_t i = it->nheap / 2; i-- > 0;)
        sift(it, i);
    return 0;
}

const void *ms_xsort_next(ms_xsort_iter *it)
{
    if (!it->nheap || it->failed)
        return NULL;
    size_t r = it->heap[0];
    struct xs_run *x = &it->runs[r];
    const void *p = ms_spill_get(&x->rd, x->at);
    if (!p) {
        it->failed = 1;
        return NULL;
    }
    /* Sifting may load the run's next block over p: the caller gets a copy. */
    memcpy(it->cur, p, it->rec);
    x->at++;
    if (x->at >= x->rd.n)
        it->heap[0] = it->heap[--it->nheap];
    if (x->rd.failed)
        it->failed = 1;
    sift(it, 0);
    return it->cur;
}

void ms_xsort_iter_free(ms_xsort_iter *it)
{
    for (size_t r = 0; it->runs && r < it->nruns; r++)
        ms_spill_reader_free(&it->runs[r].rd);
    free(it->cur);
    free(it->runs);
    free(it->heap);
    memset(it, 0, sizeof *it);
}

int ms_xsort_flatten(ms_xsort *s)
{
    if (s->flat)
        return 0;
    ms_xsort_iter it;
    if (ms_xsort_iter_init(&it, s, 1024) != 0)
        return -1;
    ms_spill_file out;
    ms_spill_file_init(&out, s->file.rec, 4096);
    int rc = 0;
    for (const void *p; rc == 0 && (p = ms_xsort_next(&it));)
        rc = ms_spill_file_put(&out, p);
    if (it.failed || out.n != s->file.n)
        rc = -1;
    ms_xsort_iter_free(&it);
    if (ms_spill_file_flush(&out) != 0)
        rc = -1;
    if (rc != 0) {
        ms_spill_file_free(&out);
        return -1;
    }
    ms_spill_file_free(&s->file);
    s->file = out;
    s->nruns = s->file.n ? 1 : 0;
    if (s->nruns)
        s->run_lo[0] = 0;
    s->flat = 1;
    return 0;
}
