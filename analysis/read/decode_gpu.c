/*
 * The log reader's GPU records (docs/FORMAT.md "GPU activity"): streams,
 * launches, dropped records and the CUPTI track.
 */
#include "log_reader_int.h"

/* GPU records (version 4): control values 9 to 12. */
ms_read_status ms_rd_gpu(ms_reader *r, thread_state *t, unsigned ctl, const uint8_t **pp, const uint8_t *end)
{
    ms_gpu_record g = {.thread = t->thread};
    uint64_t a = 0, b = 0, c = 0;
    switch (ctl) {
    case MS_CTL_GPU_STREAM:
        g.kind = MS_GPU_STREAM;
        if (get_varint(pp, end, &a) != 0 || get_varint(pp, end, &b) != 0 || get_varint(pp, end, &c) != 0)
            return ms_rd_corrupt_at(r, "GPU stream record runs past its block");
        if (a > UINT32_MAX || b > UINT32_MAX || c > UINT32_MAX)
            return ms_rd_corrupt_at(r, "GPU stream record with a device, context or stream out of range");
        g.device = (uint32_t)a, g.context = (uint32_t)b, g.stream = (uint32_t)c;
        break;
    case MS_CTL_GPU_LAUNCH:
        g.kind = MS_GPU_LAUNCH;
        if (get_varint(pp, end, &a) != 0 || get_varint(pp, end, &b) != 0)
            return ms_rd_corrupt_at(r, "GPU launch record runs past its block");
        if (a > MS_READER_MAX_THREADS || b > MS_RD_MAX_TIME)
            return ms_rd_corrupt_at(r, "GPU launch record with a thread or time out of range");
        g.host_thread = (uint32_t)a;
        g.launch_ns = a ? to_ns(r, b) : 0;
        break;
    case MS_CTL_GPU_DROPPED:
        g.kind = MS_GPU_DROPPED;
        if (get_varint(pp, end, &a) != 0)
            return ms_rd_corrupt_at(r, "GPU dropped-records record runs past its block");
        g.dropped = a;
        break;
    default:
        g.kind = MS_GPU_TOOL;
        break;
    }
    if (r->cb && r->cb->gpu && r->cb->gpu(r->ctx, &g) != 0)
        return ms_rd_stopped(r);
    return MS_READ_OK;
}
