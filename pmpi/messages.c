/* Message records staged per thread: see messages.h. */
#include "messages.h"

#include "../common/log_format.h"
#include "../preload/diag.h"
#include "../preload/scratch.h"

MS_HIDDEN __thread ms_msg_stage ms_msg_tls __attribute__((tls_model("initial-exec")));

int ms_msg_grow(ms_thread *t, ms_msg_stage *s)
{
    if (s->over)
        return -1;
    /* What one call stages is written to the ring with its event
     * (tstate.h's ms_event_pre), at most a quarter of it at once. A call
     * with more (a waitall of tens of thousands of requests) writes what
     * it staged so far now, as it is: records encoded against the cursor,
     * which nothing moves before the event; a tool stall that may come
     * between them is the tool's own event, which readers pass over
     * (docs/FORMAT.md, "Messages"). */
    size_t want = s->cap ? s->cap * 2 : 4096u;
    if (want > t->capacity / 4 && s->len > 0 && s->cap <= t->capacity / 4) {
        ms_append(t, s->buf, s->len);
        s->len = 0;
        return 0;
    }
    if (want > t->capacity / 4 || ms_scratch_reserve((void **)&s->buf, &s->cap, want, 1) != 0) {
        ms_warn_once(MS_WARN_MEMORY, "no memory for message records; some calls are recorded without");
        s->over = 1;
        s->len = s->cap;
        return -1;
    }
    return 0;
}
