/* The waiting calls of every rank in time order (order.h). */
#include "order.h"

#include <stdlib.h>
#include <string.h>

/* Does input i come before input j? */
static int before(const ms_wx_order *o, size_t i, size_t j)
{
    int64_t a = o->head[i].to, b = o->head[j].to;
    if (a != b)
        return o->backward ? a > b : a < b;
    return o->backward ? i > j : i < j;
}

static void sift(ms_wx_order *o, size_t k)
{
    for (;;) {
        size_t l = 2 * k + 1, r = l + 1, m = k;
        if (l < o->nheap && before(o, o->heap[l], o->heap[m]))
            m = l;
        if (r < o->nheap && before(o, o->heap[r], o->heap[m]))
            m = r;
        if (m == k)
            return;
        size_t t = o->heap[k];
        o->heap[k] = o->heap[m];
        o->heap[m] = t;
        k = m;
    }
}

/* Input i's next call of the first thread into head[i]: 1, 0 when none
 * is left, -1 on a read error. */
static int advance(ms_wx_order *o, size_t i)
{
    while (o->left[i]) {
        uint64_t k = o->backward ? o->left[i] - 1 : o->r[i].n - o->left[i];
        o->left[i]--;
        const ms_wx_instance *x = ms_spill_get(&o->r[i], k);
        if (!x)
            return -1;
        if (x->thread == 0) {
            o->head[i] = *x;
            o->live[i] = 1;
            return 1;
        }
    }
    o->live[i] = 0;
    return 0;
}

int ms_wx_order_open(ms_wx_order *o, const ms_wx_inst_file *f, size_t n, int backward, size_t blk)
{
    memset(o, 0, sizeof *o);
    o->n = n;
    o->backward = backward;
    o->r = calloc(n ? n : 1, sizeof *o->r);
    o->left = calloc(n ? n : 1, sizeof *o->left);
    o->head = calloc(n ? n : 1, sizeof *o->head);
    o->heap = calloc(n ? n : 1, sizeof *o->heap);
    o->live = calloc(n ? n : 1, 1);
    if (!o->r || !o->left || !o->head || !o->heap || !o->live)
        return -1;
    for (size_t i = 0; i < n; i++) {
        ms_spill_reader_init(&o->r[i], &f->f, f->off[i], f->off[i + 1] - f->off[i], blk);
        o->left[i] = f->off[i + 1] - f->off[i];
        int rc = advance(o, i);
        if (rc < 0)
            return -1;
        if (rc)
            o->heap[o->nheap++] = i;
    }
    for (size_t k = o->nheap / 2; k-- > 0;)
        sift(o, k);
    return 0;
}

int ms_wx_order_next(ms_wx_order *o, ms_wx_instance *x, size_t *ri)
{
    if (o->failed)
        return -1;
    if (!o->nheap)
        return 0;
    size_t i = o->heap[0];
    *x = o->head[i];
    *ri = i;
    int rc = advance(o, i);
    if (rc < 0) {
        o->failed = 1;
        return -1;
    }
    if (!rc)
        o->heap[0] = o->heap[--o->nheap];
    sift(o, 0);
    return 1;
}

void ms_wx_order_close(ms_wx_order *o)
{
    for (size_t i = 0; o->r && i < o->n; i++)
        ms_spill_reader_free(&o->r[i]);
    free(o->r);
    free(o->left);
    free(o->head);
    free(o->heap);
    free(o->live);
    memset(o, 0, sizeof *o);
}
