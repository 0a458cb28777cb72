/*
 * Records that belong to one call and go right before its event, in trace
 * mode only: request records (docs/FORMAT.md, "Requests";
 * request_facts.h), the raw facts of each request a call created,
 * completed, started, cancelled or freed, and message records
 * (docs/FORMAT.md, "Messages"), the received half of a sendrecv.
 *
 * A call stages its records per thread while it describes itself
 * (request_facts.h; received.c for a sendrecv), encoded against the thread's time cursor;
 * ms_call_record_msgs (call_record.h) writes them right before the call's
 * event, in one publish. Staging costs a few stores and varint encodes per
 * request: no lock, and no allocation once the thread's staging area is as
 * large as its largest call needed.
 */
#ifndef MPISCOPE_MESSAGES_H
#define MPISCOPE_MESSAGES_H

#include <stddef.h>
#include <stdint.h>

#include "../preload/tstate.h"

typedef struct ms_msg_stage {
    uint8_t *buf;       /* scratch memory (scratch.h) */
    size_t cap;         /* bytes */
    size_t len;         /* bytes staged for the call being recorded */
    int over;           /* the call has more records than a quarter of the
                         * ring can take: it writes none (len is then cap,
                         * so that every further record asks ms_msg_grow) */
    uint64_t where;     /* the handle address of the thread's latest
                         * request record written (request_facts.h) */
} ms_msg_stage;

extern MS_HIDDEN __thread ms_msg_stage ms_msg_tls __attribute__((tls_model("initial-exec")));
/* Room for one more record in s, or -1 (s->over set when the ring could not
 * take the call's records at once, or no memory). */
MS_HIDDEN int ms_msg_grow(ms_thread *t, ms_msg_stage *s);

/* Stage one record. post_t: the log-clock start of the call that posted
 * the request, when flags has MS_MESSAGE_POSTED. */
MS_HOT void ms_msg_stage_one(ms_thread *t, uint32_t op, uint32_t flags, int64_t comm, int64_t peer, int64_t tag,
                             int64_t bytes, uint64_t post_t)
{
    ms_msg_stage *s = &ms_msg_tls;
    if (MS_UNLIKELY(s->cap - s->len < MS_MESSAGE_REC_MAX) && ms_msg_grow(t, s) != 0)
        return;
    int64_t post = (flags & MS_MESSAGE_POSTED) ? (int64_t)(t->cursor - post_t) : 0;
    s->len = (size_t)(ms_rec_message(s->buf + s->len, op, flags, comm, peer, tag, bytes, post) - s->buf);
}

#endif
