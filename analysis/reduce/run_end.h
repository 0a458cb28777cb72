/*
 * How the run ended (DESIGN §7, "How the run ended"): each rank's state
 * from its ending (ending.h) and its end record, and, for the ranks that
 * were blocked in an MPI call at the end, the wait-for graph: whom each
 * waits for (a receive's or send's peer, a collective's members that are
 * not in it, the peers of the requests a completion call waits on), its
 * deadlock cycles (the strongly connected parts of the
 * graph), and the ranks others wait for that wait for nobody.
 */
#ifndef MPISCOPE_RUN_END_H
#define MPISCOPE_RUN_END_H

#include <stddef.h>
#include <stdint.h>

#include "run.h"

enum ms_end_state {
    MS_END_FINISHED,               /* closed its log: MPI_Finalize or exit() */
    MS_END_ABORTED,                /* called MPI_Abort */
    MS_END_SIGNAL,                 /* died of a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) */
    MS_END_KILLED,                 /* killed by a terminating signal (SIGTERM, SIGINT, ...) */
    MS_END_STUCK,                  /* the hang watchdog's last word */
    MS_END_UNKNOWN,                /* the log just stops (SIGKILL) */
};

/* "finished", "aborted", "signal", "killed", "stuck", "unknown". */
const char *ms_end_state_name(int state);

typedef struct ms_end_rank {
    int state;                     /* enum ms_end_state */
    int waiting;                   /* blocked in an MPI call at the end */
    uint32_t nwaits;
    int32_t *waits_for;            /* world ranks, ascending, each once */
    int any;                       /* waits for any one of them (MPI_Waitany,
                                      MPI_Waitsome), not for all: 1; 2 when
                                      one of its requests names no other rank
                                      (any source, itself, not known) */
} ms_end_rank;

typedef struct ms_run_end {
    size_t n;
    ms_end_rank *ranks;            /* as run->ranks */
    int clean;                     /* every rank finished, none missing */
    size_t ncycles;
    uint32_t *cycle_len;
    int32_t **cycles;              /* each ascending, cycles by first rank */
    uint32_t nblocking;
    int32_t *blocking;             /* ascending */
    int64_t end;                   /* common clock: the latest ending or event */
} ms_run_end;

/* 0, or -1 when out of memory (*out freed). */
int ms_run_end_make(const ms_run *run, ms_run_end *out);
void ms_run_end_free(ms_run_end *e);

/* Index into run->ranks of world rank r, or -1. */
long ms_run_rank_index(const ms_run *run, int32_t r);

#endif
