/* The received half of a sendrecv as a message record (messages.h): what
 * the status says arrived, posted by the call itself. */
#include "semantics.h"

void ms_msg_received(ms_thread *t, const ms_call *c, const MPI_Status *st, uint64_t t0)
{
    ms_call r = *c;
    ms_from_status(&r, st);
    ms_msg_stage_one(t, c->op, MS_MESSAGE_RECV | MS_MESSAGE_POSTED, c->comm, r.peer, r.tag, r.bytes, t0);
}
