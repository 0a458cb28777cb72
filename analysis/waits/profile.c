/* Where a rank's first thread spent a stretch of time (profile.h). */
#include "profile.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"

#define EMPTY_KIND 0xffu

void ms_wx_profile_init(ms_wx_profile *p, int keep_waits)
{
    memset(p, 0, sizeof *p);
    p->keep_waits = keep_waits;
}

void ms_wx_profile_clear(ms_wx_profile *p)
{
    for (size_t i = 0; i < p->n; i++)
        p->v[p->used[i]].p.kind = EMPTY_KIND;
    p->n = 0;
    p->nwaits = 0;
    p->out_ns = p->mpi_ns = p->wait_ns = 0;
}

void ms_wx_profile_free(ms_wx_profile *p)
{
    free(p->v);
    free(p->used);
    free(p->waits);
    memset(p, 0, sizeof *p);
}

static size_t place_hash(const ms_wx_place *x, size_t mask)
{
    uint64_t h = ((uint64_t)x->a << 32 | x->b) * 0x9e3779b97f4a7c15ull ^ (uint64_t)x->kind * 0xc2b2ae3d27d4eb4full;
    return (size_t)(h >> 29) & mask;
}

static int same(const ms_wx_place *x, const ms_wx_place *y)
{
    return x->a == y->a && x->b == y->b && x->kind == y->kind;
}

static ms_wx_place_ns *slot(const ms_wx_profile *p, const ms_wx_place *x)
{
    size_t mask = p->cap - 1;
    for (size_t i = place_hash(x, mask);; i = (i + 1) & mask)
        if (p->v[i].p.kind == EMPTY_KIND || same(&p->v[i].p, x))
            return &p->v[i];
}

const ms_wx_place_ns *ms_wx_profile_find(const ms_wx_profile *p, const ms_wx_place *x)
{
    if (!p->cap)
        return NULL;
    const ms_wx_place_ns *s = slot(p, x);
    return s->p.kind == EMPTY_KIND ? NULL : s;
}

uint64_t ms_wx_profile_get(const ms_wx_profile *p, const ms_wx_place *x)
{
    const ms_wx_place_ns *s = ms_wx_profile_find(p, x);
    return s ? s->ns : 0;
}

static int profile_add(ms_wx_profile *p, const ms_wx_place *x, uint64_t ns, uint64_t wait)
{
    if ((p->n + 1) * 2 > p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        ms_wx_place_ns *old = p->v;
        uint32_t *used = realloc(p->used, cap / 2 * sizeof *used);
        if (used)
            p->used = used;
        if (!used || !(p->v = malloc(cap * sizeof *p->v))) {
            p->v = old;
            return -1;
        }
        p->cap = cap;
        for (size_t i = 0; i < cap; i++)
            p->v[i].p.kind = EMPTY_KIND;
        for (size_t i = 0; i < p->n; i++) {
            ms_wx_place_ns *t = slot(p, &old[p->used[i]].p);
            *t = old[p->used[i]];
            p->used[i] = (uint32_t)(t - p->v);
        }
        free(old);
    }
    ms_wx_place_ns *s = slot(p, x);
    if (s->p.kind == EMPTY_KIND) {
        s->p = *x;
        s->ns = s->wait_ns = 0;
        p->used[p->n++] = (uint32_t)(s - p->v);
    }
    s->ns += ns;
    s->wait_ns += wait;
    return 0;
}

int ms_wx_profile_piece(void *ctx, const ms_wx_place *x, int is_wait, uint32_t ev, int64_t lo, int64_t hi)
{
    ms_wx_profile *p = ctx;
    uint64_t ns = (uint64_t)(hi - lo);
    if (is_wait) {
        p->wait_ns += ns;
        if (!p->keep_waits)
            return 0;
        if (p->nwaits && p->waits[p->nwaits - 1].ev == ev) {
            p->waits[p->nwaits - 1].ns += ns;
        } else {
            if (ms_grow((void **)&p->waits, &p->waits_cap, p->nwaits + 1, sizeof *p->waits) != 0)
                return -1;
            p->waits[p->nwaits++] = (ms_wx_wait_ns){.ev = ev, .region = x->a, .ns = ns};
        }
        return profile_add(p, x, ns, ns);
    }
    if (x->kind == MS_WX_CAUSE_MPI)
        p->mpi_ns += ns;
    else
        p->out_ns += ns;
    return profile_add(p, x, ns, 0);
}

int ms_wx_profile_stretch(ms_wx_lane *l, size_t *hint, int64_t a, int64_t b, ms_wx_profile *p)
{
    ms_wx_profile_clear(p);
    return ms_wx_walk_stretch(l, hint, a, b, ms_wx_profile_piece, p);
}

