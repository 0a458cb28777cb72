/* A thread of a rank read from disk for the backward analyses
 * (lanes.h). */
#include "lanes.h"

#include <stdlib.h>

/* Pieces are written as they are made; the last one waits, since the next
 * may continue it. */
typedef struct piece_out {
    ms_spill_file *f;
    ms_wx_piece last;
    int has;
} piece_out;

static int add_piece(piece_out *o, int64_t lo, int64_t hi, uint32_t region)
{
    if (hi <= lo)
        return 0;
    if (o->has && o->last.hi == lo && o->last.region == region) {
        o->last.hi = hi;
        return 0;
    }
    if (o->has && ms_spill_file_put(o->f, &o->last) != 0)
        return -1;
    o->last = (ms_wx_piece){lo, hi, region, 0};
    o->has = 1;
    return 0;
}

/* The lane's thread's user regions (properly nested), by start,
 * flattened into the pieces where each is innermost: only the regions
 * open at once are held. */
static int flatten(ms_wx_lane *l)
{
    const ms_wx_spill *sp = l->in->spill;
    uint64_t off, n, i = 0;
    ms_wx_thread_range(&sp->user_n, l->thread, &off, &n);
    ms_spill_reader it;
    ms_spill_reader_init(&it, &sp->user.file, off, n, 256);
    piece_out o = {.f = &l->pieces_file};
    ms_wx_span *stack = NULL;
    size_t depth = 0, cap = 0;
    int64_t at = INT64_MIN;
    int rc = 0;
    for (;;) {
        const ms_wx_span *raw = i < n ? ms_spill_get(&it, i++) : NULL;
        if (!raw && it.failed) {
            rc = -1;
            break;
        }
        ms_wx_span e = raw ? ms_wx_span_moved(l->in, raw) : (ms_wx_span){0};
        int64_t next = raw ? e.start : INT64_MAX;
        /* Close what ends before the next one starts. */
        while (rc == 0 && depth) {
            const ms_wx_span *top = &stack[depth - 1];
            if (top->end > next)
                break;
            rc = add_piece(&o, at > top->start ? at : top->start, top->end, top->region);
            at = top->end;
            depth--;
        }
        if (rc != 0 || !raw)
            break;
        if (depth) {
            const ms_wx_span *top = &stack[depth - 1];
            /* The same region over the same time as the one on top (a log
             * that repeats its events) adds nothing. */
            if (top->start == e.start && top->end == e.end && top->region == e.region)
                continue;
            if ((rc = add_piece(&o, at > top->start ? at : top->start, e.start, top->region)) != 0)
                break;
        }
        at = e.start;
        if (depth == cap) {
            size_t c = cap ? cap * 2 : 16;
            ms_wx_span *v = realloc(stack, c * sizeof *v);
            if (!v) {
                rc = -1;
                break;
            }
            stack = v;
            cap = c;
        }
        stack[depth++] = e;
    }
    if (rc == 0 && o.has)
        rc = ms_spill_file_put(o.f, &o.last);
    if (rc == 0)
        rc = ms_spill_file_flush(o.f);
    free(stack);
    ms_spill_reader_free(&it);
    return rc;
}

/* Records each block of the walk's readers holds: 16 MiB for the two
 * blocks of the three readers of every rank together, 64 to 1,024 each. */
size_t ms_wx_lane_block(size_t nranks)
{
    size_t per = (8u << 20) / (sizeof(ms_wx_span) + sizeof(ms_wx_piece) + sizeof(ms_wx_instance)) / (nranks ? nranks : 1);
    return per < 64 ? 64 : per > 1024 ? 1024 : per;
}

