/* A run's ranks on the common clock: see run_clock.h. */
#include "run_clock.h"

#include <math.h>
#include <stdio.h>

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

void ms_clock_align_run(ms_run *run)
{
    const ms_rank_info *r0 = ms_run_rank(run, 0);
    for (size_t k = 0; k < run->nranks; k++) {
        ms_rank_info *in = &run->ranks[k];
        if (!r0 || in->rank == 0) {
            in->align.model = MS_ALIGN_NONE;
            continue;
        }
        ms_clock_fit(&in->align, r0->clock_offset_ns);
        if (in->has_events) {
            in->first_start = ms_clock_apply(&in->align, in->first_start);
            in->last_end = ms_clock_apply(&in->align, in->last_end);
        }
    }
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
