/*
 * A log's wait-state facts (wait_facts.h) on the MPI merge's wire
 * (docs/MERGE_MPI.md "file"): the names, then the spilled records read
 * back from disk (ends, lane and user events); the receiver spills them
 * again, into its own temporary files.
 */
#ifndef MPISCOPE_WIRE_WAITS_H
#define MPISCOPE_WIRE_WAITS_H

#include "wait_facts.h"
#include "wire.h"

/* u8 present (0: none, summary mode), then the facts. A spill that cannot
 * be read back fails the buffer (b->nomem). */
void ms_wire_put_waits(ms_pbuf *b, const ms_wait_facts *f);
/* The facts as put; NULL for none (or r turned bad or out of memory).
 * Region and event indices are checked. */
ms_wait_facts *ms_wire_get_waits(ms_wire_in *r);

#endif
