/* The clock model (measurements, fit, mapping): see clock_align.h. */
#include "clock_align.h"

#include <math.h>

#include "../../common/stats.h"

void ms_clock_obs_set(ms_clock_align *a, const ms_sync_sample *s, int64_t clock_offset_ns)
{
    if (s->phase > MS_SYNC_FINALIZE)
        return;
    a->peer = s->peer;
    if (s->same_clock) {
        a->same_clock = 1;
        return;
    }
    ms_clock_obs *o = &a->obs[s->phase];
    uint64_t rtt = s->t_recv - s->t_send;
    o->has = 1;
    o->local = ms_sat_add_i64((int64_t)(s->t_send + rtt / 2), clock_offset_ns);
    o->peer_mono_ns = s->peer_mono_ns;
    o->rtt_ns = rtt;
    o->exchanges = s->exchanges;
}

/* a - b, saturating. Differences are taken in integers before any
 * conversion: a double holds times near 2^60 to 256 ns only. */
static int64_t sat_sub(int64_t a, int64_t b)
{
    if (b == INT64_MIN)
        return a >= 0 ? INT64_MAX : a - b;
    return ms_sat_add_i64(a, -b);
}

/* a_i = y_i - x_i. */
static double obs_offset(const ms_clock_obs *o, int64_t peer_offset_ns)
{
    int64_t y = ms_sat_add_i64((int64_t)o->peer_mono_ns, peer_offset_ns);
    return (double)sat_sub(y, o->local);
}

void ms_clock_fit(ms_clock_align *a, int64_t peer_offset_ns)
{
    const ms_clock_obs *i = &a->obs[MS_SYNC_INIT], *f = &a->obs[MS_SYNC_FINALIZE];
    a->model = MS_ALIGN_NONE;
    a->offset_ns = 0;
    a->ref = 0;
    a->drift = 0.0;
    const ms_clock_obs *first = i->has ? i : f->has ? f : NULL;
    if (!first)
        return;
    double a0 = obs_offset(first, peer_offset_ns);
    if (!(fabs(a0) < 9e18))
        return;
    a->model = MS_ALIGN_OFFSET;
    a->offset_ns = (int64_t)llround(a0);
    a->ref = first->local;
    if (!i->has || !f->has)
        return;
    double span = (double)sat_sub(f->local, i->local);
    if (!(span >= (double)MS_ALIGN_MIN_SPAN_NS))
        return;
    double b = (obs_offset(f, peer_offset_ns) - a0) / span;
    if (fabs(b) > MS_ALIGN_MAX_DRIFT)
        return;
    a->model = MS_ALIGN_DRIFT;
    a->drift = b;
}

void ms_clock_compose(ms_clock_align *a, const ms_clock_align *p)
{
    if (p->model == MS_ALIGN_NONE)
        return;
    if (a->model == MS_ALIGN_NONE) {
        /* Not measured: the peer's clock is the best guess there is. */
        ms_clock_share(a, p, 0);
        return;
    }
    /* t_p = t + a_c + b_c (t - x_c), t_0 = t_p + a_p + b_p (t_p - x_p):
     * t_0 = t + A + B (t - x_c) with A = a_c + a_p + b_p (x_c + a_c - x_p),
     * B = b_c + b_p + b_p b_c. */
    double bp = p->model == MS_ALIGN_DRIFT ? p->drift : 0.0;
    double bc = a->model == MS_ALIGN_DRIFT ? a->drift : 0.0;
    int64_t at_p = ms_sat_add_i64(a->ref, a->offset_ns);
    double x = (double)sat_sub(at_p, p->ref) * bp;
    if (!(fabs(x) < 9e18))
        x = x < 0 ? -9e18 : 9e18;
    a->offset_ns = ms_sat_add_i64(ms_sat_add_i64(a->offset_ns, p->offset_ns), (int64_t)llround(x));
    a->path_error_ns = ms_clock_error_ns(p);
    double b = bc + bp + bp * bc;
    if (bc != 0.0 || bp != 0.0) {
        a->model = MS_ALIGN_DRIFT;
        a->drift = b;
    }
}

void ms_clock_share(ms_clock_align *a, const ms_clock_align *leader, int64_t shift_ns)
{
    int32_t peer = a->peer, same = a->same_clock;
    *a = *leader;
    a->peer = peer;
    a->same_clock = same;
    if (shift_ns == 0)
        return;
    /* t + shift on the leader's header clock: A(t) = t + shift + a + b (t + shift - x_L),
     * i.e. offset a + shift and reference x_L - shift. */
    if (a->model == MS_ALIGN_NONE) {
        a->model = MS_ALIGN_OFFSET;
        a->offset_ns = shift_ns;
        a->ref = 0;
        a->drift = 0.0;
        return;
    }
    a->offset_ns = ms_sat_add_i64(a->offset_ns, shift_ns);
    if (a->model == MS_ALIGN_DRIFT)
        a->ref = ms_sat_add_i64(a->ref, -shift_ns);
}

int64_t ms_clock_apply(const ms_clock_align *a, int64_t t)
{
    if (a->model == MS_ALIGN_NONE)
        return t;
    int64_t d = a->offset_ns;
    if (a->model == MS_ALIGN_DRIFT) {
        double x = (double)sat_sub(t, a->ref) * a->drift;
        if (x > 9e18)
            x = 9e18;
        if (x < -9e18)
            x = -9e18;
        d = ms_sat_add_i64(d, (int64_t)llround(x));
    }
    return ms_sat_add_i64(t, d);
}

int64_t ms_clock_ahead_ns(const ms_clock_align *a)
{
    return a->model == MS_ALIGN_NONE ? 0 : -a->offset_ns;
}

double ms_clock_drift_ppm(const ms_clock_align *a)
{
    /* dt0/dt = 1 + b: the rank's clock runs 1 / (1 + b) times as fast. */
    return a->model == MS_ALIGN_DRIFT ? (1.0 / (1.0 + a->drift) - 1.0) * 1e6 : 0.0;
}

int64_t ms_clock_error_ns(const ms_clock_align *a)
{
    if (a->model == MS_ALIGN_NONE)
        return 0;
    uint64_t rtt = 0;
    for (int i = 0; i < 2; i++)
        if (a->obs[i].has && (a->model == MS_ALIGN_DRIFT || a->obs[i].local == a->ref) && a->obs[i].rtt_ns > rtt)
            rtt = a->obs[i].rtt_ns;
    return ms_sat_add_i64((int64_t)(rtt / 2), a->path_error_ns);
}

int64_t ms_clock_max_shift(const ms_clock_align *a)
{
    int64_t lo = a->ref, hi = a->obs[MS_SYNC_FINALIZE].has ? a->obs[MS_SYNC_FINALIZE].local : lo;
    int64_t s1 = sat_sub(ms_clock_apply(a, lo), lo), s2 = sat_sub(ms_clock_apply(a, hi), hi);
    s1 = s1 < 0 ? -s1 : s1;
    s2 = s2 < 0 ? -s2 : s2;
    return s1 > s2 ? s1 : s2;
}
