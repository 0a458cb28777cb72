/*
 * The log reader's message records (docs/FORMAT.md "Messages", version 5):
 * one request that the thread's next event completed or started, delivered
 * as it is read, before that event.
 */
#include "log_reader_int.h"

_Static_assert(MS_MSG_RECV == MS_MESSAGE_RECV && MS_MSG_CANCELLED == MS_MESSAGE_CANCELLED &&
                   MS_MSG_STARTED == MS_MESSAGE_STARTED && MS_MSG_POSTED == MS_MESSAGE_POSTED,
               "the reader's message flags are the format's");

/* A peer or tag: -1 (none) or a rank or tag that fits an int. */
static int rank_like(int64_t v)
{
    return v >= -1 && v <= INT32_MAX;
}

ms_read_status ms_rd_message(ms_reader *r, thread_state *t, const uint8_t **pp, const uint8_t *end)
{
    if (r->version < 5)
        return ms_rd_corrupt_at(r, "message record in a log of format version < 5");
    uint64_t v[7];
    for (int i = 0; i < 7; i++)
        if (get_varint(pp, end, &v[i]) != 0)
            return ms_rd_corrupt_at(r, "message record runs past its block");
    if (v[0] > MS_MESSAGE_MAX_OP)
        return ms_rd_corrupt_at(r, "message record with an op out of range");
    if (v[1] & ~(uint64_t)MS_MESSAGE_FLAGS)
        return ms_rd_corrupt_at(r, "message record with unknown flags");
    ms_read_message m = {
        .thread = t->thread,
        .op = (uint32_t)v[0],
        .flags = (uint32_t)v[1],
        .comm = ms_world_comm(r->world, (int64_t)(v[2] - 1u)),
        .peer = ms_unzigzag(v[3]),
        .tag = ms_unzigzag(v[4]),
        .bytes = ms_unzigzag(v[5]),
        .root = -1,
    };
    int64_t post = ms_unzigzag(v[6]);
    if (!rank_like(m.peer) || !rank_like(m.tag) || m.bytes < -1)
        return ms_rd_corrupt_at(r, "message record with a peer, tag or byte count out of range");
    if (!t->has_time)
        return ms_rd_corrupt_at(r, "message record before the thread's first time record");
    if (m.flags & MS_MESSAGE_POSTED) {
        /* cursor - post, within [0, MS_RD_MAX_TIME]: the cursor is. */
        uint64_t cur = t->cursor;
        if (post >= 0 ? (uint64_t)post > cur : (uint64_t)-(post + 1) >= MS_RD_MAX_TIME - cur)
            return ms_rd_corrupt_at(r, "message record with a post time out of range");
        m.post_ns = to_ns(r, post >= 0 ? cur - (uint64_t)post : cur + (uint64_t)-(post + 1) + 1u);
    } else if (post != 0) {
        return ms_rd_corrupt_at(r, "message record with a post time but no posted flag");
    }
    if (r->cb && r->cb->message && r->cb->message(r->ctx, &m) != 0)
        return ms_rd_stopped(r);
    return MS_READ_OK;
}