/* [lo, hi) outside MPI between the calls of regions before and after:
 * the user regions' pieces in it to theirs, the rest to the stretch. */
static int outside(ms_wx_lane *l, uint32_t before, uint32_t after, int64_t lo, int64_t hi, ms_wx_piece_fn fn,
                   void *ctx)
{
    if (hi <= lo)
        return 0;
    ms_wx_place comp = {.a = before, .b = after, .kind = MS_WX_CAUSE_COMPUTE};
    if (l->npieces == 0)
        return fn(ctx, &comp, 0, MS_WX_NONE, lo, hi);
    /* The pieces in [lo, hi): from the first that ends after lo. */
    size_t first = ms_wx_piece_find(l, &l->piece_find_hint, lo), s = first;
    while (s < l->npieces && ms_wx_piece_at(l, s).lo < hi)
        s++;
    if (l->failed)
        return -1;
    int64_t cur = hi;
    for (size_t i = s; i-- > first;) {
        ms_wx_piece pc = ms_wx_piece_at(l, i);
        if (l->failed)
            return -1;
        if (pc.hi <= lo)
            break;
        int64_t x = pc.lo > lo ? pc.lo : lo, y = pc.hi < cur ? pc.hi : cur;
        if (y < cur && fn(ctx, &comp, 0, MS_WX_NONE, y, cur) != 0)
            return -1;
        ms_wx_place user = {.a = pc.region, .b = MS_WX_NONE, .kind = MS_WX_CAUSE_USER};
        if (y > x && fn(ctx, &user, 0, MS_WX_NONE, x, y) != 0)
            return -1;
        if (x < cur)
            cur = x;
    }
    return cur > lo ? fn(ctx, &comp, 0, MS_WX_NONE, lo, cur) : 0;
}

/* Call s clipped to [lo, hi): its waiting apart from the rest. */
static int in_call(ms_wx_lane *l, size_t *hint, const ms_wx_span *s, int64_t lo, int64_t hi, ms_wx_piece_fn fn,
                   void *ctx)
{
    ms_wx_place mpi = {.a = s->region, .b = MS_WX_NONE, .kind = MS_WX_CAUSE_MPI};
    ms_wx_instance x;
    int64_t wlo = hi, whi = hi;
    if (ms_wx_lane_instance(l, s->ev, hint, &x)) {
        /* What a point-to-point call spends after its waiting (the late
         * partner's message coming in) goes with the waiting; a
         * collective's time after the last rank came is its own, alike
         * on every rank. */
        int p2p = x.pattern == MS_WX_LATE_SENDER || x.pattern == MS_WX_LATE_RECEIVER;
        wlo = x.from > lo ? x.from : lo;
        whi = p2p || x.to > hi ? hi : x.to;
        if (whi <= wlo)
            wlo = whi = hi;
    }
    if (hi > whi && fn(ctx, &mpi, 0, s->ev, whi, hi) != 0)
        return -1;
    if (whi > wlo && fn(ctx, &mpi, 1, s->ev, wlo, whi) != 0)
        return -1;
    if (wlo > lo && fn(ctx, &mpi, 0, s->ev, lo, wlo) != 0)
        return -1;
    return 0;
}

int ms_wx_walk_stretch(ms_wx_lane *l, size_t *hint, int64_t a, int64_t b, ms_wx_piece_fn fn, void *ctx)
{
    if (b <= a)
        return 0;
    size_t j = ms_wx_lane_find(l, &l->find_hint, b);
    if (l->failed)
        return -1;
    size_t upto = j == SIZE_MAX ? 0 : j + 1;
    uint32_t next = upto < l->nmpi ? ms_wx_lane_at(l, upto).region : MS_WX_NONE;
    int64_t cur = b;
    for (size_t i = upto; i-- > 0;) {
        ms_wx_span s = ms_wx_lane_at(l, i);
        if (l->failed)
            return -1;
        int64_t glo = s.end > a ? s.end : a;
        if (cur > glo && outside(l, s.region, next, glo, cur, fn, ctx) != 0)
            return -1;
        if (s.end <= a)
            return 0;
        int64_t lo = s.start > a ? s.start : a, hi = s.end < cur ? s.end : cur;
        if (hi > lo && in_call(l, hint, &s, lo, hi, fn, ctx) != 0)
            return -1;
        if (lo < cur)
            cur = lo;
        next = s.region;
        if (s.start <= a)
            return 0;
    }
    return outside(l, MS_WX_NONE, next, a, cur, fn, ctx);
}
