/*
 * Ranks of facts for the wait-state analysis's unit tests (test_waits.c,
 * test_root_causes.c): times in ns, so every expectation is exact.
 */
#ifndef MPISCOPE_TEST_WX_RANK_H
#define MPISCOPE_TEST_WX_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "../../analysis/waits/wait_types.h"

/* A rank whose application time runs from 0 to its last event's end. */
static inline ms_wx_rank mk_rank(int32_t rank, const ms_wx_event *ev, size_t nev, const ms_wx_msg *msg, size_t nmsg,
                                 const ms_wx_coll *coll, size_t ncoll)
{
    int64_t end = 0;
    for (size_t i = 0; i < nev; i++)
        if (ev[i].end > end)
            end = ev[i].end;
    return (ms_wx_rank){.rank = rank, .app_start = 0, .app_end = end, .finalized = 1, .app_ns = (uint64_t)end,
                        .ev = ev, .nev = nev, .msg = msg, .nmsg = nmsg, .coll = coll, .ncoll = ncoll};
}

#endif
