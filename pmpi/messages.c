/* Message records staged per thread: see messages.h. */
#include "messages.h"

#include "../common/log_format.h"
#include "../preload/config.h"
#include "../preload/diag.h"
#include "../preload/scratch.h"

MS_HIDDEN __thread ms_msg_stage ms_msg_tls __attribute__((tls_model("initial-exec")));
MS_HIDDEN int ms_msg_on;

void ms_msg_setup(void)
{
    ms_msg_on = ms_cfg.mode == MS_MODE_TRACE;
}

int ms_msg_grow(ms_thread *t, ms_msg_stage *s)
{
    if (s->over)
        return -1;
    /* What one call stages is written to the ring at once, with its event
     * (tstate.h's ms_event_pre): at most a quarter of it. */
    size_t want = s->cap ? s->cap * 2 : 4096u;
    if (want > t->capacity / 4 || ms_scratch_reserve((void **)&s->buf, &s->cap, want, 1) != 0) {
        if (want > t->capacity / 4)
            ms_warn_once(MS_WARN_MESSAGES, "a call handled more requests than the event buffer takes at once "
                         "(MPISCOPE_BUFFER_KB); its message records are left out");
        else
            ms_warn_once(MS_WARN_MEMORY, "no memory for message records; some calls are recorded without");
        s->over = 1;
        s->len = s->cap;
        return -1;
    }
    return 0;
}
