/*
 * The facts of one log that the wait-state analysis (analysis/waits/)
 * matches and measures, gathered while the reduction reads the log: the
 * first thread's MPI calls and user regions, the calls of other threads
 * that send, receive or complete, every message end and every collective
 * entered. Region names are turned into those facts here (which calls
 * send, receive, complete or synchronize); message records (version 5)
 * give what names cannot: each request a Waitall or Startall completed or
 * started, Sendrecv's received half, and when each request was posted.
 * A log of an earlier version gives what its names attribute: single
 * completions, no post times (the completion's start stands in).
 *
 * The facts go to disk as they are made (analysis/waits/wait_spill.h):
 * an end waits in memory only while its request is in flight, and the
 * ends of the event being read until it is done. Times stay on the rank's
 * tool clock (the analysis moves them); events name regions by an index
 * into the facts' own list of names.
 *
 * Polling counts as waiting. A thread's poll run is a sequence of calls of
 * one test-family op (test, testany, testsome, testall: the op trait
 * `test` of pmpi/calls.tbl with a completion class) or of one probe op
 * (iprobe, improbe) at one call site, each starting at most
 * MS_WX_POLL_GAP_NS after the previous one ended. The call site stands in
 * for "the same requests or message": a poll that completes nothing names
 * no peer or tag (its region name differs from the completing one's), so
 * the op and the call site decide. The ends that a poll of a test run
 * completes wait from the run's first poll's start and are charged, as
 * those of the blocking form (late sender, late receiver, a non-blocking
 * collective's patterns); the run ends there. A probe run followed within
 * the bound by the receive that takes its message (recv, mrecv; or an
 * irecv or imrecv, then at once the wait that completes it, or test polls
 * for it) gives that receive's end the probe run's first start. Any other
 * MPI call on the thread, or a longer gap, ends a run; user regions do not.
 * Events keep their own start (the lane of MPI calls is unchanged).
 */
#ifndef MPISCOPE_WAIT_FACTS_H
#define MPISCOPE_WAIT_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "p2p.h"
#include "../read/log_reader.h"
#include "../waits/waits.h"

/* The longest gap between the end of a call of a poll run and the start
 * of the next one: 2 ms. A poll loop's own work between two polls is
 * short (µs); a program that computes longer than this between its polls
 * overlaps work with the message, and is not waiting. Where ranks share
 * cores, the scheduler may take the core away between two polls for a
 * time slice: the run is then cut there, and only its part after the cut
 * counts as waiting. */
#define MS_WX_POLL_GAP_NS 2000000

/* The gap for the reductions that follow (the merge's --poll-gap; set
 * before any log is read): ns, or MS_WX_POLL_GAP_NS. */
void ms_wait_facts_set_poll_gap(int64_t ns);

typedef struct ms_wait_facts {
    ms_wx_spill spill;         /* finished by ms_wait_acc_finish */
    uint32_t nev;              /* events numbered */
    char **names;              /* ev[].region -> region name */
    size_t nnames, names_cap;
    /* Events name a region at a call site: names[k] is the region of name
     * k, sites[k] its call site. While the log is read, name_site[k] is
     * the reader's call-site sum entry of the pair (callsites.h; MS_WX_NONE:
     * the events had no call site); once it is read, places[k] is that
     * entry's location (ms_callsite.location; NULL: none). */
    uint32_t *name_site;
    char **places;
    uint64_t messages_read;    /* message records seen */
    uint32_t has_records;      /* the log's version writes message records */
} ms_wait_facts;

/* Empty facts (their spill made); ms_wait_facts_free frees them. */
void ms_wait_facts_init(ms_wait_facts *f);
void ms_wait_facts_free(ms_wait_facts *f);

/* What is kept while one log is read. */
typedef struct ms_wait_acc ms_wait_acc;

/* A new accumulator filling *out, for the log of world rank `rank` whose
 * communicators are in comms (filled as the log is read). NULL when out
 * of memory. */
ms_wait_acc *ms_wait_acc_new(ms_wait_facts *out, const ms_comm_map *comms);
/* Once the log is read: requests never completed written as such, the
 * facts finished. 0, or -1 (memory, disk). */
int ms_wait_acc_finish(ms_wait_acc *a);
void ms_wait_acc_free(ms_wait_acc *a);

/* The reader's callbacks, forwarded (the header's rank and format
 * version). 0, or -1 when out of memory. */
int ms_wait_acc_header(ms_wait_acc *a, int32_t rank, uint32_t version);
int ms_wait_acc_region(ms_wait_acc *a, uint32_t region, const char *name, size_t len);
int ms_wait_acc_message(ms_wait_acc *a, const ms_read_message *m);
/* site: the call-site sum entry the event was added to (callsites.h:
 * ms_site_acc's entry), MS_WX_NONE when it has no call site. */
int ms_wait_acc_event(ms_wait_acc *a, const ms_read_event *ev, uint32_t site);

/* Once the log is read: each name's place from the call-site sum entries'
 * locations (loc[entry], n entries; NULL: unknown). 0, or -1 when out of
 * memory. */
int ms_wait_facts_places(ms_wait_facts *f, char *const *loc, size_t n);

#endif
