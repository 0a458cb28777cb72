/* The point-to-point traffic matrix: see matrix.h. */
#include "matrix.h"

#include <stdlib.h>

static int cell_cmp(const void *a, const void *b)
{
    const ms_matrix_cell *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    return 0;
}

int ms_matrix_build(const ms_p2p_chan *chans, size_t nchans, ms_matrix_cell **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    size_t n = 0;
    for (size_t i = 0; i < nchans; i++)
        n += chans[i].dir == MS_P2P_SEND && chans[i].world_peer >= 0;
    if (n == 0)
        return 0;
    ms_matrix_cell *m = malloc(n * sizeof *m);
    if (!m)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < nchans; i++) {
        const ms_p2p_chan *c = &chans[i];
        if (c->dir == MS_P2P_SEND && c->world_peer >= 0)
            m[k++] = (ms_matrix_cell){.src = c->rank, .dst = c->world_peer, .messages = c->calls,
                                      .bytes = c->bytes};
    }
    qsort(m, n, sizeof *m, cell_cmp);
    k = 0;
    for (size_t i = 1; i < n; i++) {
        if (cell_cmp(&m[k], &m[i]) == 0) {
            m[k].messages += m[i].messages;
            m[k].bytes += m[i].bytes;
        } else {
            m[++k] = m[i];
        }
    }
    *out = m;
    *nout = k + 1;
    return 0;
}

const ms_matrix_cell *ms_matrix_find(const ms_matrix_cell *m, size_t n, int32_t src, int32_t dst)
{
    ms_matrix_cell key = {.src = src, .dst = dst};
    return bsearch(&key, m, n, sizeof key, cell_cmp);
}
