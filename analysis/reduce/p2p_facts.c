/* Point-to-point messages from message records: see p2p_facts.h. */
#include "p2p_facts.h"

#include <stdlib.h>
#include <string.h>

#include "../../common/log_format.h"

int ms_p2p_facts_on(uint32_t version, uint32_t mode)
{
    return version >= 5 && mode == MS_MODE_TRACE;
}

ms_p2p_facts ms_p2p_facts_of(const ms_region_info *ri, ms_p2p_dir dir)
{
    if (dir == MS_P2P_SEND_ANY)
        return MS_P2P_FACTS_STARTS;   /* start and startall only (p2p.h) */
    if (dir == MS_P2P_RECV_ANY && ms_p2p_is_completion(ri))
        return MS_P2P_FACTS_COMPLETIONS;
    return MS_P2P_FACTS_NONE;
}

int ms_p2p_facts_known(const ms_read_message *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (m[i].op == 0)
            return 0;
    return 1;
}

ms_p2p_dir ms_p2p_fact_dir(ms_p2p_facts kind, const ms_read_message *m)
{
    if (m->comm < 0 || m->peer < 0 || (m->flags & MS_MSG_CANCELLED))
        return MS_P2P_NONE;
    int recv = (m->flags & MS_MSG_RECV) != 0, started = (m->flags & MS_MSG_STARTED) != 0;
    /* A started send is a message; a started receive is counted when it
     * completes, and a completed send where it was posted or started. */
    if (kind == MS_P2P_FACTS_STARTS && started && !recv)
        return MS_P2P_SEND;
    if (kind == MS_P2P_FACTS_COMPLETIONS && !started && recv && m->tag >= 0)
        return MS_P2P_RECV;
    return MS_P2P_NONE;
}

int ms_p2p_pending_add(ms_p2p_pending *p, const ms_read_message *m)
{
    if (m->thread >= p->nth) {
        size_t nth = p->nth ? p->nth : 4;
        while (nth <= m->thread)
            nth *= 2;
        ms_p2p_thread_pending *th = realloc(p->th, nth * sizeof *th);
        if (!th)
            return -1;
        memset(th + p->nth, 0, (nth - p->nth) * sizeof *th);
        p->th = th;
        p->nth = nth;
    }
    ms_p2p_thread_pending *t = &p->th[m->thread];
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        ms_read_message *v = realloc(t->v, cap * sizeof *v);
        if (!v)
            return -1;
        t->v = v;
        t->cap = cap;
    }
    t->v[t->n++] = *m;
    return 0;
}

const ms_read_message *ms_p2p_pending_take(ms_p2p_pending *p, uint32_t thread, size_t *n)
{
    *n = 0;
    if (thread >= p->nth)
        return NULL;
    ms_p2p_thread_pending *t = &p->th[thread];
    *n = t->n;
    t->n = 0;
    return t->v;
}

void ms_p2p_pending_free(ms_p2p_pending *p)
{
    for (size_t i = 0; i < p->nth; i++)
        free(p->th[i].v);
    free(p->th);
    p->th = NULL;
    p->nth = 0;
}
