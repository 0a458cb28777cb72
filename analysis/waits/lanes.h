/*
 * A thread of a rank as the backward analyses read it (the critical path
 * reads every thread's; root causes and the what-if the first thread's):
 * its MPI calls by start, the pieces where one of its user regions is
 * innermost, and the rank's waiting calls by event, each from disk a
 * block at a time. Shared by the files of analysis/waits/.
 */
#ifndef MPISCOPE_LANES_H
#define MPISCOPE_LANES_H

#include <stddef.h>
#include <stdint.h>

#include "waits_internal.h"

/* A piece of a thread where one user region is innermost. */
typedef struct ms_wx_piece {
    int64_t lo, hi;
    uint32_t region;
    uint32_t pad;
} ms_wx_piece;

/* What an analysis needs of one thread of a rank. */
typedef struct ms_wx_lane {
    const ms_wx_input *in;
    uint16_t thread;
    ms_spill_reader mpi;     /* the thread's MPI calls (ms_wx_span), by start */
    size_t nmpi;
    ms_spill_file pieces_file;
    ms_spill_reader pieces;  /* innermost user regions (ms_wx_piece), disjoint, by start */
    size_t npieces;
    ms_spill_reader inst;    /* its waiting calls, by event */
    size_t piece_hint;       /* where the last lookup of a piece ended */
    size_t find_hint;        /* ms_wx_lane_find's, for the analyses' stretches */
    size_t piece_find_hint;  /* ms_wx_piece_find's */
    int failed;
} ms_wx_lane;

/* The first index i in [0, n) where below(i) is false (n when none),
 * below being true then false over the range, searched outward from *hint
 * by doubling steps, then bisected. */
#define MS_WX_GALLOP(n, hint, below)                                                                                     \
    do {                                                                                                           \
        size_t lo_, hi_, h_ = *(hint) < (n) ? *(hint) : (n);                                                       \
        if (h_ < (n) && below(h_)) {                                                                               \
            size_t step_ = 1;                                                                                      \
            lo_ = h_ + 1;                                                                                          \
            hi_ = (n);                                                                                             \
            while (lo_ + step_ < (n) && below(lo_ + step_ - 1)) {                                                  \
                lo_ += step_;                                                                                      \
                step_ *= 2;                                                                                        \
            }                                                                                                      \
            if (lo_ + step_ < (n))                                                                                 \
                hi_ = lo_ + step_;                                                                                 \
        } else {                                                                                                   \
            size_t step_ = 1;                                                                                      \
            hi_ = h_;                                                                                              \
            lo_ = 0;                                                                                               \
            while (hi_ > step_ && !below(hi_ - step_)) {                                                           \
                hi_ -= step_;                                                                                      \
                step_ *= 2;                                                                                        \
            }                                                                                                      \
            if (hi_ > step_)                                                                                       \
                lo_ = hi_ - step_ + 1;                                                                             \
        }                                                                                                          \
        while (lo_ < hi_) {                                                                                        \
            size_t m_ = lo_ + (hi_ - lo_) / 2;                                                                     \
            if (below(m_))                                                                                         \
                lo_ = m_ + 1;                                                                                      \
            else                                                                                                   \
                hi_ = m_;                                                                                          \
        }                                                                                                          \
        *(hint) = lo_;                                                                                             \
    } while (0)

/* Steps a hinted search takes from its hint before it bisects. */
#define MS_WX_HINT_STEPS 8

/* Lane l's MPI call j, on the common clock. */
static inline ms_wx_span ms_wx_lane_at(ms_wx_lane *l, size_t j)
{
    const ms_wx_span *x = ms_spill_get(&l->mpi, j);
    if (!x) {
        l->failed = 1;
        return (ms_wx_span){.region = MS_WX_NONE, .ev = MS_WX_NONE};
    }
    return ms_wx_span_moved(l->in, x);
}

static inline ms_wx_piece ms_wx_piece_at(ms_wx_lane *l, size_t i)
{
    const ms_wx_piece *p = ms_spill_get(&l->pieces, i);
    if (!p) {
        l->failed = 1;
        return (ms_wx_piece){0, 0, MS_WX_NONE, 0};
    }
    return *p;
}

/* Records each block of a reader holds when nranks lanes are open at once
 * (16 MiB for all of them together, two blocks a reader, 64 to 1,024
 * records a block). */
size_t ms_wx_lane_block(size_t nranks);

/* Open the lane of the first thread of input in (index ri of f's waiting
 * calls), readers of blk records. 0, or -1. ms_wx_lane_close in either
 * case. */
int ms_wx_lane_open(const ms_wx_input *in, ms_wx_lane *l, const ms_wx_inst_file *f, size_t ri, size_t blk);
/* The same for its thread `thread` (no calls when it made none). */
int ms_wx_lane_open_thread(const ms_wx_input *in, ms_wx_lane *l, const ms_wx_inst_file *f, size_t ri,
                           uint16_t thread, size_t blk);
void ms_wx_lane_close(ms_wx_lane *l);

/* The waiting call on event ev of lane l into *out; 0 when none. *hint:
 * where the previous lookup on the lane ended (searches near it first). */
int ms_wx_lane_instance(ms_wx_lane *l, uint32_t ev, size_t *hint, ms_wx_instance *out);

/* The last of lane l's MPI calls that starts before t, among the first
 * `limit`; SIZE_MAX when none. Searches just below limit first. */
size_t ms_wx_lane_last_before(ms_wx_lane *l, size_t limit, int64_t t);

/* The same over all of lane l's calls, searched outward from *hint (where
 * the last search on this hint ended: galloping, so that searches near
 * each other cost a few reads); *hint is updated. */
size_t ms_wx_lane_find(ms_wx_lane *l, size_t *hint, int64_t t);

/* The first of lane l's user-region pieces that ends after t (npieces
 * when none), searched outward from *hint likewise. */
size_t ms_wx_piece_find(ms_wx_lane *l, size_t *hint, int64_t t);

/* The index of rank among in[0..n) (ascending ranks); SIZE_MAX if none. */
size_t ms_wx_index_of_rank(const ms_wx_input *in, size_t n, int32_t rank);

#endif
