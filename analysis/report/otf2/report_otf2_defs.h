/*
 * The registries of the OTF2 export (--otf2 DIR): the regions with what
 * their calls become, the communicators and the locations, which the event
 * writer fills and reads and the archive's top level writes out as global
 * definitions. The export's files call one way only:
 *   report_otf2.c         the archive: opens it, has each rank's log
 *                         converted, writes the global definitions (strings,
 *                         system tree, locations, regions, groups,
 *                         communicators) from the registries, closes it
 *   report_otf2_defs.c    the registries, and classify(): the one
 *                         place that decides what an MPI call becomes
 *   report_otf2_events.c  one rank's log -> its locations' events
 *                         (report_otf2_events.h)
 * report_otf2.c calls the other two; report_otf2_events.c calls
 * report_otf2_defs.c; report_otf2_defs.c calls neither.
 * Compiled only with libotf2 (MS_HAVE_OTF2); docs/DESIGN.md section 6
 * says what is mapped how.
 */
#ifndef MPISCOPE_REPORT_OTF2_DEFS_H
#define MPISCOPE_REPORT_OTF2_DEFS_H

#include <otf2/otf2.h>
#include <stddef.h>
#include <stdint.h>

#include "../../reduce/reduce.h"

/* Location of (world rank, thread): rank * 2^16 + thread (threads per rank
 * are below MS_READER_MAX_THREADS = 2^16). */
#define MS_OTF2_LOCATION(rank, thread) (((uint64_t)(rank) << 16) | (uint64_t)(thread))

/* What a region's calls turn into, beyond Enter and Leave. Completions
 * need no class: the message records a completion call carries name the
 * requests it completed. */
typedef enum ms_otf2_class {
    MS_OTF2_PLAIN = 0,
    MS_OTF2_SEND,          /* send, bsend, ssend, rsend: MpiSend */
    MS_OTF2_RECV,          /* recv, mrecv: MpiRecv */
    MS_OTF2_ISEND,         /* isend, ibsend, issend, irsend: MpiIsend */
    MS_OTF2_IRECV,         /* irecv, imrecv: MpiIrecvRequest */
    MS_OTF2_COLLECTIVE,    /* blocking collectives: MpiCollectiveBegin/End */
} ms_otf2_class;

/* A region of the run, as the archive has it. */
typedef struct ms_otf2_region {
    const ms_region *region;
    ms_otf2_class cls;
    OTF2_CollectiveOp coll;
    OTF2_RegionRole role;
    OTF2_RegionRef ref;            /* its OTF2 region: one per MPI function
                                      (MPI_Send), one per other name */
    int comm_resolved;
    OTF2_CommRef comm;             /* OTF2_UNDEFINED_COMM until resolved */
} ms_otf2_region;

/* An OTF2 region definition: what the regions of the run that share it
 * have in common. */
typedef struct ms_otf2_fn {
    char *name;                    /* "MPI_Send", or the region name */
    const ms_otf2_region *first;   /* the first region of the run it stands for */
} ms_otf2_fn;

typedef struct ms_otf2_comm {
    int64_t id;                    /* mpiscope communicator id */
    OTF2_CommRef ref;
    uint32_t n;
    int32_t *members;              /* world ranks in communicator rank order */
} ms_otf2_comm;

typedef struct ms_otf2_location {
    uint64_t ref;
    int32_t rank;
    uint32_t thread;
    uint64_t events;
} ms_otf2_location;

typedef struct ms_otf2 {
    const ms_run *run;
    OTF2_Archive *archive;
    size_t nregions;
    ms_otf2_region *regions;       /* as run->regions */
    size_t nfns;
    ms_otf2_fn *fns;               /* by ref: sorted by paradigm (MPI first), name */
    const ms_region **by_name;     /* run->regions sorted by name */
    size_t ncomms, capcomms;
    ms_otf2_comm *comms;           /* [0] world, [1] self, then in order of first record */
    size_t nlocs, caplocs;
    ms_otf2_location *locs;
    uint64_t unmatched;            /* completions and requests left unmapped */
    uint64_t last_ts;              /* latest timestamp written */
} ms_otf2;

/* Set up the registries of run: its regions classified (and sorted by
 * name), their OTF2 regions (one per MPI function, one per other name),
 * the communicators MPI_COMM_WORLD (id 0, every world rank) and
 * MPI_COMM_SELF (id 1); no locations yet. 0, or -1 when out of memory
 * (ms_otf2_teardown frees what was set up). */
int ms_otf2_setup(ms_otf2 *x, const ms_run *run);

/* Free the registries (not the archive). */
void ms_otf2_teardown(ms_otf2 *x);

/* The OTF2 communicator of an mpiscope id; OTF2_UNDEFINED_COMM when the
 * logs describe no such communicator. */
OTF2_CommRef ms_otf2_comm_ref(const ms_otf2 *x, int64_t id);

/* Record a communicator's members (first record per id wins). 0, or -1
 * when out of memory. */
int ms_otf2_comm_add(ms_otf2 *x, int64_t id, const int32_t *world_ranks, uint32_t n);

/* Add a location with its event count. 0, or -1 when out of memory. */
int ms_otf2_location_add(ms_otf2 *x, int32_t rank, uint32_t thread, uint64_t events);

#endif
