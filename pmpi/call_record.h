/*
 * One intercepted call, as the wrappers describe it, and its recording: the
 * call's fields are interned per thread into a region id (a hash of a few
 * integers, never of a string), then appended as one event.
 */
#ifndef MPISCOPE_CALL_RECORD_H
#define MPISCOPE_CALL_RECORD_H

#include <stdint.h>

#include "pmpi_ops.h"
#include "tstate.h"

typedef struct ms_call {
    uint16_t op;       /* enum ms_op */
    uint16_t req_op;   /* completion calls: op of the completed requests, MS_OP_MIXED,
                          MS_OP_UNKNOWN; MS_OP_NONE when nothing completed */
    int32_t peer;      /* -1: none */
    int32_t root;      /* -1: none */
    int32_t tag;       /* -1: none */
    int64_t bytes;     /* -1: not applicable or unknown */
    int64_t comm;      /* -1: none */
} ms_call;
_Static_assert(sizeof(ms_call) == 32, "ms_call has no padding");

static inline ms_call ms_call_init(uint16_t op)
{
    ms_call c = {.op = op, .req_op = MS_OP_NONE, .peer = -1, .root = -1, .tag = -1, .bytes = -1, .comm = -1};
    return c;
}

/* Record the call as one event from t0 to t1. */
MS_HIDDEN void ms_call_record(ms_thread *t, const ms_call *c, uint64_t t0, uint64_t t1);

/* The canonical region name of a call (DESIGN §4); returns its length. */
MS_HIDDEN size_t ms_call_name(const ms_call *c, char *buf, size_t cap);

#endif
