/*
 * Where a rank's first thread spent a stretch of time, by place (the root
 * causes and the what-if: root_causes.c, what_if.c). A place is a stretch
 * outside MPI between two MPI calls (named by the calls' regions), a user
 * region (innermost), or an MPI call's region; the waiting inside MPI
 * calls is kept apart, per waiting call (a point-to-point call's from its
 * waiting to its end: the late message coming in goes with the waiting).
 */
#ifndef MPISCOPE_PROFILE_H
#define MPISCOPE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "lanes.h"

/* A place: enum ms_wx_cause_kind, and regions as ms_wx_cause has them. */
typedef struct ms_wx_place {
    uint32_t a, b;
    uint8_t kind;
    uint8_t pad[3];
} ms_wx_place;

typedef struct ms_wx_place_ns {
    ms_wx_place p;
    uint64_t ns;              /* the time at the place (an MPI call's waiting
                                 included when the profile keeps waits) */
    uint64_t wait_ns;         /* of ns, waiting */
} ms_wx_place_ns;

/* A waiting call of the stretch: its event, its call's region, and its
 * waiting inside it. */
typedef struct ms_wx_wait_ns {
    uint32_t ev;
    uint32_t region;
    uint64_t ns;
} ms_wx_wait_ns;

/* Time by place (a hash: as many entries as places, not calls), and the
 * waiting calls (when asked for). */
typedef struct ms_wx_profile {
    ms_wx_place_ns *v;        /* open addressing; kind 0xff: empty */
    size_t cap, n;
    uint32_t *used;           /* the slots taken, n of them (to clear) */
    ms_wx_wait_ns *waits;
    size_t nwaits, waits_cap;
    uint64_t out_ns;          /* outside MPI (compute and user regions) */
    uint64_t mpi_ns;          /* in MPI calls, not waiting */
    uint64_t wait_ns;         /* waiting in MPI calls */
    int keep_waits;
} ms_wx_profile;

/* keep_waits: the waiting calls listed, and an MPI call's waiting counted
 * in its place's time (else only in wait_ns). */
void ms_wx_profile_init(ms_wx_profile *p, int keep_waits);
void ms_wx_profile_clear(ms_wx_profile *p);
void ms_wx_profile_free(ms_wx_profile *p);
/* The time at place x; 0 when none. */
uint64_t ms_wx_profile_get(const ms_wx_profile *p, const ms_wx_place *x);
/* Place x's entry; NULL when none. */
const ms_wx_place_ns *ms_wx_profile_find(const ms_wx_profile *p, const ms_wx_place *x);

/* Called for each piece of a stretch, walked backward (latest first):
 * [lo, hi) at place x; waiting (is_wait) inside the call of event ev. 0 to
 * go on, -1 to stop with an error. */
typedef int (*ms_wx_piece_fn)(void *ctx, const ms_wx_place *x, int is_wait, uint32_t ev, int64_t lo, int64_t hi);

/* Lane l's first thread over [a, b), backward, piece by piece, to fn.
 * *hint: for the lane's waiting-call lookups (start at l->inst.n). 0, or
 * -1 (fn's error, a read error). */
int ms_wx_walk_stretch(ms_wx_lane *l, size_t *hint, int64_t a, int64_t b, ms_wx_piece_fn fn, void *ctx);

/* The piece function that sums into profile ctx (ms_wx_profile *): for
 * walks that do more than profile. */
int ms_wx_profile_piece(void *ctx, const ms_wx_place *x, int is_wait, uint32_t ev, int64_t lo, int64_t hi);

/* Lane l over [a, b) into p (cleared first). 0, or -1. */
int ms_wx_profile_stretch(ms_wx_lane *l, size_t *hint, int64_t a, int64_t b, ms_wx_profile *p);

#endif
