/*
 * A log's wait-state facts (wait_facts.h) on the MPI merge's wire
 * (docs/MERGE_MPI.md "file" and "Fact pieces"): the names travel in the
 * file's record; the spilled records (ends, lane and user events) travel
 * afterwards in bounded pieces (wire_facts.h), each record by the field
 * tables here; the receiver spills them again, into its own temporary
 * files.
 */
#ifndef MPISCOPE_WIRE_WAITS_H
#define MPISCOPE_WIRE_WAITS_H

#include "wait_facts.h"
#include "wire.h"

/* Wire sizes of a message end or collective call and of a lane or user
 * event. */
#define MS_WIRE_END_BYTES (8 * 4 + 4 * 5 + 2 + 1 + 1 + 1)
#define MS_WIRE_SPAN_BYTES (8 + 8 + 4 + 4 + 2)

/* u8 present (0: none, summary mode), then the facts' counts and names
 * (no record). */
void ms_wire_put_waits(ms_pbuf *b, const ms_wait_facts *f);
/* The facts as put, their spill empty and open for the records to come;
 * NULL for none (or r turned bad or out of memory). */
ms_wait_facts *ms_wire_get_waits(ms_wire_in *r);

/* One record at a cursor (ms_wire_st / ms_wire_ld), field by field. */
void ms_wire_put_end(unsigned char **o, const ms_wx_end *x);
void ms_wire_get_end(const unsigned char **q, ms_wx_end *x);
void ms_wire_put_span(unsigned char **o, const ms_wx_span *x);
void ms_wire_get_span(const unsigned char **q, ms_wx_span *x);

#endif
