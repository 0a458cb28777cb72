/*
 * Request records (docs/FORMAT.md "Requests", version 6) as their readers
 * use them, over the matching of req_match.h: the log reader of the merge
 * (analysis/read/decode_request.c) and summary mode's writer thread
 * (preload/summary_requests.c), which both keep a thread's records until
 * its next event, apply them there and rename a completion's event.
 *
 *   (the records' bytes: req_codec.h)
 *   ms_rq_apply   a thread's kept records at its event: requests created,
 *                 taken and folded, their messages handed to a callback
 *   ms_rq_facts_of, ms_rq_name   what an event's name says of the requests
 *                 it creates, and the name of a completion from its fold
 *   ms_rq_names   completion names by (event name, fold), found again
 *                 without formatting
 * MPI-free.
 */
#ifndef MPISCOPE_REQ_RECORDS_H
#define MPISCOPE_REQ_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "region_parse.h"
#include "req_codec.h"
#include "req_match.h"

/* What the region name an event has (parsed: info, is_mpi; info NULL:
 * nothing) says of a request it creates: op, communicator, peer, tag,
 * bytes. */
void ms_rq_facts_of(const ms_region_info *info, int is_mpi, ms_rq_facts *out);

/* Apply n records of thread `thread` at its event (which started at
 * start_ns, and whose name says `facts`): NEW records create requests, the
 * others are taken and folded into *fold, each message handed to on_msg
 * (when not NULL; a non-zero return stops). Returns 0, or 1 when a record
 * other than NEW was applied (the event is to be renamed); -1 when out of
 * memory, -2 when on_msg stopped. */
int ms_rq_apply(ms_rq_table *t, uint32_t thread, const ms_rq_record *recs, size_t n, const ms_rq_facts *facts,
                uint64_t start_ns, ms_rq_fold *fold, int (*on_msg)(void *ctx, const ms_rq_message *m),
                void *ctx);

/* One NEW record of ms_rq_apply: the request it creates. 0, or -1 when out
 * of memory. */
int ms_rq_apply_new(ms_rq_table *t, uint32_t thread, const ms_rq_record *rec, const ms_rq_facts *facts,
                    uint64_t start_ns);

/* The name of a completion event whose own name is `raw` (parsed), with
 * the fields of fold (DESIGN section 4); its length, as snprintf. */
size_t ms_rq_name(char *buf, size_t cap, const ms_region_info *raw, const ms_rq_fold *fold);

/* Completion names found again: (raw, fold) -> a caller's id. */
typedef struct ms_rq_names {
    struct ms_rq_name_slot *s;
    size_t mask, used;
} ms_rq_names;

void ms_rq_names_init(ms_rq_names *n);
void ms_rq_names_free(ms_rq_names *n);
/* 1 and *id when known, else 0. */
int ms_rq_names_find(const ms_rq_names *n, uint64_t raw, const ms_rq_fold *fold, uint32_t *id);
/* 0, or -1 when out of memory. */
int ms_rq_names_put(ms_rq_names *n, uint64_t raw, const ms_rq_fold *fold, uint32_t id);

#endif
