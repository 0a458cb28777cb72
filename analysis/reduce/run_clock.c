/* A run's ranks on the common clock: see run_clock.h. */
#include "run_clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int64_t ms_rank_time(const ms_rank_info *in, uint64_t tool_ns)
{
    /* The reader keeps tool times within int64. */
    return ms_clock_apply(&in->align, ms_sat_add_i64((int64_t)tool_ns, in->clock_offset_ns));
}

void ms_clock_align_stats(const ms_rank_info *in, ms_stats *s)
{
    if (s->calls == 0 || in->align.model == MS_ALIGN_NONE)
        return;
    /* The model's slope is positive: the earliest stays the earliest. */
    s->first_start = ms_clock_apply(&in->align, s->first_start);
    s->last_end = ms_clock_apply(&in->align, s->last_end);
}

/* Resolution states of a rank's mapping. */
enum { CLK_TODO = 0, CLK_BUSY, CLK_ANCHORED, CLK_LOOSE };

/* The rank's mapping to the common clock, its peer's being settled: fit
 * against the peer and compose with the peer's mapping (or share the
 * leader's when it reads the same clock). Returns whether the rank is
 * anchored to rank 0. */
static int settle(ms_rank_info *in, const ms_rank_info *peer, int peer_state)
{
    if (!peer || peer_state != CLK_ANCHORED) {
        in->align.model = MS_ALIGN_NONE;
        in->align.same_clock = 0;
        return 0;
    }
    if (in->align.same_clock) {
        ms_clock_share(&in->align, &peer->align, ms_sat_add_i64(peer->clock_offset_ns, -in->clock_offset_ns));
        return 1;
    }
    ms_clock_fit(&in->align, peer->clock_offset_ns);
    if (in->align.model == MS_ALIGN_NONE)
        return 0;
    ms_clock_compose(&in->align, &peer->align);
    return 1;
}

/* Which ranks are related to a peer: those with a measurement or the same
 * clock as their host leader. */
static int related(const ms_rank_info *in)
{
    return in->align.same_clock || in->align.obs[MS_SYNC_INIT].has || in->align.obs[MS_SYNC_FINALIZE].has;
}

void ms_clock_align_run(ms_run *run)
{
    const ms_rank_info *r0 = ms_run_rank(run, 0);
    unsigned char *state = calloc(run->nranks ? run->nranks : 1, 1);
    size_t *chain = malloc((run->nranks ? run->nranks : 1) * sizeof *chain);
    if (!state || !chain) {
        /* Out of memory: every rank keeps its header clock. */
        for (size_t k = 0; k < run->nranks; k++)
            run->ranks[k].align.model = MS_ALIGN_NONE;
        free(state);
        free(chain);
        return;
    }
    for (size_t k = 0; k < run->nranks; k++) {
        /* Walk up to a settled rank (or rank 0, a missing peer, a loop),
         * then settle the chain from the top. The peers form a tree of
         * depth log2(hosts) in logs the library writes. */
        size_t n = 0, at = k;
        int top = CLK_LOOSE;
        const ms_rank_info *top_peer = NULL;
        for (;;) {
            ms_rank_info *in = &run->ranks[at];
            if (state[at] == CLK_ANCHORED || state[at] == CLK_LOOSE) {
                top = state[at];
                break;
            }
            if (state[at] == CLK_BUSY) {
                top = CLK_LOOSE;   /* a loop: corrupt logs */
                break;
            }
            if (!r0 || in->rank == 0) {
                in->align.model = MS_ALIGN_NONE;
                in->align.same_clock = 0;
                state[at] = r0 && in->rank == 0 ? CLK_ANCHORED : CLK_LOOSE;
                top = state[at];
                break;
            }
            const ms_rank_info *peer = related(in) ? ms_run_rank(run, in->align.peer) : NULL;
            if (!peer) {
                in->align.model = MS_ALIGN_NONE;
                in->align.same_clock = 0;
                state[at] = CLK_LOOSE;
                top = CLK_LOOSE;
                break;
            }
            state[at] = CLK_BUSY;
            chain[n++] = at;
            at = (size_t)(peer - run->ranks);
        }
        top_peer = &run->ranks[at];
        while (n > 0) {
            ms_rank_info *in = &run->ranks[chain[--n]];
            int st = settle(in, top_peer, top) ? CLK_ANCHORED : CLK_LOOSE;
            state[chain[n]] = (unsigned char)st;
            top = st;
            top_peer = in;
        }
    }
    for (size_t k = 0; k < run->nranks; k++) {
        ms_rank_info *in = &run->ranks[k];
        if (in->has_events && in->align.model != MS_ALIGN_NONE) {
            in->first_start = ms_clock_apply(&in->align, in->first_start);
            in->last_end = ms_clock_apply(&in->align, in->last_end);
        }
    }
    free(state);
    free(chain);
}

int ms_clock_align_describe(const ms_run *run, char *buf, size_t cap)
{
    int64_t most = 0;
    double most_ppm = 0.0;
    int32_t rank = -1, ppm_rank = -1;
    for (size_t k = 0; k < run->nranks; k++) {
        const ms_rank_info *in = &run->ranks[k];
        int64_t s = in->align.model == MS_ALIGN_NONE ? 0 : ms_clock_max_shift(&in->align);
        if (s > most)
            most = s, rank = in->rank;
        double ppm = fabs(ms_clock_drift_ppm(&in->align));
        if (ppm > most_ppm)
            most_ppm = ppm, ppm_rank = in->rank;
    }
    if (rank < 0 || most < MS_ALIGN_REPORT_NS)
        return 0;
    int n = snprintf(buf, cap, "aligned to rank 0's by ping-pong: corrected by up to %.3f ms (rank %d)",
                     (double)most / 1e6, (int)rank);
    if (ppm_rank >= 0 && n >= 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, ", drift up to %.1f ppm (rank %d)", most_ppm, (int)ppm_rank);
    return 1;
}
