/* The ending records (ending.h). */
#include "ending.h"

#include <string.h>
#include <time.h>

#include "clock.h"
#include "config.h"
#include "registry.h"

/* Threads the writer watches (the first ones of the registry). */
#define WATCHED 256u

static ms_ending_record pending;
static _Atomic int has_pending;
static _Atomic int alone;

/* Per watched thread: the call (its in_since) last seen, when the writer
 * first saw it, and what was written of it. */
static struct {
    uint64_t since, seen_mono;
    int blocked_written, stuck_written;
} watched[WATCHED];
/* The threads' published positions summed, when they last moved, and
 * whether the idle time since was written. */
static uint64_t heads_sum, heads_mono, heads_ticks;
static int idle_written;

/* Copy thread t's call when it is inside one; 1 when copied. */
static int copy_call(ms_ending_record *e, ms_thread *t)
{
    uint64_t since = atomic_load_explicit(&t->in_since, memory_order_acquire);
    if (!since)
        return 0;
    ms_in_call c = t->in_call;
    if (atomic_load_explicit(&t->in_since, memory_order_acquire) != since)
        return 0;
    e->thread = t->index;
    e->call_since = since;
    e->call_pc = c.pc;
    e->call_comm = c.comm;
    e->call_op = c.op;
    e->call_peer = c.peer;
    e->call_tag = c.tag;
    e->call_root = c.root;
    e->req_count = c.req_count;
    if (c.req_count) {
        uint32_t held = c.req_count < MS_ENDING_REQS ? c.req_count : MS_ENDING_REQS;
        e->req_stride = c.req_stride;
        e->req_at = c.req_at;
        memcpy(e->reqs, c.reqs, held * sizeof *e->reqs);
    }
    return 1;
}

void ms_ending_fill(ms_ending_record *e, uint32_t cause, ms_thread *t)
{
    memset(e, 0, sizeof *e);
    e->cause = cause;
    e->thread = UINT32_MAX;
    e->call_comm = -1;
    e->call_peer = e->call_tag = e->call_root = -1;
    e->ticks = ms_now();
    if (t && copy_call(e, t))
        return;
    uint32_t n = ms_registry_count();
    for (uint32_t i = 0; i < n; i++) {
        ms_thread *o = ms_registry_thread(i);
        if (o && o != t && copy_call(e, o))
            return;
    }
}

void ms_ending_set_abort(int code, uint32_t op, uint64_t pc)
{
    ms_ending_fill(&pending, MS_ENDING_ABORT, NULL);
    ms_thread *t = ms_tls_thread;
    pending.code = code;
    pending.thread = t ? t->index : UINT32_MAX;
    pending.call_since = pending.ticks;
    pending.call_pc = pc;
    pending.call_comm = -1;
    pending.call_op = op;
    pending.call_peer = pending.call_tag = pending.call_root = -1;
    pending.req_count = pending.req_stride = 0;
    pending.req_at = 0;
    memset(pending.reqs, 0, sizeof pending.reqs);
    atomic_store(&has_pending, 1);
}

const ms_ending_record *ms_ending_pending(void)
{
    return atomic_load(&has_pending) ? &pending : NULL;
}

void ms_ending_set_alone(int a)
{
    atomic_store(&alone, a);
}

void ms_ending_linger(void)
{
    if (atomic_load(&alone))
        return;
    uint64_t ms = (uint64_t)ms_cfg.flush_ms + 2u * MS_ENDING_BLOCKED_MS;
    struct timespec ts = {(time_t)(ms / 1000u), (long)(ms % 1000u) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

uint32_t ms_ending_watch(uint64_t mono_ns, ms_ending_record *e)
{
    uint64_t hang_ns = (uint64_t)ms_cfg.hang_s * 1000000000u;
    uint64_t blocked_ns = (uint64_t)MS_ENDING_BLOCKED_MS * 1000000u;
    uint32_t n = ms_registry_count();
    uint64_t sum = 0;
    int inside = 0;
    ms_thread *blocked = NULL, *stuck = NULL;
    uint32_t blocked_i = 0, stuck_i = 0;
    for (uint32_t i = 0; i < n; i++) {
        ms_thread *t = ms_registry_thread(i);
        if (!t)
            continue;
        sum += atomic_load_explicit(&t->head, memory_order_acquire);
        if (i >= WATCHED)
            continue;
        uint64_t since = atomic_load_explicit(&t->in_since, memory_order_acquire);
        if (!since)
            continue;
        inside = 1;
        if (since != watched[i].since) {
            watched[i].since = since;
            watched[i].seen_mono = mono_ns;
            watched[i].blocked_written = watched[i].stuck_written = 0;
            continue;
        }
        uint64_t lasted = mono_ns - watched[i].seen_mono;
        if (hang_ns && lasted >= hang_ns && !watched[i].stuck_written && !stuck)
            stuck = t, stuck_i = i;
        if (lasted >= blocked_ns && !watched[i].blocked_written && !blocked)
            blocked = t, blocked_i = i;
    }
    if (sum != heads_sum || !heads_mono) {
        heads_sum = sum;
        heads_mono = mono_ns;
        heads_ticks = ms_now();
        idle_written = 0;
    }
    if (stuck) {
        watched[stuck_i].stuck_written = watched[stuck_i].blocked_written = 1;
        ms_ending_fill(e, MS_ENDING_STUCK, stuck);
        return MS_ENDING_STUCK;
    }
    if (hang_ns && !inside && !idle_written && n > 0 && mono_ns - heads_mono >= hang_ns) {
        idle_written = 1;
        ms_ending_fill(e, MS_ENDING_STUCK, NULL);
        e->idle_since = heads_ticks;
        return MS_ENDING_STUCK;
    }
    if (blocked) {
        watched[blocked_i].blocked_written = 1;
        ms_ending_fill(e, MS_ENDING_BLOCKED, blocked);
        return MS_ENDING_BLOCKED;
    }
    return 0;
}