int ms_wx_lane_open_thread(const ms_wx_input *in, ms_wx_lane *l, const ms_wx_inst_file *f, size_t ri,
                           uint16_t thread, size_t blk)
{
    l->in = in;
    l->thread = thread;
    ms_spill_file_init(&l->pieces_file, sizeof(ms_wx_piece), 4096);
    if (ms_xsort_flatten(&in->spill->lane) != 0 || ms_xsort_flatten(&in->spill->user) != 0 || flatten(l) != 0)
        return -1;
    uint64_t off, n;
    ms_wx_thread_range(&in->spill->lane_n, thread, &off, &n);
    l->nmpi = (size_t)n;
    ms_spill_reader_init(&l->mpi, &in->spill->lane.file, off, n, blk);
    l->npieces = (size_t)l->pieces_file.n;
    ms_spill_reader_init(&l->pieces, &l->pieces_file, 0, l->npieces, blk);
    ms_spill_reader_init(&l->inst, &f->f, f->off[ri], f->off[ri + 1] - f->off[ri], blk);
    /* The walks go back and forth over the edges of blocks. */
    ms_spill_reader_keep_two(&l->mpi);
    ms_spill_reader_keep_two(&l->pieces);
    ms_spill_reader_keep_two(&l->inst);
    l->piece_hint = l->npieces;
    return 0;
}

int ms_wx_lane_open(const ms_wx_input *in, ms_wx_lane *l, const ms_wx_inst_file *f, size_t ri, size_t blk)
{
    return ms_wx_lane_open_thread(in, l, f, ri, 0, blk);
}

void ms_wx_lane_close(ms_wx_lane *l)
{
    ms_spill_reader_free(&l->mpi);
    ms_spill_reader_free(&l->pieces);
    ms_spill_reader_free(&l->inst);
    ms_spill_file_free(&l->pieces_file);
}

static inline uint32_t inst_ev(ms_wx_lane *l, size_t i)
{
    const ms_wx_instance *x = ms_spill_get(&l->inst, i);
    if (!x) {
        l->failed = 1;
        return UINT32_MAX;
    }
    return x->ev;
}

/* The waiting call on event ev of lane l into *out; 0 when none. *hint:
 * where the previous lookup on the lane ended; the walk goes backward,
 * so the answer is most often at or just below it (else a bisection
 * finds it). */
int ms_wx_lane_instance(ms_wx_lane *l, uint32_t ev, size_t *hint, ms_wx_instance *out)
{
    size_t n = (size_t)l->inst.n;
#define EV_BELOW(i) (inst_ev(l, (i)) < ev)
    MS_WX_GALLOP(n, hint, EV_BELOW);
#undef EV_BELOW
    size_t lo = *hint;
    if (lo >= n || inst_ev(l, lo) != ev)
        return 0;
    const ms_wx_instance *x = ms_spill_get(&l->inst, lo);
    if (!x)
        return 0;
    *out = *x;
    return 1;
}

/* The last of lane l's MPI calls that starts before t, among the first
 * `limit`; SIZE_MAX when none. */
size_t ms_wx_lane_last_before(ms_wx_lane *l, size_t limit, int64_t t)
{
    /* Most often the walk left this lane at t: the answer is just below
     * the limit. */
    for (size_t i = limit, step = 0; i > 0 && step < MS_WX_HINT_STEPS; i--, step++)
        if (ms_wx_lane_at(l, i - 1).start < t)
            return i - 1;
    size_t lo = 0, hi = limit > MS_WX_HINT_STEPS ? limit - MS_WX_HINT_STEPS : 0;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (ms_wx_lane_at(l, m).start < t)
            lo = m + 1;
        else
            hi = m;
    }
    return lo ? lo - 1 : SIZE_MAX;
}


size_t ms_wx_lane_find(ms_wx_lane *l, size_t *hint, int64_t t)
{
#define STARTS_BEFORE(i) (ms_wx_lane_at(l, (i)).start < t)
    MS_WX_GALLOP(l->nmpi, hint, STARTS_BEFORE);
#undef STARTS_BEFORE
    return *hint ? *hint - 1 : SIZE_MAX;
}

size_t ms_wx_piece_find(ms_wx_lane *l, size_t *hint, int64_t t)
{
#define ENDS_BY(i) (ms_wx_piece_at(l, (i)).hi <= t)
    MS_WX_GALLOP(l->npieces, hint, ENDS_BY);
#undef ENDS_BY
    return *hint;
}

size_t ms_wx_index_of_rank(const ms_wx_input *in, size_t n, int32_t rank)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (in[m].rank < rank)
            lo = m + 1;
        else
            hi = m;
    }
    return lo < n && in[lo].rank == rank ? lo : SIZE_MAX;
}
