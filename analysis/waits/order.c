/* The waiting calls of every rank in time order (order.h). */
#include "order.h"

#include <stdlib.h>
#include <string.h>

typedef struct ms_wx_order_key key;

/* Does key x come before key y? */
static inline int before(int backward, const key *x, const key *y)
{
    if (x->to != y->to)
        return backward ? x->to > y->to : x->to < y->to;
    return backward ? x->i > y->i : x->i < y->i;
}

/* The key at k moved down to its place (the keys held in the heap: no
 * look into the heads). */
static void sift(ms_wx_order *o, size_t k)
{
    key *h = o->heap, t = h[k];
    size_t n = o->nheap;
    int bw = o->backward;
    for (;;) {
        size_t l = 2 * k + 1, m = l;
        if (l >= n)
            break;
        if (l + 1 < n && before(bw, &h[l + 1], &h[l]))
            m = l + 1;
        if (!before(bw, &h[m], &t))
            break;
        h[k] = h[m];
        k = m;
    }
    h[k] = t;
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
            o->heap[o->nheap++] = (key){.to = o->head[i].to, .i = i};
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
    size_t i = o->heap[0].i;
    *x = o->head[i];
    *ri = i;
    int rc = advance(o, i);
    if (rc < 0) {
        o->failed = 1;
        return -1;
    }
    if (!rc)
        o->heap[0] = o->heap[--o->nheap];
    else
        o->heap[0].to = o->head[i].to;
    if (o->nheap)
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
