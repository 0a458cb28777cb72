/*
 * What a rank's log says of its communicators (docs/FORMAT.md
 * "Communicators"): members, how each was made (version 8) and the name
 * MPI_Comm_set_name gave it, as the reduction keeps them in its
 * ms_rank_info (run.h). The run's table and the names the reports show are
 * in comms.h.
 */
#ifndef MPISCOPE_COMM_FACTS_H
#define MPISCOPE_COMM_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "../read/idmap.h"
#include "../../common/log_format.h"

typedef struct ms_comm_fact {
    int64_t id;
    int64_t parent;                /* -1: none */
    uint64_t seq;                  /* the creation's number on its parent */
    uint32_t op;                   /* creating call's op (pmpi/calls.tbl); 0: none */
    uint32_t has_origin;           /* an origin record was read */
    uint32_t size;                 /* members in its record (an intercommunicator:
                                      its remote group); 0: not known */
    int32_t low;                   /* lowest member's world rank; -1: not known */
    uint32_t ndims;                /* a Cartesian communicator's dimensions */
    uint32_t dims[MS_MAX_COMM_DIMS];
    uint32_t region, site;         /* creating call's per-file region and site,
                                      while the file is read */
    uint32_t unused;               /* 0: no padding travels */
    char *name;                    /* MPI_Comm_set_name's; NULL: none */
    char *where;                   /* creating call's site ("func at file:line"); NULL: none */
} ms_comm_fact;

/* A rank's communicators, in the order its log gives them. */
typedef struct ms_comm_facts {
    ms_comm_fact *v;
    size_t n;
} ms_comm_facts;

/* The fact of id, added (zeroed, parent and low -1) when new; index maps
 * ids to positions while the file is read. NULL when out of memory. */
ms_comm_fact *ms_comm_facts_get(ms_comm_facts *f, ms_idmap *index, int64_t id);
/* Set a fact's name (len bytes) or call site; 0, or -1 when out of memory. */
int ms_comm_fact_name(ms_comm_fact *c, const char *name, size_t len);
void ms_comm_facts_free(ms_comm_facts *f);

#endif
