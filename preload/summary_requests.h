/*
 * Summary mode's request records (docs/FORMAT.md "Requests"): the writer
 * thread matches them as the merge's reader does (common/req_records.h), so
 * that a completion call is counted under the name that reports what it
 * completed, and the application's path records the same raw facts in both
 * modes. A thread's records are kept until its next event that is not a
 * tool's own; a completion's name is a region of the writer's own, with a
 * thread-local id from MS_SUMRQ_ID_BASE on (the application's ids stay
 * below it), defined in the snapshot like any region.
 */
#ifndef MPISCOPE_SUMMARY_REQUESTS_H
#define MPISCOPE_SUMMARY_REQUESTS_H

#include <stddef.h>
#include <stdint.h>

#include "../common/log_format.h"
#include "../common/req_records.h"

#define MS_SUMRQ_ID_BASE (1u << 20)

typedef struct ms_sumrq_name {
    ms_region_info *info; /* an MPI region's fields, else NULL */
    int is_tool;
    ms_rq_facts facts;    /* of a request an event of it creates */
} ms_sumrq_name;

typedef struct ms_sumrq_thread {
    ms_rq_record *pend;   /* records kept until the next event */
    size_t npend, pend_cap;
    uint64_t where;       /* the latest record's handle address */
    ms_sumrq_name *names; /* by the application's region id */
    uint32_t nnames;
    ms_rq_names derived;  /* (region id, fold) -> the writer's region */
    uint32_t nderived;
} ms_sumrq_thread;

void ms_sumrq_free(ms_sumrq_thread *q);

/* A region definition of the thread: its name is kept when MPI's or the
 * tool's. 0, or -1 when out of memory. */
int ms_sumrq_define(ms_sumrq_thread *q, uint64_t id, const char *name, size_t len);

/* One request record after its head at *pp (advanced past it), kept. 0;
 * -1 for a record this writer cannot read or no memory. */
int ms_sumrq_record(ms_sumrq_thread *q, const uint8_t **pp, const uint8_t *end);

/* At an event of region `id` that started at start_ns: the kept records
 * applied (rq: the process's requests). Returns 0 when the event keeps its
 * region (records, if any, stay kept past a tool's event), 1 when it is
 * counted under the writer's region *derived instead (a new one: *name,
 * *len set for its definition, NUL-terminated in name[cap]), -1 when out
 * of memory. */
int ms_sumrq_apply(ms_rq_table *rq, ms_sumrq_thread *q, uint32_t thread, uint64_t id, uint64_t start_ns,
                   uint32_t *derived, char *name, size_t cap, size_t *len);

/* The same where nothing is counted (a trace that a full disk may fold
 * later): the requests are created and completed. 0, or -1 when out of
 * memory. */
int ms_sumrq_follow(ms_rq_table *rq, ms_sumrq_thread *q, uint32_t thread, uint64_t id, uint64_t start_ns);

#endif
