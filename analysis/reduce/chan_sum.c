/* One rank's channels summed by key: see chan_sum.h. */
#include "chan_sum.h"

#include <stdlib.h>
#include <string.h>

void ms_chan_sum_init(ms_chan_sum *s)
{
    memset(s, 0, sizeof *s);
    ms_chan_index_init(&s->index);
}

void ms_chan_sum_free(ms_chan_sum *s)
{
    free(s->v);
    ms_chan_index_free(&s->index);
    ms_chan_sum_init(s);
}

static int fits_int(int64_t v)
{
    return v >= INT32_MIN && v <= INT32_MAX;
}

int ms_chan_sum_add(ms_chan_sum *s, const ms_p2p_chan *c)
{
    if (!fits_int(c->peer) || !fits_int(c->tag))
        return -1;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        ms_p2p_chan *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    ms_chan_key key = {.a = c->comm, .b = c->dir, .c = (int32_t)c->peer, .d = (int32_t)c->tag};
    uint32_t id;
    if (ms_chan_index_id(&s->index, &key, &id) != 0)
        return -1;
    if (id < s->n) {
        s->v[id].calls += c->calls;
        s->v[id].bytes += c->bytes;
    } else {
        s->v[s->n++] = *c;
    }
    return 0;
}
