/* Moving a rank's spilled facts as its input says: see wait_input.h. */
#include "wait_input.h"

#include "../../common/stats.h"

int64_t ms_wx_time(const ms_wx_input *in, int64_t t)
{
    return in->clock ? in->clock(in->clock_ctx, t) : t;
}

ms_wx_span ms_wx_span_moved(const ms_wx_input *in, const ms_wx_span *x)
{
    ms_wx_span y = *x;
    if (in->clock) {
        /* The start on the common clock, the duration as measured: as the
         * timeline and the trace place calls. */
        int64_t d = x->end > x->start ? x->end - x->start : 0;
        y.start = in->clock(in->clock_ctx, x->start);
        y.end = ms_sat_add_i64(y.start, d);
    }
    if (in->map && y.region != MS_WX_NONE)
        y.region = y.region < in->nmap ? in->map[y.region] : MS_WX_NONE;
    return y;
}
