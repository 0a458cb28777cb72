/*
 * Point-to-point messages from message records (docs/FORMAT.md "Messages",
 * version 5). In a trace, the calls whose region name cannot say what they
 * sent or received (p2p.h: MS_P2P_SEND_ANY of start and startall,
 * MS_P2P_RECV_ANY of the completions) write one message record per request
 * they started or completed, right before their event, on their thread.
 * Their messages are counted from those records, one by one: the sends that
 * startall started, and the receives that waitall, waitsome, testall,
 * testsome or a completion of mixed or isendrecv requests completed. So the
 * matrix counts them and the trace draws their arrows (flows.h).
 *
 * A call with a record of a request the tool did not see created (op 0)
 * keeps its name's pattern: its calls stay MS_P2P_SEND_ANY or
 * MS_P2P_RECV_ANY. So do calls of logs without message records (summary
 * mode, versions before 5) and calls folded into a summary (a full disk).
 */
#ifndef MPISCOPE_P2P_FACTS_H
#define MPISCOPE_P2P_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "../read/log_reader.h"
#include "p2p.h"

typedef enum ms_p2p_facts {
    MS_P2P_FACTS_NONE = 0,       /* the name says it all (or nothing) */
    MS_P2P_FACTS_STARTS = 1,     /* start, startall: sends from records */
    MS_P2P_FACTS_COMPLETIONS = 2 /* completions: receives from records */
} ms_p2p_facts;

/* Whether the calls of a log (format version, enum ms_mode) wrote their
 * message records. */
int ms_p2p_facts_on(uint32_t version, uint32_t mode);

/* What the records of a call of the region with parsed name ri say, dir
 * being its ms_p2p_classify. */
ms_p2p_facts ms_p2p_facts_of(const ms_region_info *ri, ms_p2p_dir dir);

/* Whether the n records of one call name every request it started or
 * completed (none of op 0). */
int ms_p2p_facts_known(const ms_read_message *m, size_t n);

/* The channel a record of a call of that kind adds: MS_P2P_SEND,
 * MS_P2P_RECV, or MS_P2P_NONE (counted elsewhere, or no message). */
ms_p2p_dir ms_p2p_fact_dir(ms_p2p_facts kind, const ms_read_message *m);

/* The message records read since the last event of each thread. */
typedef struct ms_p2p_thread_pending {
    ms_read_message *v;
    size_t n, cap;
} ms_p2p_thread_pending;

typedef struct ms_p2p_pending {
    ms_p2p_thread_pending *th;
    size_t nth;
} ms_p2p_pending;

/* Keep a record until its thread's next MPI event. Returns 0, or -1 when
 * out of memory. */
int ms_p2p_pending_add(ms_p2p_pending *p, const ms_read_message *m);

/* The records kept for thread (*n of them), handed over: valid until the
 * next ms_p2p_pending_add. */
const ms_read_message *ms_p2p_pending_take(ms_p2p_pending *p, uint32_t thread, size_t *n);

void ms_p2p_pending_free(ms_p2p_pending *p);

#endif
