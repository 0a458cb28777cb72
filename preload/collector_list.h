/*
 * The core's side of the collector interface (collector.h): the collectors
 * linked into the library, found in the section ms_collectors, and their
 * hooks run in increasing order.
 */
#ifndef MPISCOPE_COLLECTOR_LIST_H
#define MPISCOPE_COLLECTOR_LIST_H

#include "tstate.h"

MS_HIDDEN void ms_collectors_load(void);
MS_HIDDEN void ms_collectors_start(void);
MS_HIDDEN void ms_collectors_stop(void);
MS_HIDDEN void ms_collectors_thread_attach(ms_thread *t);

/* Whether the collector `name` is linked into the library. */
MS_HIDDEN int ms_collector_linked(const char *name);

#endif
