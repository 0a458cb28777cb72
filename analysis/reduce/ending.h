/*
 * How each rank ended, from its ending blocks (format version 9,
 * common/log_format.h) and its end record, and the run's wait-for graph at
 * its end (DESIGN §7, "How the run ended"). One file's blocks are gathered
 * while it is read (ms_ending_acc), resolved into the rank's
 * ms_rank_ending (call sites symbolized, peers and communicators in world
 * ranks), which the wire format carries; ms_run_ending then sees every
 * rank. Independent of the wait-state analysis (analysis/waits).
 */
#ifndef MPISCOPE_REDUCE_ENDING_H
#define MPISCOPE_REDUCE_ENDING_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/log_format.h"
#include "../read/log_reader.h"
#include "../symbolize/symbolize.h"
#include "p2p.h"

/* A request a completion call waits on (format version 10), as the call
 * that created it describes it. */
typedef struct ms_end_req {
    uint32_t op;                   /* the creating call's op id; 0: not known */
    int32_t peer;                  /* the world rank it sends to or receives
                                      from; -1: none, any source, or not known */
    int32_t tag;                   /* -1: none or any */
} ms_end_req;

/* One rank's end as its log tells it. Times are the rank's tool clock
 * (CLOCK_MONOTONIC ns from the reader); 0: none. */
typedef struct ms_rank_ending {
    uint32_t cause;                /* MS_ENDING_* of the block that tells the end; 0: none */
    int32_t signal, code;          /* SIGNAL: the signal, si_code; ABORT: code */
    uint32_t op;                   /* the MPI call it was inside (op id); 0: none */
    int32_t peer;                  /* the world rank it waits for; -1: none or any */
    int32_t tag;                   /* -1: none or any */
    uint64_t at_ns;                /* when the block was written */
    uint64_t since_ns;             /* when the call began */
    uint64_t idle_ns;              /* STUCK outside MPI: its last call's end */
    char *site;                    /* the call's site; NULL: none */
    char *fault_site;              /* the faulting instruction's site; NULL: none */
    uint32_t nmembers;
    int32_t *members;              /* world ranks of the call's communicator, in
                                      its rank order (a collective's), else NULL */
    uint32_t last_op;              /* the rank's last recorded MPI call; 0: none */
    char *last_site;               /* its site; NULL: none */
    uint64_t last_end_ns;          /* its end */
    uint32_t req_count;            /* a completion call's requests, as given */
    uint32_t nreqs;
    ms_end_req *reqs;              /* the first of them that are not
                                      MPI_REQUEST_NULL (at most MS_ENDING_REQS) */
} ms_rank_ending;

void ms_rank_ending_free(ms_rank_ending *e);

/* What one file's reading gathers. */
typedef struct ms_ending_acc {
    int has;
    ms_ending_record rec;          /* the last ending block */
    int has_last;
    uint32_t last_region, last_site;  /* the latest-ending MPI event */
    uint64_t last_end;
} ms_ending_acc;

static inline void ms_ending_acc_event(ms_ending_acc *a, uint32_t region, uint32_t site, uint64_t end_ns)
{
    if (!a->has_last || end_ns >= a->last_end) {
        a->has_last = 1;
        a->last_region = region;
        a->last_site = site;
        a->last_end = end_ns;
    }
}

/* Resolve the file's ending (rd: its reader, still holding its regions,
 * sites and objects; comms: its communicators; last_end: the end of its
 * last MPI call, any thread; rank, size: its world rank and size). A
 * BLOCKED or STUCK block whose call later completed (an MPI call ends
 * after it began) tells nothing and is dropped; the tool's own events (a
 * signal handler's flush, cut short by SIGKILL) do not count. 0, or -1 when out of memory. */
int ms_ending_resolve(const ms_ending_acc *a, uint64_t last_end, const ms_reader *rd, ms_symbolizer *sym,
                      const ms_comm_map *comms, int32_t rank, int32_t size, ms_rank_ending *out);

#endif
